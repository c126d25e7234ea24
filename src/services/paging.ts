// Paging of /api lists in new-api's object style (docs/COMPATIBILITY.md, Paging): `p` is
// 1-based (anything below 1 reads as 1), `page_size` defaults to 10 and is capped at 100, and the
// answer is {items, total, page, page_size}.
export type Paging = { page: number; pageSize: number; offset: number };
export type Page<T> = { items: T[]; total: number; page: number; page_size: number };

const maxPageSize = 100;

/**
 * The last page anyone can ask for. Page numbers come from query strings: without a bound,
 * ?p=1e20 made an offset the store refuses (SQLite: "datatype mismatch", a 500 on every list).
 * A million pages of 100 is further than any table here grows; beyond it a list is empty.
 */
const maxPage = 1_000_000;

/** A page number from a query, counted from 1: whole, at least 1, at most `maxPage`. */
export function boundedPage(value: number): number {
  if (!Number.isFinite(value)) return value > 0 ? maxPage : 1;
  return Math.min(maxPage, Math.max(1, Math.trunc(value)));
}

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(number) ? Math.trunc(number) : undefined;
}

export function pagingOf(query: { p?: unknown; page_size?: unknown }, defaultSize = 10): Paging {
  const page = boundedPage(wholeNumber(query.p) ?? 1);
  const requested = wholeNumber(query.page_size) ?? defaultSize;
  const pageSize = requested >= 1 ? Math.min(requested, maxPageSize) : defaultSize;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function pageResult<T>(items: T[], total: number, paging: Paging): Page<T> {
  return { items, total, page: paging.page, page_size: paging.pageSize };
}
