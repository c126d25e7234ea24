// The channel test dialog's behaviour (src/console/pages/channels/test-dialog.tsx): the search
// filters the model list, "select all" picks the models shown, and tests run one after another
// (the upstream sees one test at a time), each result written into its model's row: the time in
// green, or the upstream's message in red. The channel table is refreshed after a run.
import { apiCall, ApiFailure, type Envelope } from "./api-client.ts";
import { showToast } from "./toasts.ts";

type TestAnswer = Envelope & { time?: number };

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));

const rowsOf = (box: HTMLElement) => [...box.querySelectorAll<HTMLElement>("[data-test-model]")];
const shown = (row: HTMLElement) => !row.hidden;

async function testOne(box: HTMLElement, row: HTMLElement): Promise<boolean> {
  const result = row.querySelector<HTMLElement>("[data-test-result]")!;
  const key = box.querySelector<HTMLSelectElement>("[data-test-key]")?.value ?? "";
  const query = new URLSearchParams({ model: row.dataset.testModel! });
  if (key !== "") query.set("key_index", key);
  result.className = "w-40 shrink-0 text-right text-xs break-words text-base-content/60";
  result.textContent = box.dataset.runningText ?? "";
  try {
    const answer = (await apiCall("GET", `/api/channel/test/${box.dataset.channelTest}?${query}`, undefined, true)) as TestAnswer;
    result.className = "w-40 shrink-0 text-right text-xs break-words text-success";
    result.textContent = fill(box.dataset.passedText ?? "{{seconds}}", { seconds: (answer.time ?? 0).toFixed(2) });
    result.dataset.outcome = "passed";
    return true;
  } catch (error) {
    result.className = "w-40 shrink-0 text-right text-xs break-words text-error";
    result.textContent = error instanceof ApiFailure ? error.message : String(error);
    result.dataset.outcome = "failed";
    return false;
  }
}

async function testRows(box: HTMLElement, rows: HTMLElement[]): Promise<void> {
  if (rows.length === 0) return showToast(box.dataset.emptyMessage ?? "", "error");
  if (box.dataset.running) return;
  box.dataset.running = "true";
  const progress = box.querySelector<HTMLElement>("[data-test-progress]");
  const counts = { done: 0, total: rows.length, failed: 0 };
  try {
    for (const row of rows) {
      if (!(await testOne(box, row))) counts.failed++;
      counts.done++;
      if (progress) progress.textContent = fill(box.dataset.progressText ?? "", counts);
    }
  } finally {
    delete box.dataset.running;
    const table = document.querySelector(box.dataset.refreshTable ?? "");
    if (table) window.htmx?.trigger(table, "refresh");
  }
}

export function installChannelTestDialog(): void {
  document.addEventListener("input", (event) => {
    const search = (event.target as HTMLElement | null)?.closest<HTMLInputElement>("[data-test-search]");
    const box = search?.closest<HTMLElement>("[data-channel-test]");
    if (!search || !box) return;
    const words = search.value.trim().toLowerCase();
    for (const row of rowsOf(box)) row.hidden = words !== "" && !row.dataset.testModel!.toLowerCase().includes(words);
  });
  document.addEventListener("change", (event) => {
    const all = (event.target as HTMLElement | null)?.closest<HTMLInputElement>("[data-test-select-all]");
    const box = all?.closest<HTMLElement>("[data-channel-test]");
    if (!all || !box) return;
    for (const row of rowsOf(box).filter(shown)) row.querySelector<HTMLInputElement>("[data-test-pick]")!.checked = all.checked;
  });
  document.addEventListener("click", (event) => {
    const target = event.target as HTMLElement | null;
    const button = target?.closest<HTMLElement>("[data-test-one],[data-test-selected],[data-test-every]");
    const box = button?.closest<HTMLElement>("[data-channel-test]");
    if (!button || !box) return;
    if (button.dataset.testOne !== undefined) return void testRows(box, [button.closest<HTMLElement>("[data-test-model]")!]);
    if (button.dataset.testEvery !== undefined) return void testRows(box, rowsOf(box));
    const picked = rowsOf(box).filter((row) => shown(row) && row.querySelector<HTMLInputElement>("[data-test-pick]")!.checked);
    void testRows(box, picked);
  });
}
