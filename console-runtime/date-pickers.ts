// The date-time fields of src/console/components/date-time-field.tsx: the button opens the
// browser's picker on the current value, and the choice is written back as
// "yyyy-MM-dd HH:mm:ss". A "never" switch (data-never-for="#field") empties the field and a
// chosen time turns the switch off; api-forms.ts sends -1 while it is on.
import { formatLocalTime, fromPickerValue, toPickerValue } from "./local-time.ts";

function neverSwitchOf(field: HTMLInputElement): HTMLInputElement | null {
  return field.dataset.never ? document.querySelector<HTMLInputElement>(field.dataset.never) : null;
}

function showNever(field: HTMLInputElement, never: boolean): void {
  field.readOnly = never;
  field.classList.toggle("opacity-50", never);
  if (never) field.value = "";
}

export function installDatePickers(): void {
  document.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-pick-time]");
    if (!button) return;
    const field = document.querySelector<HTMLInputElement>(button.dataset.pickTime!);
    const picker = button.parentElement?.querySelector<HTMLInputElement>("input[data-picker-for]");
    if (!field || !picker) return;
    picker.value = toPickerValue(field.value);
    try {
      picker.showPicker();
    } catch {
      // A browser without showPicker: the picker itself takes the focus instead.
      picker.focus();
    }
  });
  document.addEventListener("change", (event) => {
    const target = event.target as HTMLInputElement | null;
    if (!target) return;
    if (target.dataset.pickerFor) {
      const field = document.querySelector<HTMLInputElement>(target.dataset.pickerFor);
      if (!field) return;
      const never = neverSwitchOf(field);
      if (never?.checked) {
        never.checked = false;
        showNever(field, false);
      }
      field.value = fromPickerValue(target.value);
      field.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    if (target.dataset.neverFor) {
      const field = document.querySelector<HTMLInputElement>(target.dataset.neverFor);
      if (field) showNever(field, target.checked);
    }
  });
}

/** Fields whose never switch is on (first render, a swapped-in drawer) look switched off. */
export function applyNeverSwitches(root: ParentNode): void {
  root.querySelectorAll<HTMLInputElement>("input[data-never-for]").forEach((box) => {
    const field = document.querySelector<HTMLInputElement>(box.dataset.neverFor!);
    if (field) showNever(field, box.checked);
  });
}

/** The start of the day `daysBack` days before today, in the browser's zone (unix seconds). */
function startOfDay(daysBack: number): number {
  const date = new Date();
  date.setDate(date.getDate() - daysBack);
  date.setHours(0, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

function markQuickRange(form: HTMLFormElement, chosen: HTMLElement | null): void {
  form.querySelectorAll<HTMLElement>("[data-quick-range]").forEach((button) => {
    button.classList.toggle("btn-active", button === chosen);
    button.setAttribute("aria-pressed", String(button === chosen));
  });
}

/**
 * Quick ranges of a filter form (src/console/components/date-range-fields.tsx):
 * data-quick-range="7" fills the form's start and end fields with the last 7 days (today
 * included, from midnight in the browser's zone) up to an hour ahead, and submits the form. A
 * time typed or picked by hand turns the quick range off.
 */
export function installQuickRanges(): void {
  document.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-quick-range]");
    const form = button?.closest("form");
    if (!button || !form) return;
    const start = form.querySelector<HTMLInputElement>('input[name="start_timestamp"]');
    const end = form.querySelector<HTMLInputElement>('input[name="end_timestamp"]');
    if (!start || !end) return;
    start.value = formatLocalTime(startOfDay(Number(button.dataset.quickRange) - 1));
    end.value = formatLocalTime(Math.floor(Date.now() / 1000) + 3600);
    markQuickRange(form, button);
    form.requestSubmit();
  });
  document.addEventListener("input", (event) => {
    const field = event.target as HTMLInputElement | null;
    const form = field?.matches?.('input[name="start_timestamp"],input[name="end_timestamp"]') ? field.closest("form") : null;
    if (form) markQuickRange(form, null);
  });
}
