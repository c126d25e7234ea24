// Copy to the clipboard; when the browser refuses (no permission, plain http), show the text in
// a dialog so it can be copied by hand.
import { text } from "./console-data.ts";
import { showToast } from "./toasts.ts";

export async function copyText(value: string, successMessage?: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    showToast(successMessage ?? text("已复制到剪贴板"), "success");
    return true;
  } catch {
    showCopyFallback(value);
    return false;
  }
}

function showCopyFallback(value: string): void {
  const dialog = document.createElement("dialog");
  dialog.className = "modal";
  dialog.id = "copy-fallback";
  const box = document.createElement("div");
  box.className = "modal-box";
  const title = document.createElement("h3");
  title.className = "font-bold";
  title.textContent = text("无法复制到剪贴板，请手动复制");
  const area = document.createElement("textarea");
  area.className = "textarea textarea-bordered mt-4 w-full font-mono";
  area.readOnly = true;
  area.value = value;
  area.rows = Math.min(10, value.split("\n").length + 1);
  const actions = document.createElement("div");
  actions.className = "modal-action";
  const close = document.createElement("button");
  close.className = "btn";
  close.type = "button";
  close.textContent = text("关闭");
  close.addEventListener("click", () => dialog.remove());
  actions.append(close);
  box.append(title, area, actions);
  dialog.append(box);
  document.body.append(dialog);
  dialog.showModal();
  area.select();
}
