// Browser side of the account flows: the email-code button with its countdown, the GitHub and
// LinuxDO buttons (state from the server, authorize page in a new window), the OAuth and
// Telegram callback pages, the reset-mail countdown, account deletion and the model tags of the
// personal settings. Texts come from data attributes the server rendered in the page language.
import { apiCall, userHeaders } from "./api-client.ts";
import { rememberUser, type ConsoleUser } from "./console-data.ts";
import { isCountingDown, startCountdown } from "./countdown.ts";
import { showToast } from "./toasts.ts";
import { resetTurnstile, withTurnstile } from "./turnstile.ts";

function closestFromEvent<T extends HTMLElement>(event: Event, selector: string): T | null {
  return (event.target as HTMLElement | null)?.closest<T>(selector) ?? null;
}

async function sendEmailCode(button: HTMLButtonElement): Promise<void> {
  if (isCountingDown(button)) return;
  const scope = button.closest("form") ?? document.body;
  const email = scope.querySelector<HTMLInputElement>('input[name="email"]')?.value ?? "";
  button.disabled = true;
  try {
    const envelope = await apiCall("GET", withTurnstile(scope, `/api/verification?email=${encodeURIComponent(email)}`));
    showToast(envelope.message, "success");
    startCountdown(button, Number(button.dataset.countdown ?? 30));
  } catch {
    button.disabled = false;
  } finally {
    resetTurnstile(scope);
  }
}

async function openAuthorizePage(button: HTMLElement): Promise<void> {
  // Opened before the await so the browser treats it as the click's own window.
  const popup = window.open("about:blank", "_blank");
  const aff = localStorage.getItem("aff");
  const query = aff ? `?aff=${encodeURIComponent(aff)}` : "";
  try {
    let target: URL;
    if (button.dataset.oidcAuthorize !== undefined) {
      // OpenID Connect: the server builds the whole URL (state, nonce, PKCE challenge).
      target = new URL((await apiCall<string>("GET", `/api/oauth/oidc/authorize${query}`)).data ?? "");
    } else {
      target = new URL(button.dataset.oauthAuthorize!);
      target.searchParams.set("state", (await apiCall<string>("GET", `/api/oauth/state${query}`)).data ?? "");
    }
    if (popup) popup.location.href = target.toString();
    else window.location.href = target.toString();
  } catch {
    popup?.close();
  }
}

/** Leaves a callback page: in the window that opened the flow when there is one. */
function leaveTo(path: string, notice?: string): void {
  const opener = window.opener as Window | null;
  try {
    if (opener && opener !== window && opener.location.origin === window.location.origin) {
      // Each window keeps its own sessionStorage: the notice goes to the one that shows it.
      if (notice) opener.sessionStorage.setItem("pending-toast", notice);
      opener.location.href = path;
      window.close();
      return;
    }
  } catch {
    // A foreign opener: stay in this window.
  }
  if (notice) sessionStorage.setItem("pending-toast", notice);
  window.location.href = path;
}

async function finishCallback(element: HTMLElement): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  const aff = localStorage.getItem("aff");
  if (element.dataset.oauthCallback!.endsWith("/telegram/login") && aff && !params.has("aff")) params.set("aff", aff);
  try {
    const envelope = await apiCall<ConsoleUser & { require_2fa?: boolean }>(
      "GET",
      `${element.dataset.oauthCallback}?${params}`,
      undefined,
      true,
    );
    if (envelope.message === "bind") return leaveTo("/setting", element.dataset.boundText);
    // An account with two-factor on: the sign-in page asks for the second step.
    if (envelope.data?.require_2fa) return leaveTo("/login?step=2fa");
    rememberUser(envelope.data!);
    leaveTo("/token");
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : "";
    element.querySelector("[data-callback-status]")!.textContent = [message, element.dataset.failedText].filter(Boolean).join(" ");
    setTimeout(() => leaveTo("/setting"), 1500);
  }
}

async function showUserModels(element: HTMLElement): Promise<void> {
  let models: string[] = [];
  try {
    const response = await fetch("/api/user/models", { headers: userHeaders(), credentials: "same-origin" });
    const envelope = (await response.json()) as { success?: boolean; data?: unknown };
    if (response.ok && envelope.success && Array.isArray(envelope.data)) models = envelope.data.map(String);
  } catch {
    models = [];
  }
  element.replaceChildren();
  if (models.length === 0) {
    element.textContent = element.dataset.emptyText ?? "";
    return;
  }
  const tag = (name: string) => Object.assign(document.createElement("span"), { className: "badge badge-outline", textContent: name });
  const shown = 10;
  element.append(...models.slice(0, shown).map(tag));
  if (models.length > shown) {
    const more = document.createElement("button");
    more.type = "button";
    more.className = "btn btn-ghost btn-xs";
    more.textContent = (element.dataset.moreText ?? "+{{count}}").replace("{{count}}", String(models.length - shown));
    more.addEventListener("click", () => more.replaceWith(...models.slice(shown).map(tag)));
    element.append(more);
  }
}

export function installAccountFlows(): void {
  document.addEventListener("click", (event) => {
    const codeButton = closestFromEvent<HTMLButtonElement>(event, "[data-send-email-code]");
    if (codeButton) return void sendEmailCode(codeButton);
    const authorize = closestFromEvent<HTMLElement>(event, "[data-oauth-authorize], [data-oidc-authorize]");
    if (authorize) {
      event.preventDefault();
      void openAuthorizePage(authorize);
    }
  });
  document.addEventListener("reset-mail-sent", (event) => {
    const submit = (event.target as HTMLElement).querySelector<HTMLButtonElement>("button[type=submit]");
    if (submit) startCountdown(submit, Number(submit.dataset.countdown ?? 30));
  });
  // The account is gone, or every session of it ended (sign out everywhere): back to sign-in.
  for (const name of ["account-deleted", "signed-out"]) {
    document.addEventListener(name, (event) => {
      rememberUser(null);
      const done = (event.target as HTMLElement).dataset.doneText;
      if (done) sessionStorage.setItem("pending-toast", done);
      window.location.href = "/login";
    });
  }
  document.querySelectorAll<HTMLElement>("[data-oauth-callback]").forEach((element) => void finishCallback(element));
  document.querySelectorAll<HTMLElement>("[data-user-models]").forEach((element) => void showUserModels(element));
}
