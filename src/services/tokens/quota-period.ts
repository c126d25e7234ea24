// A token's budget periods (issue 27): calendar days, weeks (from Monday) and months in the
// gateway's time zone (TZ, which the runtime's local time follows), read from the one clock.
import { nowMs } from "../../clock.ts";

export const quotaPeriods = ["", "day", "week", "month"] as const;
export type QuotaPeriod = (typeof quotaPeriods)[number];

export function isQuotaPeriod(value: unknown): value is QuotaPeriod {
  return typeof value === "string" && (quotaPeriods as readonly string[]).includes(value);
}

/** Unix seconds at which the period holding `atMs` began (0 for no period). */
export function periodStartOf(period: string, atMs = nowMs()): number {
  if (period !== "day" && period !== "week" && period !== "month") return 0;
  const date = new Date(atMs);
  date.setHours(0, 0, 0, 0);
  if (period === "week") date.setDate(date.getDate() - ((date.getDay() + 6) % 7));
  if (period === "month") date.setDate(1);
  return Math.floor(date.getTime() / 1000);
}

/** Unix seconds at which the period holding `atMs` ends and the next begins (0 for no period). */
export function periodEndOf(period: string, atMs = nowMs()): number {
  const start = periodStartOf(period, atMs);
  if (!start) return 0;
  const date = new Date(start * 1000);
  if (period === "day") date.setDate(date.getDate() + 1);
  else if (period === "week") date.setDate(date.getDate() + 7);
  else date.setMonth(date.getMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

type PeriodColumns = { quota_period: string; period_quota: number; period_used_quota: number; period_start: number };

/** What the current period used: the stored sum while it counts the current period, else 0. */
export function periodUsed(token: PeriodColumns, atMs = nowMs()): number {
  const start = periodStartOf(token.quota_period, atMs);
  return start && Number(token.period_start) === start ? Number(token.period_used_quota) : 0;
}

/** The token has a budget per period. */
export function hasPeriodBudget(token: { quota_period: string; period_quota: number }): boolean {
  return token.quota_period !== "" && Number(token.period_quota) > 0;
}
