// A region that reloads itself (the channel table after a row's test, a list after a dialog)
// while the user is typing in one of its fields would swap the field away, and what was typed
// with it. That swap is put off: the region reloads once the field is left, after the field's own
// change (if any) was sent.
type SwapDetail = { elt: HTMLElement; target: HTMLElement; shouldSwap: boolean };

function typedField(region: HTMLElement): HTMLInputElement | HTMLTextAreaElement | undefined {
  const field = document.activeElement;
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) || !region.contains(field)) return undefined;
  return field.value === field.defaultValue ? undefined : field;
}

export function installTypingGuard(): void {
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = (event as CustomEvent<SwapDetail>).detail;
    if (!detail.shouldSwap) return;
    const field = typedField(detail.target);
    if (!field) return;
    detail.shouldSwap = false;
    // The region that reloads itself on "refresh" (data tables), else whatever asked for the swap.
    const region = detail.target.matches('[hx-trigger*="refresh"]') ? detail.target : detail.elt;
    field.addEventListener("blur", () => setTimeout(() => window.htmx?.trigger(region, "refresh")), { once: true });
  });
}
