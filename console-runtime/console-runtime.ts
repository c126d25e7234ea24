// The console's browser runtime, loaded by every page: wires the shell's buttons, API forms,
// htmx requests (user header, error handling) and the notices shown after navigation.
import { installAccountFlows } from "./account-flows.ts";
import { apiCall, reportHttpFailure, userHeaders } from "./api-client.ts";
import { installApiButtons } from "./api-buttons.ts";
import { installApiForms } from "./api-forms.ts";
import { installColumnChoosers } from "./column-chooser.ts";
import { installChannelTestDialog } from "./channel-test-dialog.ts";
import { installConfirmDialog } from "./confirm-dialog.ts";
import { copyText } from "./clipboard.ts";
import { installFormHelpers } from "./form-helpers.ts";
import { installQuotaFields } from "./quota-fields.ts";
import { applyNeverSwitches, installDatePickers, installQuickRanges } from "./date-pickers.ts";
import { rememberUser } from "./console-data.ts";
import { installNewYear } from "./new-year.ts";
import { installOptionForms } from "./option-forms.ts";
import { restorePreferences, setLanguage, toggleSidebar, toggleTheme } from "./preferences.ts";
import type { Language } from "../src/i18n/languages.ts";
import { installTestAllChannels } from "./test-all-channels.ts";
import { installTimeZone } from "./time-zone.ts";
import { showToast } from "./toasts.ts";

async function logout(): Promise<void> {
  try {
    await apiCall("GET", "/api/user/logout");
  } finally {
    rememberUser(null);
    window.location.href = "/login";
  }
}

function installActions(): void {
  document.addEventListener("click", (event) => {
    const target = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-action],[data-set-language],[data-copy]");
    if (!target) return;
    if (target.dataset.setLanguage) return setLanguage(target.dataset.setLanguage as Language);
    if (target.dataset.copy !== undefined) return void copyText(target.dataset.copy);
    switch (target.dataset.action) {
      case "toggle-theme":
        return toggleTheme();
      case "toggle-sidebar":
        return toggleSidebar();
      case "logout":
        return void logout();
      case "toggle-fold": {
        // A phone folds some panels (the log filters) behind a button: app.css [data-fold].
        const panel = document.getElementById(target.getAttribute("aria-controls") ?? "");
        const open = panel?.classList.toggle("fold-open") ?? false;
        return target.setAttribute("aria-expanded", String(open));
      }
      case "dismiss-notice": {
        const dialog = document.getElementById("notice-dialog") as HTMLDialogElement | null;
        if (dialog?.dataset.noticeHash) localStorage.setItem("notice-dismissed", dialog.dataset.noticeHash);
        return dialog?.close();
      }
    }
  });
}

/**
 * Menus made of <details class="dropdown"> (a row's chat links, a channel's test models) stay
 * open until their summary is clicked again and would cover the row's other buttons: a click
 * outside, or on one of their items, closes them.
 */
function installDropdownClosing(): void {
  document.addEventListener("click", (event) => {
    const target = event.target as HTMLElement | null;
    for (const menu of document.querySelectorAll<HTMLDetailsElement>("details.dropdown[open]")) {
      const inside = target ? menu.contains(target) : false;
      const onItem = inside && target?.closest("summary") === null && target.closest("a,button") !== null;
      if (!inside || onItem) menu.removeAttribute("open");
    }
  });
}

function installHtmx(): void {
  document.addEventListener("htmx:configRequest", (event) => {
    const detail = (event as CustomEvent<{ headers: Record<string, string> }>).detail;
    Object.assign(detail.headers, userHeaders());
  });
  document.addEventListener("htmx:responseError", (event) => {
    const detail = (event as CustomEvent<{ xhr: XMLHttpRequest }>).detail;
    // An error page (HTML) says nothing useful in a toast: the status's own text is shown instead.
    const isPage = (detail.xhr.getResponseHeader("content-type") ?? "").startsWith("text/html");
    reportHttpFailure(detail.xhr.status, isPage ? undefined : detail.xhr.responseText.slice(0, 200));
  });
}

function showPendingNotices(): void {
  const pending = sessionStorage.getItem("pending-toast");
  if (pending) {
    sessionStorage.removeItem("pending-toast");
    showToast(pending, "success");
  }
  const notice = document.getElementById("notice-dialog") as HTMLDialogElement | null;
  if (notice && localStorage.getItem("notice-dismissed") !== notice.dataset.noticeHash) notice.showModal();
}

function keepInviteCode(): void {
  const aff = new URLSearchParams(window.location.search).get("aff");
  if (aff) localStorage.setItem("aff", aff);
  for (const field of document.querySelectorAll<HTMLInputElement>("input[data-keep-aff]")) {
    if (!field.value) field.value = localStorage.getItem("aff") ?? "";
  }
}

function start(): void {
  const data = document.getElementById("console-data");
  const pageLanguage = data ? ((JSON.parse(data.textContent ?? "{}") as { language?: string }).language ?? "zh") : "zh";
  restorePreferences(pageLanguage);
  installActions();
  installConfirmDialog();
  installTestAllChannels();
  installChannelTestDialog();
  installApiForms();
  installApiButtons();
  installOptionForms();
  installFormHelpers();
  installQuotaFields();
  installDatePickers();
  installQuickRanges();
  installTimeZone();
  applyNeverSwitches(document);
  document.addEventListener("htmx:afterSwap", (event) => applyNeverSwitches(event.target as HTMLElement));
  installHtmx();
  installDropdownClosing();
  installColumnChoosers();
  installNewYear();
  keepInviteCode();
  installAccountFlows();
  showPendingNotices();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
