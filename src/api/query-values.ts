// Reading new-api style query values: Go's strconv rules for booleans, integers that fall back
// to a default, and the two paging conventions (docs/COMPATIBILITY.md, Paging).
import { boundedPage } from "../services/paging.ts";

export type Query = Record<string, string | undefined>;

/** "1", "t", "true" (any case) are true, like Go's strconv.ParseBool. */
export function queryBool(value: string | undefined): boolean {
  return value !== undefined && ["1", "t", "true"].includes(value.trim().toLowerCase());
}

function queryInt(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isInteger(number) ? number : fallback;
}

function pageSizeOf(value: string | undefined, fallback = 10, maximum = 100): number {
  const size = queryInt(value, fallback);
  if (size <= 0) return fallback;
  return Math.min(size, maximum);
}

/** `p` counted from 0 (tokens, channels): gives the 1-based page the services use. */
export function zeroBasedPaging(query: Query, sizeParameter: "size" | "page_size") {
  return { page: boundedPage(queryInt(query.p, 0) + 1), pageSize: pageSizeOf(query[sizeParameter]) };
}

/** `p` counted from 1 (logs, users); values below 1 become 1. */
export function oneBasedPaging(query: Query) {
  return { page: boundedPage(queryInt(query.p, 1)), pageSize: pageSizeOf(query.page_size) };
}
