// Small declarative helpers for forms and tables, so pages need no script of their own:
//   <button data-set-value="500000" data-target="#remain_quota">   fills a field (presets)
//   <button data-set-time="3600" data-target="#expired_time">       now + seconds, or -1 = never
//   <input data-json-type="datetime" data-unix="1700000000">        shown in the browser's time
//   <button data-copy-selected="#table input[data-row]:checked" data-empty-message="...">
//       copies the checked rows' data-copy values, one per line
//   <input type="checkbox" data-select-all="#table input[data-row]">  checks every row
//   <button data-api-selected="POST /api/channel/batch" data-selected="#table input[data-row]:checked"
//       data-body-key="ids" data-empty-message="..."> sends the checked rows' values as a list
import { apiCall } from "./api-client.ts";
import { copyText } from "./clipboard.ts";
import { runSuccessAction } from "./success-actions.ts";
import { showToast } from "./toasts.ts";

const pad = (value: number) => String(value).padStart(2, "0");

/** yyyy-MM-dd HH:mm:ss in the browser's time zone (spec §5 Token form). */
export function formatLocalTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The unix seconds of a local "yyyy-MM-dd HH:mm:ss", -1 for "-1", or undefined when it does not parse. */
export function parseLocalTime(text: string): number | undefined {
  const value = text.trim();
  if (value === "-1") return -1;
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second);
  if (date.getMonth() !== month - 1 || date.getDate() !== day) return undefined;
  return Math.floor(date.getTime() / 1000);
}

function fillLocalTimes(root: ParentNode): void {
  root.querySelectorAll<HTMLInputElement>("input[data-unix]").forEach((input) => {
    const seconds = Number(input.dataset.unix);
    input.value = seconds === -1 ? "-1" : formatLocalTime(seconds);
    delete input.dataset.unix;
  });
}

function checkedValues(selector: string): string[] {
  return Array.from(document.querySelectorAll<HTMLInputElement>(selector)).map((input) => input.dataset.copy ?? input.value);
}

async function sendSelected(button: HTMLElement): Promise<void> {
  const values = checkedValues(button.dataset.selected ?? "");
  if (values.length === 0) return showToast(button.dataset.emptyMessage ?? "", "error");
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  const [method, url] = button.dataset.apiSelected!.split(" ") as [string, string];
  const extra = button.dataset.body ? (JSON.parse(button.dataset.body) as Record<string, unknown>) : {};
  const ids = values.map((value) => (/^\d+$/.test(value) ? Number(value) : value));
  try {
    const envelope = await apiCall(method, url, { ...extra, [button.dataset.bodyKey ?? "ids"]: ids });
    runSuccessAction(button, button.dataset.success ?? "toast", envelope);
  } catch {
    // apiCall already told the user.
  }
}

export function installFormHelpers(): void {
  fillLocalTimes(document);
  document.addEventListener("htmx:afterSwap", (event) => fillLocalTimes(event.target as HTMLElement));
  document.addEventListener("click", (event) => {
    const element = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-set-value],[data-set-time],[data-copy-selected],[data-api-selected]");
    if (!element) return;
    if (element.dataset.apiSelected) return void sendSelected(element);
    if (element.dataset.copySelected !== undefined) {
      const values = checkedValues(element.dataset.copySelected);
      if (values.length === 0) return showToast(element.dataset.emptyMessage ?? "", "error");
      return void copyText(values.join("\n"));
    }
    const target = element.closest("form")?.querySelector<HTMLInputElement>(element.dataset.target ?? "") ?? document.querySelector<HTMLInputElement>(element.dataset.target ?? "");
    if (!target) return;
    if (element.dataset.setTime !== undefined) {
      const seconds = Number(element.dataset.setTime);
      target.value = seconds === -1 ? "-1" : formatLocalTime(Math.floor(Date.now() / 1000) + seconds);
    } else {
      target.value = element.dataset.setValue ?? "";
    }
    target.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("change", (event) => {
    const box = event.target as HTMLInputElement;
    if (!box.matches?.("[data-select-all]")) return;
    document.querySelectorAll<HTMLInputElement>(box.dataset.selectAll!).forEach((row) => (row.checked = box.checked));
  });
}
