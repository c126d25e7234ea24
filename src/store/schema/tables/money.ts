// Online top-up orders and hourly usage rollups for the dashboard. (Relay holds are not rows:
// they are reservations outside the store, see services/billing/reservation-book.ts; the
// quota_holds table of earlier versions is dropped by migration 0005, its holds given back.)
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
    (table) => [k.uniqueIndex("top_ups_trade_no_unique").on(table.trade_no), k.index("top_ups_user_id_index").on(table.user_id)],
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
