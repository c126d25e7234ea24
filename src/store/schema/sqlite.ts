// The SQLite tables, derived from define-schema.ts (drizzle-kit reads this file).
import { sqliteKit } from "./kit.ts";
import { defineSchema } from "./define-schema.ts";

export const {
  users, tokens, channels, abilities, options, redemptions, logs, midjourneys, tasks, top_ups,
  quota_data, verifications,
} = defineSchema(sqliteKit);
