// Keeps a quota field's raw units (a hidden input, sent to the API) in step with the amount typed
// in the site's currency, and shows those units beside the field (src/console/components/
// quota-field.tsx):
//   <input data-quota-for="#remain_quota" data-quota-per-unit="500000">
//   <span data-quota-units="#remain_quota">
function sync(money: HTMLInputElement): void {
  const selector = money.dataset.quotaFor!;
  const raw = document.querySelector<HTMLInputElement>(selector);
  if (!raw) return;
  const perUnit = Number(money.dataset.quotaPerUnit);
  const amount = Number(money.value);
  // An empty or unreadable amount sends nothing to round; the server answers for a bad value.
  raw.value = money.value.trim() === "" || !Number.isFinite(amount) ? "" : String(Math.round(amount * perUnit));
  document.querySelectorAll<HTMLElement>(`[data-quota-units="${selector}"]`).forEach((units) => {
    units.textContent = raw.value === "" ? "0" : raw.value;
  });
}

export function installQuotaFields(): void {
  document.addEventListener("input", (event) => {
    const target = event.target as HTMLElement | null;
    if (target instanceof HTMLInputElement && target.dataset.quotaFor) sync(target);
  });
}
