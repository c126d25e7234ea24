// Confirmations in a themed dialog (the shell's #confirm-dialog) instead of the browser's
// confirm(), which cannot be themed or translated and blocks the page's scripts while open.
// Only one question is open at a time: asking again answers the previous one with "no".

let pending: ((answer: boolean) => void) | null = null;

function settle(answer: boolean): void {
  const resolve = pending;
  pending = null;
  resolve?.(answer);
}

/** Asks `message` in the themed dialog; resolves true only when the user presses OK. */
export function askConfirmation(message: string): Promise<boolean> {
  const dialog = document.getElementById("confirm-dialog") as HTMLDialogElement | null;
  const text = dialog?.querySelector("[data-confirm-message]");
  // A page without the shell (none today) still asks, with the browser's own dialog.
  if (!dialog || !text) return Promise.resolve(window.confirm(message));
  settle(false);
  text.textContent = message;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    pending = resolve;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLButtonElement>("[value=ok]")?.focus();
  });
}

export function installConfirmDialog(): void {
  const dialog = document.getElementById("confirm-dialog") as HTMLDialogElement | null;
  // Every way out (OK, Cancel, Escape, the backdrop) closes the dialog; only OK says yes.
  dialog?.addEventListener("close", () => settle(dialog.returnValue === "ok"));
}
