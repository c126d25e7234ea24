// What happens after a successful form or button call, named by its data-success attribute:
//   toast | reload | redirect:/path | refresh:#region | event:name | copy | login (api-forms.ts)
// Several may be chained with ";" (e.g. "copy;refresh:#table").
// copy: puts the returned text (after data-copy-prefix; a list becomes one item per line) on the
// clipboard and into data-fill (revealing a hidden container around it), and says
// data-copied-message.
// refresh: asks the htmx region to reload itself and closes the dialog the element sits in.
import type { Envelope } from "./api-client.ts";
import { copyText } from "./clipboard.ts";
import { showToast } from "./toasts.ts";

declare global {
  interface Window {
    htmx?: { trigger(element: Element | string, event: string): void };
  }
}

export function runSuccessAction(origin: HTMLElement, action: string, envelope: Envelope): void {
  if (action.includes(";")) {
    for (const single of action.split(";")) runSuccessAction(origin, single.trim(), envelope);
    return;
  }
  if (action.startsWith("redirect:")) {
    if (envelope.message) sessionStorage.setItem("pending-toast", envelope.message);
    window.location.href = action.slice("redirect:".length);
    return;
  }
  if (action === "reload") {
    if (envelope.message) sessionStorage.setItem("pending-toast", envelope.message);
    window.location.reload();
    return;
  }
  if (action === "copy") {
    const data = Array.isArray(envelope.data) ? envelope.data.join("\n") : String(envelope.data ?? "");
    const value = `${origin.dataset.copyPrefix ?? ""}${data}`;
    const field = origin.dataset.fill ? document.querySelector<HTMLInputElement>(origin.dataset.fill) : null;
    if (field) {
      field.value = value;
      field.closest<HTMLElement>("[hidden]")?.removeAttribute("hidden");
    }
    void copyText(value, origin.dataset.copiedMessage);
    return;
  }
  if (action.startsWith("refresh:")) {
    for (const selector of action.slice("refresh:".length).split(",")) {
      const region = document.querySelector(selector.trim());
      if (region) window.htmx?.trigger(region, "refresh");
    }
    // Closed first, so the toast below goes to the page the user now looks at (toasts.ts).
    const dialog = origin.closest("dialog");
    if (dialog instanceof HTMLDialogElement) dialog.close();
    if (origin instanceof HTMLFormElement && origin.dataset.keep === undefined) origin.reset();
  }
  if (envelope.message) showToast(envelope.message, "success");
  if (action.startsWith("event:")) {
    origin.dispatchEvent(new CustomEvent(action.slice("event:".length), { bubbles: true, detail: envelope.data }));
  }
}
