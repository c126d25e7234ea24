// The statements of the ledger (quota-holds.ts), built once: they run for every relay request.
// Reading a balance for a reservation, and the settlement: the cost leaves the user's balance and
// joins the used quotas of user, token and channel, with the consumption log.
import { and, eq, sql } from "drizzle-orm";
import { t } from "../../store/client.ts";
import { reusableStatement } from "../../store/reusable-statement.ts";

const p = sql.placeholder;

/** A user's balance and its version (used quota: every charge raises it). */
export const userBalance = reusableStatement<{ quota: number; used: number }[], { userId: number }>((tx) =>
  tx
    .select({ quota: t.users.quota, used: t.users.used_quota })
    .from(t.users)
    .where(eq(t.users.id, p("userId"))),
);

/** A token's balance and version, with what its period budget needs (balance-snapshot.ts). */
export const tokenBalance = reusableStatement<
  {
    remain: number;
    used: number;
    unlimited: boolean;
    quota_period: string;
    period_quota: number;
    period_used_quota: number;
    period_start: number;
  }[],
  { tokenId: number }
>((tx) =>
  tx
    .select({
      remain: t.tokens.remain_quota,
      used: t.tokens.used_quota,
      unlimited: t.tokens.unlimited_quota,
      quota_period: t.tokens.quota_period,
      period_quota: t.tokens.period_quota,
      period_used_quota: t.tokens.period_used_quota,
      period_start: t.tokens.period_start,
    })
    .from(t.tokens)
    .where(eq(t.tokens.id, p("tokenId"))),
);

/**
 * The settlement of a user's requests: quota moves by `delta` (what was reserved in the store, 0
 * for reservations outside it, less the cost), used quota and request count go up. This one
 * charges unconditionally: the settlement runs it only for amounts it knows the balance covers
 * (ledger-shortfall.ts); its usual statement is chargeUserInFull.
 */
export const chargeUser = reusableStatement<
  { quota: number; used: number }[],
  { delta: number; quota: number; count: number; userId: number }
>((tx) =>
  tx
    .update(t.users)
    .set({
      quota: sql`${t.users.quota} + ${p("delta")}`,
      used_quota: sql`${t.users.used_quota} + ${p("quota")}`,
      request_count: sql`${t.users.request_count} + ${p("count")}`,
    })
    .where(eq(t.users.id, p("userId")))
    .returning({ quota: t.users.quota, used: t.users.used_quota }),
);

/** chargeUser when the balance stays at or above zero; no row when it would not (nothing changed). */
export const chargeUserInFull = reusableStatement<
  { quota: number; used: number }[],
  { delta: number; quota: number; count: number; userId: number }
>((tx) =>
  tx
    .update(t.users)
    .set({
      quota: sql`${t.users.quota} + ${p("delta")}`,
      used_quota: sql`${t.users.used_quota} + ${p("quota")}`,
      request_count: sql`${t.users.request_count} + ${p("count")}`,
    })
    .where(and(eq(t.users.id, p("userId")), sql`${t.users.quota} + ${p("delta")} >= 0`))
    .returning({ quota: t.users.quota, used: t.users.used_quota }),
);

export const chargeLimitedToken = reusableStatement<
  { remain: number; used: number }[],
  { delta: number; quota: number; now: number; tokenId: number }
>((tx) =>
  tx
    .update(t.tokens)
    .set({
      remain_quota: sql`${t.tokens.remain_quota} + ${p("delta")}`,
      used_quota: sql`${t.tokens.used_quota} + ${p("quota")}`,
      accessed_time: sql`${p("now")}`,
    })
    .where(eq(t.tokens.id, p("tokenId")))
    .returning({ remain: t.tokens.remain_quota, used: t.tokens.used_quota }),
);

/** chargeLimitedToken when the token's balance stays at or above zero. */
export const chargeLimitedTokenInFull = reusableStatement<
  { remain: number; used: number }[],
  { delta: number; quota: number; now: number; tokenId: number }
>((tx) =>
  tx
    .update(t.tokens)
    .set({
      remain_quota: sql`${t.tokens.remain_quota} + ${p("delta")}`,
      used_quota: sql`${t.tokens.used_quota} + ${p("quota")}`,
      accessed_time: sql`${p("now")}`,
    })
    .where(and(eq(t.tokens.id, p("tokenId")), sql`${t.tokens.remain_quota} + ${p("delta")} >= 0`))
    .returning({ remain: t.tokens.remain_quota, used: t.tokens.used_quota }),
);

/**
 * A user's balance, read under the row's write lock until the transaction ends (an update that
 * changes nothing: the same statement on both stores, where SELECT ... FOR UPDATE is not).
 */
export const lockUserBalance = reusableStatement<{ balance: number }[], { userId: number }>((tx) =>
  tx
    .update(t.users)
    .set({ quota: sql`${t.users.quota}` })
    .where(eq(t.users.id, p("userId")))
    .returning({ balance: t.users.quota }),
);

export const lockTokenBalance = reusableStatement<{ balance: number }[], { tokenId: number }>((tx) =>
  tx
    .update(t.tokens)
    .set({ remain_quota: sql`${t.tokens.remain_quota}` })
    .where(eq(t.tokens.id, p("tokenId")))
    .returning({ balance: t.tokens.remain_quota }),
);

/** An unlimited token's charge; its used quota after it is the version of its period budget. */
export const chargeUnlimitedToken = reusableStatement<{ used: number }[], { quota: number; now: number; tokenId: number }>((tx) =>
  tx
    .update(t.tokens)
    .set({ used_quota: sql`${t.tokens.used_quota} + ${p("quota")}`, accessed_time: sql`${p("now")}` })
    .where(eq(t.tokens.id, p("tokenId")))
    .returning({ used: t.tokens.used_quota }),
);

/**
 * What the period's sum becomes with `quota` charged in the period starting at `periodStart`
 * (built with each statement: the tables are known once the store is open).
 */
const periodSumWith = () =>
  sql`case when ${t.tokens.period_start} = ${p("periodStart")} then ${t.tokens.period_used_quota} + ${p("quota")} else ${p("quota")} end`;

/**
 * What a token with a period budget used in its period: the period starting at `periodStart`
 * adds to the sum when the sum counts that period, and starts over at the charge otherwise. This
 * one charges unconditionally (a capped charge, or a correction of a full one: ledger-shortfall.ts);
 * its usual statement is chargeTokenPeriodInFull.
 */
export const chargeTokenPeriod = reusableStatement<unknown, { quota: number; periodStart: number; tokenId: number }>((tx) =>
  tx
    .update(t.tokens)
    .set({ period_used_quota: periodSumWith(), period_start: sql`${p("periodStart")}` })
    .where(eq(t.tokens.id, p("tokenId"))),
);

/**
 * chargeTokenPeriod when the period's sum stays within the budget (or the token no longer has
 * one: an edit since the call was admitted); no row when it would not (nothing changed).
 */
export const chargeTokenPeriodInFull = reusableStatement<{ id: number }[], { quota: number; periodStart: number; tokenId: number }>((tx) =>
  tx
    .update(t.tokens)
    .set({ period_used_quota: periodSumWith(), period_start: sql`${p("periodStart")}` })
    .where(
      and(
        eq(t.tokens.id, p("tokenId")),
        sql`(${t.tokens.quota_period} = '' or ${t.tokens.period_quota} <= 0 or ${periodSumWith()} <= ${t.tokens.period_quota})`,
      ),
    )
    .returning({ id: t.tokens.id }),
);

/** A token's period budget and sum, read under the row's write lock (like lockUserBalance). */
export const lockTokenPeriod = reusableStatement<
  { quota_period: string; period_quota: number; period_used_quota: number; period_start: number }[],
  { tokenId: number }
>((tx) =>
  tx
    .update(t.tokens)
    .set({ period_used_quota: sql`${t.tokens.period_used_quota}` })
    .where(eq(t.tokens.id, p("tokenId")))
    .returning({
      quota_period: t.tokens.quota_period,
      period_quota: t.tokens.period_quota,
      period_used_quota: t.tokens.period_used_quota,
      period_start: t.tokens.period_start,
    }),
);

export const chargeChannel = reusableStatement<unknown, { quota: number; channelId: number }>((tx) =>
  tx
    .update(t.channels)
    .set({ used_quota: sql`${t.channels.used_quota} + ${p("quota")}` })
    .where(eq(t.channels.id, p("channelId"))),
);

/**
 * What a channel's settlements could not collect, and its completions reported over the
 * request's max_tokens (with when the last one was): the operator's sign of a broken or
 * dishonest upstream. Run only for batches that had either.
 */
export const flagChannel = reusableStatement<unknown, { uncollected: number; overLimit: number; now: number; channelId: number }>((tx) =>
  tx
    .update(t.channels)
    .set({
      uncollected_quota: sql`${t.channels.uncollected_quota} + ${p("uncollected")}`,
      over_limit_count: sql`${t.channels.over_limit_count} + ${p("overLimit")}`,
      over_limit_at: sql`case when ${p("overLimit")} > 0 then ${p("now")} else ${t.channels.over_limit_at} end`,
    })
    .where(eq(t.channels.id, p("channelId"))),
);

const logColumns = [
  "user_id",
  "username",
  "created_at",
  "type",
  "content",
  "token_id",
  "token_name",
  "model_name",
  "quota",
  "prompt_tokens",
  "completion_tokens",
  "use_time",
  "is_stream",
  "channel_id",
  "channel_name",
  "group",
  "other",
  "request_id",
  "ip",
] as const;

export type LogValues = Record<(typeof logColumns)[number], unknown>;

export const insertConsumeLog = reusableStatement<unknown, LogValues>((tx) =>
  tx.insert(t.logs).values(Object.fromEntries(logColumns.map((column) => [column, p(column)])) as never),
);
