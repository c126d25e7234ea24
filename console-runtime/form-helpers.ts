// Small declarative helpers for forms and tables, so pages need no script of their own:
//   <button data-set-value="500000" data-target="#remain_quota">   fills a field (presets)
//   <button data-set-time="3600" data-target="#expired_time">       now + seconds, or -1 = never
//   <input data-json-type="datetime" data-unix="1700000000">        shown in the browser's time
//   <input data-epoch> in an htmx form                               sent as unix seconds
//   <button data-copy-selected="#table input[data-row]:checked" data-empty-message="...">
//       copies the checked rows' data-copy values, one per line
//   <input type="checkbox" data-select-all="#table input[data-row]">  checks every row
//   <button data-api-selected="POST /api/channel/batch" data-selected="#table input[data-row]:checked"
//       data-body-key="ids" data-empty-message="..."> sends the checked rows' values as a list
//       (plus the fields of the form it sits in)
//   <input data-api-change="PUT /api/channel/" data-body='{"id":5}' name="priority">  saves on change
//   <input type="checkbox" data-remember="id-sort">                  remembered in storage and a cookie
//   <button data-refresh="#table">                                   reloads an htmx region
import { apiCall } from "./api-client.ts";
import { formToJson } from "./api-forms.ts";
import { copyText } from "./clipboard.ts";
import { askConfirmation } from "./confirm-dialog.ts";
import { formatLocalTime, parseLocalTime } from "./local-time.ts";
import { runSuccessAction } from "./success-actions.ts";
import { showToast } from "./toasts.ts";

function fillLocalTimes(root: ParentNode): void {
  root.querySelectorAll<HTMLInputElement>("input[data-unix]").forEach((input) => {
    const seconds = Number(input.dataset.unix);
    input.value = seconds === -1 ? "-1" : seconds > 0 ? formatLocalTime(seconds) : "";
    delete input.dataset.unix;
  });
}

/** Time fields of htmx filter forms travel as unix seconds (the browser knows its time zone). */
function sendEpochs(event: Event): void {
  const detail = (event as CustomEvent<{ elt: HTMLElement; parameters: FormData | Record<string, unknown> }>).detail;
  const form = detail.elt.closest("form") ?? detail.elt;
  form.querySelectorAll<HTMLInputElement>("input[data-epoch]").forEach((input) => {
    const seconds = parseLocalTime(input.value);
    const value = seconds === undefined ? input.value.trim() : String(seconds);
    if (detail.parameters instanceof FormData) detail.parameters.set(input.name, value);
    else detail.parameters[input.name] = value;
  });
}

/** The checked rows' copy texts (data-copy), or for an API call their values (ids). */
function checkedValues(selector: string, use: "copy" | "value" = "copy"): string[] {
  return Array.from(document.querySelectorAll<HTMLInputElement>(selector)).map((input) =>
    use === "copy" ? (input.dataset.copy ?? input.value) : input.value,
  );
}

async function sendSelected(button: HTMLElement): Promise<void> {
  const values = checkedValues(button.dataset.selected ?? "", "value");
  if (values.length === 0) return showToast(button.dataset.emptyMessage ?? "", "error");
  if (button.dataset.confirm && !(await askConfirmation(button.dataset.confirm))) return;
  const [method, url] = button.dataset.apiSelected!.split(" ") as [string, string];
  const form = button.closest("form");
  const extra = {
    ...(button.dataset.body ? (JSON.parse(button.dataset.body) as Record<string, unknown>) : {}),
    ...(form ? formToJson(form) : {}),
  };
  const ids = values.map((value) => (/^\d+$/.test(value) ? Number(value) : value));
  try {
    const envelope = await apiCall(method, url, { ...extra, [button.dataset.bodyKey ?? "ids"]: ids });
    runSuccessAction(button, button.dataset.success ?? "toast", envelope);
  } catch {
    // apiCall already told the user.
  }
}

/** An input that saves itself on change: data-api-change="PUT /api/channel/" data-body='{"id":5}'. */
async function saveOnChange(input: HTMLInputElement): Promise<void> {
  if (input.dataset.confirm && !(await askConfirmation(input.dataset.confirm))) {
    input.value = input.defaultValue;
    return;
  }
  const [method, url] = input.dataset.apiChange!.split(" ") as [string, string];
  const base = input.dataset.body ? (JSON.parse(input.dataset.body) as Record<string, unknown>) : {};
  const value =
    input.type === "number" && input.value.trim() !== "" && !Number.isNaN(Number(input.value)) ? Number(input.value) : input.value;
  try {
    const envelope = await apiCall(method, url, { ...base, [input.name]: value });
    input.defaultValue = input.value;
    runSuccessAction(input, input.dataset.success ?? "toast", envelope);
  } catch {
    input.value = input.defaultValue;
  }
}

/** Toggles remembered across visits (the ID-sort preference is stored as id-sort, as in new-api). */
function remember(input: HTMLInputElement): void {
  const key = input.dataset.remember!;
  localStorage.setItem(key, String(input.checked));
  document.cookie = `${key}=${input.checked}; path=/; max-age=31536000; samesite=lax`;
}

export function installFormHelpers(): void {
  fillLocalTimes(document);
  document.addEventListener("htmx:afterSwap", (event) => fillLocalTimes(event.target as HTMLElement));
  document.addEventListener("htmx:configRequest", sendEpochs);
  document.addEventListener("click", (event) => {
    const element = (event.target as HTMLElement | null)?.closest<HTMLElement>(
      "[data-set-value],[data-set-time],[data-copy-selected],[data-api-selected],[data-refresh]",
    );
    if (!element) return;
    if (element.dataset.refresh) {
      const region = document.querySelector(element.dataset.refresh);
      if (region) window.htmx?.trigger(region, "refresh");
      return;
    }
    if (element.dataset.apiSelected) return void sendSelected(element);
    if (element.dataset.copySelected !== undefined) {
      const values = checkedValues(element.dataset.copySelected);
      if (values.length === 0) return showToast(element.dataset.emptyMessage ?? "", "error");
      return void copyText(values.join("\n"));
    }
    const target =
      element.closest("form")?.querySelector<HTMLInputElement>(element.dataset.target ?? "") ??
      document.querySelector<HTMLInputElement>(element.dataset.target ?? "");
    if (!target) return;
    if (element.dataset.setTime !== undefined) {
      const seconds = Number(element.dataset.setTime);
      const never = target.dataset.never ? document.querySelector<HTMLInputElement>(target.dataset.never) : null;
      if (never) {
        // A field with a "never" switch: -1 turns it on, a duration turns it off (date-pickers.ts).
        never.checked = seconds === -1;
        never.dispatchEvent(new Event("change", { bubbles: true }));
        if (seconds !== -1) target.value = formatLocalTime(Math.floor(Date.now() / 1000) + seconds);
      } else {
        target.value = seconds === -1 ? "-1" : formatLocalTime(Math.floor(Date.now() / 1000) + seconds);
      }
    } else {
      target.value = element.dataset.setValue ?? "";
    }
    target.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("change", (event) => {
    const box = event.target as HTMLInputElement;
    if (box.matches?.("[data-api-change]")) return void saveOnChange(box);
    if (box.matches?.("[data-remember]")) remember(box);
    if (!box.matches?.("[data-select-all]")) return;
    for (const row of document.querySelectorAll<HTMLInputElement>(box.dataset.selectAll!)) row.checked = box.checked;
  });
}
