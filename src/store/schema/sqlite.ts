// The SQLite tables, derived from define-schema.ts (drizzle-kit reads this file).
import { sqliteKit } from "./kit.ts";
import { defineSchema } from "./define-schema.ts";

export const {
  users,
  tokens,
  channels,
  abilities,
  options,
  redemptions,
  logs,
  midjourneys,
  tasks,
  top_ups,
  quota_data,
  verifications,
  sessions,
  totp_secrets,
  recovery_codes,
  passkeys,
  stored_responses,
  stored_response_items,
  log_captures,
  audit_logs,
} = defineSchema(sqliteKit);
