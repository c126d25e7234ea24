// Which columns of a table a browser shows (issue 26): a "columns" menu of checkboxes beside the
// table; the runtime (console-runtime/column-chooser.ts) keeps the hidden ones in a cookie,
// `columns-<table id>`, and refreshes the table, which the server renders without them. A
// cookie rather than local storage, so the first paint is already right (nothing flashes).
import type { Translate } from "../../i18n/i18n.ts";
import type { PageContext } from "../page-context.ts";

export type ChoosableColumn = { key: string; label: string };

const columnCookieName = (table: string) => `columns-${table}`;

/** The column keys this browser hid for a table. */
export function hiddenColumns(context: PageContext, table: string): Set<string> {
  const match = new RegExp(`(?:^|;\\s*)${columnCookieName(table)}=([^;]*)`).exec(context.request.headers.get("cookie") ?? "");
  if (!match) return new Set();
  let value = "";
  try {
    value = decodeURIComponent(match[1]!);
  } catch {
    return new Set();
  }
  return new Set(value.split(",").filter(Boolean));
}

/** Columns without a key (a row's actions, its selection box) are always shown. */
export function visibleColumns<C extends { key?: string }>(columns: C[], hidden: ReadonlySet<string>): C[] {
  return columns.filter((column) => !column.key || !hidden.has(column.key));
}

export function ColumnChooser(props: { t: Translate; table: string; columns: ChoosableColumn[]; hidden: ReadonlySet<string> }) {
  const { t, table, columns, hidden } = props;
  return (
    <details class="dropdown dropdown-end" data-column-chooser={table}>
      <summary class="btn btn-sm" safe>
        {t("列设置")}
      </summary>
      <ul class="menu dropdown-content bg-base-100 rounded-box z-30 max-h-80 w-52 flex-nowrap overflow-y-auto p-2 shadow">
        {columns.map((column) => (
          <li>
            <label class="label cursor-pointer justify-start gap-2">
              <input type="checkbox" class="checkbox checkbox-sm" data-column-toggle={column.key} checked={!hidden.has(column.key)} />
              <span safe>{column.label}</span>
            </label>
          </li>
        ))}
        <li>
          <button type="button" data-column-reset safe>
            {t("显示全部列")}
          </button>
        </li>
      </ul>
    </details>
  );
}
