// Reading the dashboard's rollups (GET /api/data/ and /api/data/self): rows of one hour, user and
// model within a time range, oldest first.
import { and, asc, eq, gte, lte, type SQL } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";

export type QuotaDataRow = (typeof t.quota_data)["$inferSelect"];

export type QuotaDataQuery = { start_timestamp?: unknown; end_timestamp?: unknown; username?: unknown };

/** A generous cap: a week of hours for 100 user-model pairs is 16 800 rows. */
const maxRows = 50_000;

function seconds(value: unknown, fallback: number): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(number) ? Math.trunc(number) : fallback;
}

function rangeOf(query: QuotaDataQuery): SQL | undefined {
  const end = seconds(query.end_timestamp, nowSeconds());
  const start = seconds(query.start_timestamp, end - 7 * 86_400);
  return and(gte(t.quota_data.created_at, start), lte(t.quota_data.created_at, end));
}

async function select(where: SQL | undefined): Promise<QuotaDataRow[]> {
  return db.select().from(t.quota_data).where(where).orderBy(asc(t.quota_data.created_at), asc(t.quota_data.id)).limit(maxRows);
}

/** Admin: every user, or one user by name. */
export function allQuotaData(query: QuotaDataQuery): Promise<QuotaDataRow[]> {
  const username = typeof query.username === "string" ? query.username.trim() : "";
  return select(username ? and(rangeOf(query), eq(t.quota_data.username, username)) : rangeOf(query));
}

export function userQuotaData(userId: number, query: QuotaDataQuery): Promise<QuotaDataRow[]> {
  return select(and(rangeOf(query), eq(t.quota_data.user_id, userId)));
}
