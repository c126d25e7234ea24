// Online top-up orders, hourly usage rollups for the dashboard, and quota holds: the amount a
// relay request reserved before calling upstream, kept as a row so a crash between reserve and
// settle can be found and resolved by any instance (no money lives only in process memory).
import type { Kit } from "../kit.ts";

export const defineTopUps = (k: Kit) =>
  k.table(
    "top_ups",
    {
      id: k.id(),
      user_id: k.int("user_id").notNull(),
      /** Units bought (dollars, or quota points when currency display is off). */
      amount: k.bigint("amount").notNull().default(0),
      /** Money paid, in the payment currency. */
      money: k.float("money").notNull().default(0),
      /** Quota credited on success, fixed when the order is made (later option edits do not change it). */
      quota: k.bigint("quota").notNull().default(0),
      trade_no: k.varchar("trade_no", 128).notNull(),
      payment_method: k.varchar("payment_method", 32).notNull().default(""),
      create_time: k.bigint("create_time").notNull().default(0),
      complete_time: k.bigint("complete_time").notNull().default(0),
      /** pending, success, failed, review. */
      status: k.varchar("status", 32).notNull().default("pending"),
    },
    (table) => [
      k.uniqueIndex("top_ups_trade_no_unique").on(table.trade_no),
      k.index("top_ups_user_id_index").on(table.user_id),
    ],
  );

export const defineQuotaData = (k: Kit) =>
  k.table(
    "quota_data",
    {
      id: k.id(),
      user_id: k.int("user_id").notNull(),
      username: k.varchar("username", 64).notNull().default(""),
      model_name: k.varchar("model_name", 255).notNull().default(""),
      /** Start of the hour, unix seconds. */
      created_at: k.bigint("created_at").notNull(),
      token_used: k.bigint("token_used").notNull().default(0),
      count: k.bigint("count").notNull().default(0),
      quota: k.bigint("quota").notNull().default(0),
    },
    (table) => [
      k.uniqueIndex("quota_data_bucket_unique").on(table.user_id, table.model_name, table.created_at),
      k.index("quota_data_created_at_index").on(table.created_at),
    ],
  );

export const defineQuotaHolds = (k: Kit) =>
  k.table(
    "quota_holds",
    {
      request_id: k.varchar("request_id", 64).primaryKey(),
      user_id: k.int("user_id").notNull(),
      token_id: k.int("token_id").notNull().default(0),
      amount: k.bigint("amount").notNull(),
      /** Whether the token's own balance was also debited (limited tokens). */
      token_debited: k.bool("token_debited").notNull().default(false),
      created_at: k.bigint("created_at").notNull(),
    },
    (table) => [k.index("quota_holds_created_at_index").on(table.created_at)],
  );
