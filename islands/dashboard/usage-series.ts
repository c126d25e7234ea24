// Turns the hourly rollups into what the dashboard charts: time buckets of the chosen
// granularity (in the browser's time zone), per-model and per-user totals. Plain functions, so
// they are tested without a browser.
export type UsageRow = {
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
};
export type Granularity = "hour" | "day" | "week";

/** The span shown for a granularity: a day by hour, a week by day, four weeks by week. */
export const granularitySpans: Record<Granularity, number> = { hour: 86_400, day: 7 * 86_400, week: 28 * 86_400 };
export type Totals = { quota: number; count: number; tokens: number };

const pad = (n: number) => String(n).padStart(2, "0");

/** The label of the bucket an hour belongs to: "MM-DD HH:00", "YYYY-MM-DD", or the week's Monday. */
export function bucketLabel(seconds: number, granularity: Granularity): string {
  const date = new Date(seconds * 1000);
  if (granularity === "hour") return `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:00`;
  if (granularity === "week") date.setDate(date.getDate() - ((date.getDay() + 6) % 7));
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function totals(rows: UsageRow[]): Totals {
  return rows.reduce((sum, row) => ({ quota: sum.quota + row.quota, count: sum.count + row.count, tokens: sum.tokens + row.token_used }), {
    quota: 0,
    count: 0,
    tokens: 0,
  });
}

/** Quota per model per bucket, buckets in time order. */
export function quotaByModelOverTime(
  rows: UsageRow[],
  granularity: Granularity,
): { buckets: string[]; models: { name: string; values: number[] }[] } {
  const sorted = [...rows].sort((a, b) => a.created_at - b.created_at);
  const buckets = [...new Set(sorted.map((row) => bucketLabel(row.created_at, granularity)))];
  const index = new Map(buckets.map((bucket, position) => [bucket, position]));
  const byModel = new Map<string, number[]>();
  for (const row of sorted) {
    const values = byModel.get(row.model_name) ?? Array<number>(buckets.length).fill(0);
    values[index.get(bucketLabel(row.created_at, granularity))!]! += row.quota;
    byModel.set(row.model_name, values);
  }
  return { buckets, models: [...byModel].map(([name, values]) => ({ name, values })).sort((a, b) => a.name.localeCompare(b.name)) };
}

/** Totals per key (model or user), largest quota first. */
export function totalsBy(rows: UsageRow[], key: (row: UsageRow) => string): { name: string; totals: Totals }[] {
  const groups = new Map<string, UsageRow[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return [...groups].map(([name, group]) => ({ name, totals: totals(group) })).sort((a, b) => b.totals.quota - a.totals.quota);
}

/** The seconds a bucket of a granularity spans. */
export const bucketSeconds: Record<Granularity, number> = { hour: 3600, day: 86_400, week: 7 * 86_400 };

/** Totals per bucket, buckets in time order: the stat cards' trend lines. */
export function totalsOverTime(rows: UsageRow[], granularity: Granularity): { buckets: string[]; totals: Totals[] } {
  const byBucket = new Map<string, UsageRow[]>();
  for (const row of [...rows].sort((a, b) => a.created_at - b.created_at)) {
    const label = bucketLabel(row.created_at, granularity);
    byBucket.set(label, [...(byBucket.get(label) ?? []), row]);
  }
  return { buckets: [...byBucket.keys()], totals: [...byBucket.values()].map(totals) };
}

/**
 * Requests and tokens per minute over a range, as new-api's dashboard shows them: the range ends
 * now at the latest (the default range reaches an hour ahead, which has no calls yet).
 */
export function perMinute(sum: Totals, start: number, end: number, now: number): { rpm: number; tpm: number } {
  const minutes = (Math.min(end, now) - start) / 60;
  if (!(minutes > 0)) return { rpm: 0, tpm: 0 };
  return { rpm: sum.count / minutes, tpm: sum.tokens / minutes };
}
