// "Test all channels" driven from the page, one channel after another, so the progress line
// and the table follow the results as they arrive (the API's GET /api/channel/test runs the
// same tests in the background and can only say that it started).
//   <button data-test-all-channels data-confirm="..." data-progress="#status"
//           data-progress-text="{{done}}/{{total}} ... {{failed}}" data-done-text="..." data-refresh-table="#channel-table">
import { apiCall, type Envelope } from "./api-client.ts";
import { askConfirmation } from "./confirm-dialog.ts";
import { showToast } from "./toasts.ts";

type ChannelId = { id: number };

/** Every channel's id, page by page (the list answers at most 100 at a time). */
async function allChannelIds(): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 0; ; page++) {
    const envelope = await apiCall<ChannelId[]>("GET", `/api/channel/?p=${page}&page_size=100&id_sort=true`);
    const rows = envelope.data ?? [];
    ids.push(...rows.map((row) => row.id));
    if (rows.length < 100) return ids;
  }
}

function fill(template: string, values: Record<string, number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

async function testAll(button: HTMLButtonElement): Promise<void> {
  if (button.dataset.confirm && !(await askConfirmation(button.dataset.confirm))) return;
  const status = document.querySelector<HTMLElement>(button.dataset.progress ?? "");
  const bar = status?.querySelector("progress");
  const line = status?.querySelector<HTMLElement>("[data-progress-line]");
  const refreshTable = () => {
    const table = document.querySelector(button.dataset.refreshTable ?? "");
    if (table) window.htmx?.trigger(table, "refresh");
  };
  button.disabled = true;
  try {
    const ids = await allChannelIds();
    const counts = { done: 0, total: ids.length, failed: 0, passed: 0 };
    const show = (template: string) => {
      if (!status || !bar || !line) return;
      status.hidden = false;
      bar.max = Math.max(counts.total, 1);
      bar.value = counts.done;
      line.textContent = fill(template, counts);
    };
    show(button.dataset.progressText ?? "");
    for (const id of ids) {
      // quiet: a failing channel is counted and shown on its row, not toasted one by one.
      const passed = await apiCall<Envelope>("GET", `/api/channel/test/${id}`, undefined, true).then(
        () => true,
        () => false,
      );
      counts.done++;
      if (passed) counts.passed++;
      else counts.failed++;
      show(button.dataset.progressText ?? "");
      refreshTable();
    }
    show(button.dataset.doneText ?? "");
    showToast(line?.textContent ?? "", counts.failed ? "warning" : "success");
  } catch {
    // apiCall already said why the list could not be read.
  } finally {
    button.disabled = false;
  }
}

export function installTestAllChannels(): void {
  document.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement | null)?.closest<HTMLButtonElement>("[data-test-all-channels]");
    if (!button) return;
    event.preventDefault();
    void testAll(button);
  });
}
