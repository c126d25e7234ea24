// The dashboard's hourly rollups (quota_data: per user, model and hour, the count of requests,
// tokens and quota), built from the consumption logs the relay writes.
//
// new-api adds each request to an in-memory bucket and flushes increments; a crash loses the
// bucket and two instances flushing the same bucket add twice. Here a refresh recomputes whole
// hours from the logs and writes the totals (not increments): a refresh run twice, or by two
// instances at once, writes the same numbers, and every number is the sum of the logs it came
// from. Each refresh recomputes from two hours before the newest rollup, which covers logs
// committed a little after the hour they are stamped with.
import { max, sql } from "drizzle-orm";
import { shared } from "../../cache/open-shared-state.ts";
import { nowSeconds } from "../../clock.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { hourSeconds, logBuckets, type LogBucket } from "./log-buckets.ts";
import { optionBool, optionNumber } from "../options/options.ts";

const hour = hourSeconds;
const graceSeconds = 2 * hour;
const chunkSize = 200;
const lockKey = "dashboard-rollup:lock";
const lastKey = "dashboard-rollup:last";
const dueKey = "dashboard-rollup:due";
// Long enough to outlive any interval; lost (a restart of a memory store) means "stale".
const lastKeptSeconds = 30 * 24 * hour;

/** `at`: when this refresh finished (unix seconds). */
export type RollupResult = { from: number; buckets: number; at: number };

/**
 * The first hour to recompute: two hours before the newest rollup, or the very beginning. Rows
 * before it are final; from it on the logs may still add to them, so the dashboard's readers
 * sum those hours from the logs themselves (quota-data.ts).
 */
export async function recomputeFrom(): Promise<number> {
  const [row] = await db.select({ newest: max(t.quota_data.created_at) }).from(t.quota_data);
  const newest = Number(row?.newest ?? 0);
  return newest > 0 ? Math.max(0, newest - graceSeconds) : 0;
}

async function writeBuckets(rows: LogBucket[]): Promise<void> {
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    await transact(function* (tx) {
      yield* run(
        tx
          .insert(t.quota_data)
          .values(chunk)
          .onConflictDoUpdate({
            target: [t.quota_data.user_id, t.quota_data.model_name, t.quota_data.created_at],
            set: {
              username: sql`excluded.username`,
              count: sql`excluded.count`,
              token_used: sql`excluded.token_used`,
              quota: sql`excluded.quota`,
            },
          }),
      );
    });
  }
}

/** Takes the cluster-wide rollup lock, waiting for a running refresh to finish. */
async function withLock<T>(action: () => Promise<T>): Promise<T> {
  // While Redis is away the lock cannot be taken (it would not be shared): refuse at once.
  if (!shared.healthy()) throw new Error("the dashboard rollup waits for Redis (shared state degraded)");
  const owner = crypto.randomUUID();
  const deadline = Date.now() + 60_000;
  while (!(await shared.setIfAbsent(lockKey, owner, 300))) {
    if (Date.now() > deadline) throw new Error("the dashboard rollup lock stayed taken for a minute");
    await Bun.sleep(50);
  }
  try {
    return await action();
  } finally {
    if ((await shared.get(lockKey)) === owner) await shared.delete(lockKey);
  }
}

/** Recomputes the recent hours (everything, the first time) from the consumption logs. */
export function refreshQuotaData(): Promise<RollupResult> {
  return withLock(async () => {
    const from = await recomputeFrom();
    const rows = await logBuckets({ from });
    await writeBuckets(rows);
    const at = nowSeconds();
    await shared.set(lastKey, String(at), lastKeptSeconds);
    // Any refresh (the button, a stale dashboard) counts as the schedule's: the job's next one is an interval later.
    await shared.set(dueKey, String(at), dueMarkSeconds());
    return { from, buckets: rows.length, at };
  });
}

/**
 * The background job: when the dashboard is on, one instance per DataExportInterval minutes
 * refreshes (the shared mark makes it one, whichever instance ticks first).
 */
export async function refreshQuotaDataWhenDue(): Promise<void> {
  if (!optionBool("DataExportEnabled")) return;
  if (!(await shared.setIfAbsent(dueKey, String(nowSeconds()), dueMarkSeconds()))) return;
  await refreshQuotaData();
}

/** How long the mark of a refresh keeps the job from refreshing again (a little under the interval, so a tick is not missed). */
const dueMarkSeconds = () => Math.max(1, rollupIntervalMinutes() * 60 - 5);

/** The rollup schedule the dashboard tells its readers: minutes between refreshes. */
export function rollupIntervalMinutes(): number {
  return Math.max(1, optionNumber("DataExportInterval"));
}

/** When the rollups were last refreshed (unix seconds), if this store remembers. */
export async function lastRollupTime(): Promise<number | undefined> {
  const value = Number(await shared.get(lastKey));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Opening the dashboard refreshes first when the last refresh is older than the interval (or
 * unknown), so traffic of the last minutes shows without anyone pressing 立即更新数据.
 */
export async function refreshQuotaDataIfStale(): Promise<number | undefined> {
  const last = await lastRollupTime();
  if (last !== undefined && nowSeconds() - last < rollupIntervalMinutes() * 60) return last;
  return (await refreshQuotaData()).at;
}
