// Redemption codes: a key worth some quota, redeemed once (new-api's columns).
import type { Kit } from "../kit.ts";

export const defineRedemptions = (k: Kit) =>
  k.table(
    "redemptions",
    {
      id: k.id(),
      /** The admin who created the code. */
      user_id: k.int("user_id").notNull().default(0),
      key: k.varchar("key", 64).notNull(),
      /** 1 unused, 2 disabled, 3 used. */
      status: k.int("status").notNull().default(1),
      name: k.varchar("name", 64).notNull().default(""),
      quota: k.bigint("quota").notNull().default(100000),
      created_time: k.bigint("created_time").notNull().default(0),
      redeemed_time: k.bigint("redeemed_time").notNull().default(0),
      used_user_id: k.int("used_user_id").notNull().default(0),
      deleted_at: k.bigint("deleted_at"),
    },
    (table) => [k.uniqueIndex("redemptions_key_unique").on(table.key), k.index("redemptions_name_index").on(table.name)],
  );
