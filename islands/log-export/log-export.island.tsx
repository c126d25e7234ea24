// CSV export of the /log page's filtered rows, with the log table's columns in their order.
// A plain script, not React: it reads the filter form, pages through /api/log, and lets
// papaparse quote the cells. The fields and their titles, in the page's language, come from the
// table's column list (data-labels, written by logExportLabels in log-table.tsx).
import Papa from "papaparse";
import { apiCall } from "../../console-runtime/api-client.ts";
import { formatLocalTime, parseLocalTime } from "../../console-runtime/local-time.ts";
import { showToast } from "../../console-runtime/toasts.ts";

type Entry = Record<string, unknown> & { created_at: number; type: number; quota: number; is_stream: boolean };
type Page = { items: Entry[]; total: number };

const pageSize = 100;
const maxRows = 50_000;

function filterQuery(form: HTMLFormElement): URLSearchParams {
  const query = new URLSearchParams();
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    if (!element.name || !element.value.trim()) continue;
    const value = element.dataset.epoch !== undefined ? String(parseLocalTime(element.value) ?? "") : element.value.trim();
    if (value) query.set(element.name, value);
  }
  return query;
}

function cell(field: string, entry: Entry, labels: Record<string, string>, quotaPerUnit: number): string {
  const value = entry[field];
  if (field === "created_at") return formatLocalTime(entry.created_at);
  if (field === "type") return labels[`type:${entry.type}`] ?? String(entry.type);
  if (field === "is_stream") return entry.is_stream ? "✓" : "";
  if (field === "quota" && quotaPerUnit > 0) return `$${(entry.quota / quotaPerUnit).toFixed(6)}`;
  return value === undefined || value === null ? "" : String(value);
}

async function exportCsv(button: HTMLElement): Promise<void> {
  const form = document.getElementById("log-filters") as HTMLFormElement | null;
  if (!form) return;
  const labels = JSON.parse(button.dataset.labels ?? "{}") as Record<string, string>;
  const fields = Object.keys(labels).filter((key) => !key.startsWith("type:"));
  const query = filterQuery(form);
  const rows: Entry[] = [];
  for (let page = 1; rows.length < maxRows; page++) {
    query.set("p", String(page));
    query.set("page_size", String(pageSize));
    const envelope = await apiCall<Page>("GET", `${button.dataset.logExport}?${query}`);
    rows.push(...envelope.data!.items);
    if (envelope.data!.items.length < pageSize || rows.length >= envelope.data!.total) break;
  }
  if (rows.length === 0) return showToast(button.dataset.emptyMessage ?? "", "info");
  const csv = Papa.unparse({
    fields: fields.map((field) => labels[field]!),
    data: rows.map((entry) => fields.map((field) => cell(field, entry, labels, Number(button.dataset.quotaUnit ?? 0)))),
  });
  // The byte-order mark lets spreadsheet programs read the Chinese titles as UTF-8.
  const blob = new Blob(["\ufeff", csv], { type: "text/csv;charset=utf-8" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `logs-${formatLocalTime(Math.floor(Date.now() / 1000)).replace(/[: ]/g, "-")}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

document.addEventListener("click", (event) => {
  const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-log-export]");
  if (!button) return;
  button.setAttribute("disabled", "");
  exportCsv(button)
    .catch(() => {
      // apiCall already told the user what went wrong.
    })
    .finally(() => button.removeAttribute("disabled"));
});
