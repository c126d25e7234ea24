// Paging of /api lists in new-api's object style (spec §7, new-api-behaviour §4.3): `p` is
// 1-based (anything below 1 reads as 1), `page_size` defaults to 10 and is capped at 100, and the
// answer is {items, total, page, page_size}.
export type Paging = { page: number; pageSize: number; offset: number };
export type Page<T> = { items: T[]; total: number; page: number; page_size: number };

const maxPageSize = 100;

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(number) ? Math.trunc(number) : undefined;
}

export function pagingOf(query: { p?: unknown; page_size?: unknown }, defaultSize = 10): Paging {
  const page = Math.max(1, wholeNumber(query.p) ?? 1);
  const requested = wholeNumber(query.page_size) ?? defaultSize;
  const pageSize = requested >= 1 ? Math.min(requested, maxPageSize) : defaultSize;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function pageResult<T>(items: T[], total: number, paging: Paging): Page<T> {
  return { items, total, page: paging.page, page_size: paging.pageSize };
}
