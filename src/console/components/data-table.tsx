// A table region that htmx can refresh on its own: columns are data, cells are components.
// The wrapper reloads itself on the "refresh" event (sent by forms and buttons after a change).
// On a phone (app.css, .table-cards) each row becomes a card: every cell on its own line under
// its column's name (data-label), the row's actions across the bottom.
import type { Translate } from "../../i18n/i18n.ts";
import { Pagination } from "./pagination.tsx";

export type Column<Row> = {
  /** Names the column for a column chooser (components/column-chooser.tsx); keyless ones always show. */
  key?: string;
  header: string;
  cell: (row: Row) => JSX.Element | string;
  class?: string;
  /** "actions": on a phone card this cell spans the card's foot, without a label. */
  card?: "actions";
};

export type DataTableProps<Row> = {
  id: string;
  t: Translate;
  /** The URL that renders this region again (current page, filters and paging). */
  url: URL;
  columns: Column<Row>[];
  rows: Row[];
  rowClass?: (row: Row) => string;
  emptyText: string;
  /**
   * The pager. Without a total (counting would hold the rows up), the pager is asked for once the
   * rows are shown: a request for the region `{id}-pager`, which the page answers with `Pagination`.
   */
  paging?: { page: number; pageSize: number; total?: number };
};

/** The id of a table's pager region when it is loaded after the rows. */
export const pagerIdOf = (tableId: string) => `${tableId}-pager`;

/** Query parameters that only choose the view (paging, sorting, layout), not which rows match. */
const viewParameters = new Set(["p", "page_size", "id_sort", "tag_mode", "batch", "tab", "drawer"]);

/** Whether the visitor narrowed the rows with a search or filter. */
export function isFiltered(url: URL): boolean {
  return [...url.searchParams].some(([name, value]) => !viewParameters.has(name) && value.trim() !== "");
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { id, t, url, columns, rows, paging } = props;
  return (
    <div id={id} hx-get={`${url.pathname}${url.search}`} hx-trigger="refresh" hx-target="this" hx-swap="outerHTML">
      <div class="overflow-x-auto">
        <table class="table table-sm table-cards">
          <thead>
            <tr>
              {columns.map((column) => (
                <th class={column.class ?? ""} safe>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colspan={String(columns.length)} class="text-base-content/60 py-8 text-center">
                  <span safe>{props.emptyText}</span>
                  {/* Nothing matched a search: one click back to every row. */}
                  {isFiltered(url) ? (
                    <a href={url.pathname} class="btn btn-sm btn-ghost ml-2" safe>
                      {t("清除筛选")}
                    </a>
                  ) : (
                    ""
                  )}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr class={props.rowClass?.(row) ?? ""}>
                  {columns.map((column) => (
                    <td class={column.class ?? ""} data-label={column.card === "actions" ? "" : column.header} data-card={column.card}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {!paging ? (
        ""
      ) : paging.total === undefined ? (
        // Its own target: it would otherwise inherit the table's and fetch the whole table again.
        <nav
          id={pagerIdOf(id)}
          class="min-h-11 pt-3"
          aria-busy="true"
          hx-get={`${url.pathname}${url.search}`}
          hx-trigger="load"
          hx-target="this"
          hx-swap="outerHTML"
        ></nav>
      ) : (
        <Pagination t={t} url={url} target={id} page={paging.page} pageSize={paging.pageSize} total={paging.total} />
      )}
    </div>
  );
}
