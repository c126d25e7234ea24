// Buttons that call /api directly: <button data-api-call="DELETE /api/token/5"
// data-confirm="..." data-body='{"id":5}' data-success="refresh:#token-table">.
// Also opens dialogs (data-open-dialog="#id") and dialogs that htmx swapped in with data-open.
import { apiCall } from "./api-client.ts";
import { askConfirmation } from "./confirm-dialog.ts";
import { runSuccessAction } from "./success-actions.ts";

async function confirmed(message: string | undefined): Promise<boolean> {
  return message ? askConfirmation(message) : true;
}

export function installApiButtons(): void {
  document.addEventListener("click", async (event) => {
    const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-api-call],[data-open-dialog]");
    if (!button) return;
    if (button.dataset.openDialog) {
      (document.querySelector(button.dataset.openDialog) as HTMLDialogElement | null)?.showModal();
      return;
    }
    event.preventDefault();
    if (!(await confirmed(button.dataset.confirm))) return;
    const [method, url] = button.dataset.apiCall!.split(" ") as [string, string];
    const body = button.dataset.body ? JSON.parse(button.dataset.body) : method === "GET" || method === "DELETE" ? undefined : {};
    button.setAttribute("disabled", "");
    try {
      const envelope = await apiCall(method, url, body);
      runSuccessAction(button, button.dataset.success ?? "toast", envelope);
    } catch {
      // apiCall already showed why.
    } finally {
      button.removeAttribute("disabled");
    }
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    const target = event.target as HTMLElement;
    for (const dialog of target.querySelectorAll<HTMLDialogElement>("dialog[data-open]")) dialog.showModal();
  });
  document.addEventListener("change", (event) => {
    const select = event.target as HTMLSelectElement;
    if (!select.matches?.("[data-page-size]")) return;
    localStorage.setItem("page-size", select.value);
    document.cookie = `page_size=${select.value}; path=/; max-age=31536000; samesite=lax`;
  });
}
