// CSV export of the /audit page's filtered entries (issue 27), like the log page's: reads the
// filter form, pages through /api/audit, and lets papaparse quote the cells. The entries hold no
// secrets (a secret field reads "changed"), so neither does the file.
import Papa from "papaparse";
import { apiCall } from "../../console-runtime/api-client.ts";
import { formatLocalTime, parseLocalTime } from "../../console-runtime/local-time.ts";
import { showToast } from "../../console-runtime/toasts.ts";

type Change = { field: string; before?: unknown; after?: unknown; changed?: true };
type Entry = Record<string, unknown> & { created_at: number; changes: Change[] };
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

const shown = (value: unknown) => (value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));

function cell(field: string, entry: Entry, changed: string): string {
  if (field === "created_at") return formatLocalTime(entry.created_at);
  if (field === "changes") {
    return entry.changes
      .map((change) =>
        change.changed ? `${change.field}: ${changed}` : `${change.field}: ${shown(change.before)} → ${shown(change.after)}`,
      )
      .join("\n");
  }
  const value = entry[field];
  return value === undefined || value === null ? "" : String(value);
}

async function exportCsv(button: HTMLElement): Promise<void> {
  const form = document.getElementById("audit-filters") as HTMLFormElement | null;
  if (!form) return;
  const labels = JSON.parse(button.dataset.labels ?? "{}") as Record<string, string>;
  const fields = Object.keys(labels).filter((key) => key !== "changed");
  const query = filterQuery(form);
  const rows: Entry[] = [];
  for (let page = 1; rows.length < maxRows; page++) {
    query.set("p", String(page));
    query.set("page_size", String(pageSize));
    const envelope = await apiCall<Page>("GET", `${button.dataset.auditExport}?${query}`);
    rows.push(...envelope.data!.items);
    if (envelope.data!.items.length < pageSize || rows.length >= envelope.data!.total) break;
  }
  if (rows.length === 0) return showToast(button.dataset.emptyMessage ?? "", "info");
  const csv = Papa.unparse({
    fields: fields.map((field) => labels[field]!),
    data: rows.map((entry) => fields.map((field) => cell(field, entry, labels.changed ?? "changed"))),
  });
  // The byte-order mark lets spreadsheet programs read the Chinese titles as UTF-8.
  const blob = new Blob(["\ufeff", csv], { type: "text/csv;charset=utf-8" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `audit-${formatLocalTime(Math.floor(Date.now() / 1000)).replace(/[: ]/g, "-")}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

document.addEventListener("click", (event) => {
  const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-audit-export]");
  if (!button) return;
  button.setAttribute("disabled", "");
  exportCsv(button)
    .catch(() => {
      // apiCall already told the user what went wrong.
    })
    .finally(() => button.removeAttribute("disabled"));
});
