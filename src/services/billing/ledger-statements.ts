// The statements of the ledger (quota-holds.ts), built once: they run for every relay request.
// Reading a balance for a reservation, and the settlement: the cost leaves the user's balance and
// joins the used quotas of user, token and channel, with the consumption log.
import { eq, sql } from "drizzle-orm";
import { t } from "../../store/client.ts";
import { reusableStatement } from "../../store/reusable-statement.ts";

const p = sql.placeholder;

/** A user's balance and its version (used quota: every charge raises it). */
export const userBalance = reusableStatement<{ quota: number; used: number }[], { userId: number }>((tx) =>
  tx.select({ quota: t.users.quota, used: t.users.used_quota }).from(t.users).where(eq(t.users.id, p("userId"))),
);

export const tokenBalance = reusableStatement<{ remain: number; used: number }[], { tokenId: number }>((tx) =>
  tx.select({ remain: t.tokens.remain_quota, used: t.tokens.used_quota }).from(t.tokens).where(eq(t.tokens.id, p("tokenId"))),
);

/**
 * The settlement of a user's requests: quota moves by `delta` (what was reserved in the store, 0
 * for reservations outside it, less the cost), used quota and request count go up.
 */
export const chargeUser = reusableStatement<{ quota: number; used: number }[], { delta: number; quota: number; count: number; userId: number }>((tx) =>
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

export const chargeLimitedToken = reusableStatement<{ remain: number; used: number }[], { delta: number; quota: number; now: number; tokenId: number }>((tx) =>
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

export const chargeUnlimitedToken = reusableStatement<unknown, { quota: number; now: number; tokenId: number }>((tx) =>
  tx
    .update(t.tokens)
    .set({ used_quota: sql`${t.tokens.used_quota} + ${p("quota")}`, accessed_time: sql`${p("now")}` })
    .where(eq(t.tokens.id, p("tokenId"))),
);

export const chargeChannel = reusableStatement<unknown, { quota: number; channelId: number }>((tx) =>
  tx.update(t.channels).set({ used_quota: sql`${t.channels.used_quota} + ${p("quota")}` }).where(eq(t.channels.id, p("channelId"))),
);

const logColumns = [
  "user_id", "username", "created_at", "type", "content", "token_id", "token_name", "model_name", "quota", "prompt_tokens",
  "completion_tokens", "use_time", "is_stream", "channel_id", "channel_name", "group", "other", "request_id",
] as const;

export type LogValues = Record<(typeof logColumns)[number], unknown>;

export const insertConsumeLog = reusableStatement<unknown, LogValues>((tx) =>
  tx.insert(t.logs).values(Object.fromEntries(logColumns.map((column) => [column, p(column)])) as never),
);
