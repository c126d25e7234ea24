// The super admin's settings forms: only the keys whose value changed
// are sent, in one PUT /api/option/ (all or nothing); nothing changed gives a warning. Fields are
// named by option key; what the page rendered (defaultValue / defaultChecked) is the baseline.
//   <form data-option-form data-unchanged-message="...">   a section saved with its button
//   <input type="checkbox" data-option-switch data-confirm-off="...">   saved when flipped
//   <textarea data-json-message="...">                       must hold valid JSON
//   <input data-secret>                                       sent only when filled, then cleared
//   <button data-option-preset="Key" data-preset-value="...">  saves that value at once, into its field too
//   <button data-log-cleanup data-date-input="#id" data-empty-message data-confirm>   logs before a day
import { apiCall } from "./api-client.ts";
import { askConfirmation } from "./confirm-dialog.ts";
import { text } from "./console-data.ts";
import { parseLocalTime } from "./local-time.ts";
import { showToast } from "./toasts.ts";

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type Change = { key: string; value: string };

function isField(element: Element): element is Field {
  return element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;
}

function baseline(field: Field): string {
  if (field instanceof HTMLInputElement && field.type === "checkbox") return String(field.defaultChecked);
  if (field instanceof HTMLSelectElement)
    return Array.from(field.options).find((option) => option.defaultSelected)?.value ?? field.options[0]?.value ?? "";
  return field.defaultValue;
}

function current(field: Field): string {
  if (field instanceof HTMLInputElement && field.type === "checkbox") return String(field.checked);
  return field.value;
}

/** Marks the saved values as the new baseline, so the next save compares against them. */
function commit(field: Field): void {
  if (field.dataset.secret !== undefined) {
    field.value = "";
    return;
  }
  if (field instanceof HTMLInputElement && field.type === "checkbox") field.defaultChecked = field.checked;
  else if (field instanceof HTMLSelectElement) for (const option of Array.from(field.options)) option.defaultSelected = option.selected;
  else field.defaultValue = field.value;
}

function changedFields(form: HTMLFormElement): Field[] {
  return Array.from(form.elements)
    .filter(isField)
    .filter((field) => {
      if (!field.name || field.disabled || field.dataset.optionSwitch !== undefined) return false;
      if (field.dataset.secret !== undefined) return field.value.trim() !== "";
      return current(field) !== baseline(field);
    });
}

/** The first JSON field that does not parse, with its message. */
function invalidJson(fields: Field[]): string | undefined {
  for (const field of fields) {
    if (field.dataset.jsonMessage === undefined) continue;
    try {
      JSON.parse(field.value);
    } catch {
      field.focus();
      return field.dataset.jsonMessage;
    }
  }
  return undefined;
}

export async function saveOptions(changes: Change[]): Promise<boolean> {
  try {
    // A refusal shows the server's reason; a save that got no answer says so.
    const envelope = await apiCall("PUT", "/api/option/", changes, false, text("保存失败，请重试"));
    if (envelope.message) showToast(envelope.message, "success");
    return true;
  } catch {
    return false;
  }
}

async function submitOptionForm(form: HTMLFormElement): Promise<void> {
  const fields = changedFields(form);
  if (fields.length === 0) {
    showToast(form.dataset.unchangedMessage ?? "", "warning");
    return;
  }
  const jsonProblem = invalidJson(fields);
  if (jsonProblem) {
    showToast(jsonProblem, "error");
    return;
  }
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
  submit?.setAttribute("disabled", "");
  if (await saveOptions(fields.map((field) => ({ key: field.name, value: current(field) })))) fields.forEach(commit);
  submit?.removeAttribute("disabled");
}

async function flipSwitch(input: HTMLInputElement): Promise<void> {
  if (!input.checked && input.dataset.confirmOff && !(await askConfirmation(input.dataset.confirmOff))) {
    input.checked = true;
    return;
  }
  input.disabled = true;
  if (await saveOptions([{ key: input.name, value: String(input.checked) }])) input.defaultChecked = input.checked;
  else input.checked = !input.checked;
  input.disabled = false;
}

async function savePreset(button: HTMLButtonElement): Promise<void> {
  const key = button.dataset.optionPreset ?? "";
  const value = button.dataset.presetValue ?? "";
  button.disabled = true;
  if (await saveOptions([{ key, value }])) {
    const field = button.form?.elements.namedItem(key) ?? document.querySelector(`[name="${CSS.escape(key)}"]`);
    if (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) {
      field.value = value;
      field.defaultValue = value;
    }
  }
  button.disabled = false;
}

async function cleanLogs(button: HTMLElement): Promise<void> {
  const input = document.querySelector<HTMLInputElement>(button.dataset.dateInput ?? "");
  // The console's "yyyy-MM-dd HH:mm:ss" (a bare day means its midnight), in the browser's zone.
  const typed = input?.value.trim() ?? "";
  const target = parseLocalTime(/^\d{4}-\d{2}-\d{2}$/.test(typed) ? `${typed} 00:00:00` : typed);
  if (target === undefined || target < 0) {
    showToast(button.dataset.emptyMessage ?? "", "warning");
    return;
  }
  if (button.dataset.confirm && !(await askConfirmation(button.dataset.confirm))) return;
  button.setAttribute("disabled", "");
  try {
    const envelope = await apiCall<number>("DELETE", `/api/log/?target_timestamp=${target}`);
    showToast(envelope.message, "success");
  } catch {
    // apiCall already said why.
  } finally {
    button.removeAttribute("disabled");
  }
}

export function installOptionForms(): void {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset.optionForm === undefined) return;
    event.preventDefault();
    void submitOptionForm(form);
  });
  document.addEventListener("change", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.dataset.optionSwitch !== undefined) void flipSwitch(input);
  });
  document.addEventListener("click", (event) => {
    const preset = (event.target as HTMLElement | null)?.closest<HTMLButtonElement>("button[data-option-preset]");
    if (preset) {
      event.preventDefault();
      void savePreset(preset);
    }
  });
  document.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-log-cleanup]");
    if (!button) return;
    event.preventDefault();
    void cleanLogs(button);
  });
}
