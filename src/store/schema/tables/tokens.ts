// API tokens (sk- keys): quota, expiry, model and address limits, group (docs/COMPATIBILITY.md, Token keys).
import type { Kit } from "../kit.ts";

export const defineTokens = (k: Kit, users: { id: any }) =>
  k.table(
    "tokens",
    {
      id: k.id(),
      user_id: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      /** 48 alphanumerics, stored without the sk- prefix clients put in front. */
      key: k.varchar("key", 64).notNull(),
      /** 1 enabled, 2 disabled, 3 expired, 4 exhausted. */
      status: k.int("status").notNull().default(1),
      name: k.varchar("name", 64).notNull().default(""),
      created_time: k.bigint("created_time").notNull().default(0),
      accessed_time: k.bigint("accessed_time").notNull().default(0),
      /** Unix seconds; -1 never expires. */
      expired_time: k.bigint("expired_time").notNull().default(-1),
      remain_quota: k.bigint("remain_quota").notNull().default(0),
      unlimited_quota: k.bool("unlimited_quota").notNull().default(false),
      used_quota: k.bigint("used_quota").notNull().default(0),
      model_limits_enabled: k.bool("model_limits_enabled").notNull().default(false),
      /** Comma separated model names. */
      model_limits: k.text("model_limits").notNull().default(""),
      /** One address per line; empty means no limit. */
      allow_ips: k.text("allow_ips").notNull().default(""),
      group: k.varchar("group", 64).notNull().default(""),
      /** Unix seconds until which the request inspector keeps this token's calls; 0 = off. */
      capture_until: k.bigint("capture_until").notNull().default(0),
      /** "" none, "day", "week" or "month": calendar periods in the gateway's time zone. */
      quota_period: k.varchar("quota_period", 8).notNull().default(""),
      /** Quota units a period may use; 0 none. */
      period_quota: k.bigint("period_quota").notNull().default(0),
      /** Used in the period starting at period_start (a settlement in a later period starts over). */
      period_used_quota: k.bigint("period_used_quota").notNull().default(0),
      /** Unix seconds: the start of the period period_used_quota counts. */
      period_start: k.bigint("period_start").notNull().default(0),
      /** Requests per minute; 0 none. */
      rpm_limit: k.int("rpm_limit").notNull().default(0),
      /** Prompt + completion tokens per minute (settled usage); 0 none. */
      tpm_limit: k.bigint("tpm_limit").notNull().default(0),
      /** Requests in flight; 0 none. */
      concurrency_limit: k.int("concurrency_limit").notNull().default(0),
      deleted_at: k.bigint("deleted_at"),
    },
    (table) => [
      k.uniqueIndex("tokens_key_unique").on(table.key),
      k.index("tokens_user_id_index").on(table.user_id),
      k.index("tokens_name_index").on(table.name),
    ],
  );
