// Consumption logs summed per user, model and hour: what a quota_data row holds. The rollup
// writes these sums (quota-rollup.ts) and the dashboard's readers add the recent hours straight
// from the logs (quota-data.ts), so both count the same way.
import { and, eq, gte, lt, max, sql, type SQL } from "drizzle-orm";
import { countRows, sumInteger } from "../../store/dialect.ts";
import { db, t } from "../../store/client.ts";
import { LogType } from "../logs/log-types.ts";

export const hourSeconds = 3600;

export type LogBucketFilter = {
  /** Logs stamped at or after this (unix seconds). */
  from: number;
  /** Logs stamped before this, when given. */
  before?: number;
  userId?: number;
  username?: string;
};

export async function logBuckets(filter: LogBucketFilter) {
  // The hour is written into the SQL text (not a parameter) so PostgreSQL sees the select and
  // group-by expressions as the same.
  const bucket = sql<number>`(${t.logs.created_at} - (${t.logs.created_at} % ${sql.raw(String(hourSeconds))}))`.mapWith(Number);
  const conditions: (SQL | undefined)[] = [eq(t.logs.type, LogType.consume), gte(t.logs.created_at, filter.from)];
  if (filter.before !== undefined) conditions.push(lt(t.logs.created_at, filter.before));
  if (filter.userId !== undefined) conditions.push(eq(t.logs.user_id, filter.userId));
  if (filter.username !== undefined) conditions.push(eq(t.logs.username, filter.username));
  const rows = await db
    .select({
      user_id: t.logs.user_id,
      model_name: t.logs.model_name,
      created_at: bucket,
      username: max(t.logs.username),
      count: countRows(),
      token_used: sumInteger(sql`${t.logs.prompt_tokens} + ${t.logs.completion_tokens}`),
      quota: sumInteger(t.logs.quota),
    })
    .from(t.logs)
    .where(and(...conditions))
    .groupBy(t.logs.user_id, t.logs.model_name, bucket);
  return rows.map((row) => ({ ...row, username: row.username ?? "" }));
}

export type LogBucket = Awaited<ReturnType<typeof logBuckets>>[number];
