// The date-time fields of src/console/components/date-time-field.tsx: the button opens the
// browser's picker on the current value, and the choice is written back as
// "yyyy-MM-dd HH:mm:ss". A "never" switch (data-never-for="#field") empties the field and a
// chosen time turns the switch off; api-forms.ts sends -1 while it is on.
import { fromPickerValue, toPickerValue } from "./local-time.ts";

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
