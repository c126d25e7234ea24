// API tokens (sk- keys): quota, expiry, model and address limits, group (spec §3 Token).
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
      deleted_at: k.bigint("deleted_at"),
    },
    (table) => [
      k.uniqueIndex("tokens_key_unique").on(table.key),
      k.index("tokens_user_id_index").on(table.user_id),
      k.index("tokens_name_index").on(table.name),
    ],
  );
