// Short messages in the corner (daisyUI toast), removed after a few seconds. The corner is a
// manual popover raised into the top layer with each toast, so a message said while a dialog or
// drawer is open shows above it instead of under its backdrop.
export type ToastKind = "success" | "error" | "info" | "warning";

export function showToast(message: string, kind: ToastKind = "info", milliseconds = 4000): void {
  const area = document.getElementById("toasts");
  if (!area || !message) return;
  const toast = document.createElement("div");
  toast.className = `alert alert-${kind} shadow`;
  toast.setAttribute("role", kind === "error" ? "alert" : "status");
  const span = document.createElement("span");
  span.textContent = message;
  toast.append(span);
  area.append(toast);
  raise(area);
  setTimeout(() => {
    toast.remove();
    if (area.childElementCount === 0 && area.matches(":popover-open")) area.hidePopover();
  }, milliseconds);
}

/** Shown again, the popover goes to the top of the top layer: above a dialog opened since. */
function raise(area: HTMLElement): void {
  if (typeof area.showPopover !== "function") return;
  if (area.matches(":popover-open")) area.hidePopover();
  area.showPopover();
}
