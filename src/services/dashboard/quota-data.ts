// Reading the dashboard's data (GET /api/data/ and /api/data/self, the /detail page): rows of one
// hour, user and model within a time range, oldest first. Hours the rollup has settled come from
// quota_data; the recent ones (from where the next refresh would start: the current hour and a
// little before) are summed from the consumption logs at read time, so a call shows at once
// instead of after the next DataExportInterval. Recent rows carry id 0: they are not stored.
import { and, asc, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { hourSeconds, logBuckets, type LogBucketFilter } from "./log-buckets.ts";
import { recomputeFrom } from "./quota-rollup.ts";

export type QuotaDataRow = (typeof t.quota_data)["$inferSelect"];

export type QuotaDataQuery = { start_timestamp?: unknown; end_timestamp?: unknown; username?: unknown };

/** A generous cap: a week of hours for 100 user-model pairs is 16 800 rows. */
const maxRows = 50_000;

type Scope = { userId?: number; username?: string };

function seconds(value: unknown, fallback: number): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(number) ? Math.trunc(number) : fallback;
}

/** The range asked for: hours whose start lies within [start, end]. */
function rangeOf(query: QuotaDataQuery): { start: number; end: number } {
  const end = seconds(query.end_timestamp, nowSeconds());
  return { start: seconds(query.start_timestamp, end - 7 * 86_400), end };
}

function storedRows(range: { start: number; end: number }, before: number, scope: Scope): Promise<QuotaDataRow[]> {
  const conditions: (SQL | undefined)[] = [
    gte(t.quota_data.created_at, range.start),
    lte(t.quota_data.created_at, range.end),
    lt(t.quota_data.created_at, before),
  ];
  if (scope.userId !== undefined) conditions.push(eq(t.quota_data.user_id, scope.userId));
  if (scope.username !== undefined) conditions.push(eq(t.quota_data.username, scope.username));
  return db
    .select()
    .from(t.quota_data)
    .where(and(...conditions))
    .orderBy(asc(t.quota_data.created_at), asc(t.quota_data.id))
    .limit(maxRows);
}

/** The hours from `liveFrom` on, summed from the logs: those whose hour starts within the range. */
async function liveRows(range: { start: number; end: number }, liveFrom: number, scope: Scope): Promise<QuotaDataRow[]> {
  // An hour starts within [start, end] when its logs lie in [ceil(start), floor(end) + 1 hour).
  const firstHour = Math.ceil(range.start / hourSeconds) * hourSeconds;
  const before = Math.floor(range.end / hourSeconds) * hourSeconds + hourSeconds;
  const from = Math.max(liveFrom, firstHour);
  if (from >= before) return [];
  const filter: LogBucketFilter = { from, before, ...scope };
  const rows = await logBuckets(filter);
  return rows.map((row) => ({ id: 0, ...row })).sort((a, b) => a.created_at - b.created_at || a.user_id - b.user_id);
}

async function readRows(query: QuotaDataQuery, scope: Scope): Promise<QuotaDataRow[]> {
  const range = rangeOf(query);
  const liveFrom = await recomputeFrom();
  const [stored, live] = await Promise.all([storedRows(range, liveFrom, scope), liveRows(range, liveFrom, scope)]);
  return [...stored, ...live].slice(0, maxRows);
}

/** Admin: every user, or one user by name. */
export function allQuotaData(query: QuotaDataQuery): Promise<QuotaDataRow[]> {
  const username = typeof query.username === "string" ? query.username.trim() : "";
  return readRows(query, username ? { username } : {});
}

export function userQuotaData(userId: number, query: QuotaDataQuery): Promise<QuotaDataRow[]> {
  return readRows(query, { userId });
}
