// Short messages in the corner (daisyUI toast), removed after a few seconds.
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
  setTimeout(() => toast.remove(), milliseconds);
}
