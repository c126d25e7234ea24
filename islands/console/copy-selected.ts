// Copying what a list shows (spec §5 "copy selected needs at least one"):
//   <input type="checkbox" data-copy-value="KEY">            a row's value
//   <input type="checkbox" data-select-all>                   ticks every row of its table
//   <button data-copy-selected="#table" data-empty-message="..." data-copied-message="...">
//   <button data-copy-from="#textarea">                       copies a field's text
import { copyText } from "./clipboard.ts";
import { showToast } from "./toasts.ts";

export function installCopySelected(): void {
  document.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-copy-selected],[data-copy-from]");
    if (!button) return;
    event.preventDefault();
    if (button.dataset.copyFrom) {
      const field = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(button.dataset.copyFrom);
      if (field?.value) void copyText(field.value, button.dataset.copiedMessage);
      return;
    }
    const scope = document.querySelector(button.dataset.copySelected!);
    const values = Array.from(scope?.querySelectorAll<HTMLInputElement>("input[data-copy-value]:checked") ?? []).map(
      (input) => input.dataset.copyValue ?? "",
    );
    if (values.length === 0) {
      showToast(button.dataset.emptyMessage ?? "", "warning");
      return;
    }
    void copyText(values.join("\n"), button.dataset.copiedMessage);
  });
  document.addEventListener("change", (event) => {
    const all = event.target;
    if (!(all instanceof HTMLInputElement) || all.dataset.selectAll === undefined) return;
    for (const row of all.closest("table")?.querySelectorAll<HTMLInputElement>("input[data-copy-value]") ?? []) row.checked = all.checked;
  });
}
