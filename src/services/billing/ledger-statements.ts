// The statements of the three money moves (quota-holds.ts), built once: they run for every relay
// request. Conditional debits ("... where quota >= amount returning") are how a balance can never
// be overdrawn by concurrent requests, on one instance or many.
import { and, eq, gte, sql } from "drizzle-orm";
import { t } from "../../store/client.ts";
import { reusableStatement } from "../../store/reusable-statement.ts";

const p = sql.placeholder;

export const debitUser = reusableStatement<{ quota: number }[], { amount: number; userId: number }>((tx) =>
  tx
    .update(t.users)
    .set({ quota: sql`${t.users.quota} - ${p("amount")}` })
    .where(and(eq(t.users.id, p("userId")), gte(t.users.quota, p("amount"))))
    .returning({ quota: t.users.quota }),
);

export const creditUser = reusableStatement<unknown, { amount: number; userId: number }>((tx) =>
  tx.update(t.users).set({ quota: sql`${t.users.quota} + ${p("amount")}` }).where(eq(t.users.id, p("userId"))),
);

export const debitToken = reusableStatement<{ remain: number }[], { amount: number; tokenId: number }>((tx) =>
  tx
    .update(t.tokens)
    .set({ remain_quota: sql`${t.tokens.remain_quota} - ${p("amount")}` })
    .where(and(eq(t.tokens.id, p("tokenId")), gte(t.tokens.remain_quota, p("amount"))))
    .returning({ remain: t.tokens.remain_quota }),
);

export const creditToken = reusableStatement<unknown, { amount: number; tokenId: number }>((tx) =>
  tx.update(t.tokens).set({ remain_quota: sql`${t.tokens.remain_quota} + ${p("amount")}` }).where(eq(t.tokens.id, p("tokenId"))),
);

export const insertHold = reusableStatement<unknown, { requestId: string; userId: number; tokenId: number; amount: number; tokenDebited: boolean; createdAt: number }>((tx) =>
  tx.insert(t.quota_holds).values({
    request_id: p("requestId"),
    user_id: p("userId"),
    token_id: p("tokenId"),
    amount: p("amount"),
    token_debited: p("tokenDebited"),
    created_at: p("createdAt"),
  }),
);

export const takeHold = reusableStatement<{ user_id: number; token_id: number; amount: number; token_debited: boolean }[], { requestId: string }>((tx) =>
  tx
    .delete(t.quota_holds)
    .where(eq(t.quota_holds.request_id, p("requestId")))
    .returning({ user_id: t.quota_holds.user_id, token_id: t.quota_holds.token_id, amount: t.quota_holds.amount, token_debited: t.quota_holds.token_debited }),
);

/** Replaces holds by costs: quota moves by (held - cost), used quota and request count go up. */
export const chargeUser = reusableStatement<{ quota: number }[], { delta: number; quota: number; count: number; userId: number }>((tx) =>
  tx
    .update(t.users)
    .set({
      quota: sql`${t.users.quota} + ${p("delta")}`,
      used_quota: sql`${t.users.used_quota} + ${p("quota")}`,
      request_count: sql`${t.users.request_count} + ${p("count")}`,
    })
    .where(eq(t.users.id, p("userId")))
    .returning({ quota: t.users.quota }),
);

export const chargeLimitedToken = reusableStatement<{ remain: number }[], { delta: number; quota: number; now: number; tokenId: number }>((tx) =>
  tx
    .update(t.tokens)
    .set({
      remain_quota: sql`${t.tokens.remain_quota} + ${p("delta")}`,
      used_quota: sql`${t.tokens.used_quota} + ${p("quota")}`,
      accessed_time: sql`${p("now")}`,
    })
    .where(eq(t.tokens.id, p("tokenId")))
    .returning({ remain: t.tokens.remain_quota }),
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
