// The audit trail (issue 27): one row per change made through the management API or console,
// written by services/audit/record-audit.ts in the change's own transaction. Rows are only ever
// inserted, and deleted by the retention job (AuditRetentionDays); nothing edits them.
import type { Kit } from "../kit.ts";

export const defineAuditLogs = (k: Kit) =>
  k.table(
    "audit_logs",
    {
      id: k.id(),
      created_at: k.bigint("created_at").notNull(),
      actor_id: k.int("actor_id").notNull(),
      actor_name: k.varchar("actor_name", 64).notNull().default(""),
      /** The client's address as the rate limits see it (X-Forwarded-For only with TRUST_PROXY). */
      address: k.varchar("address", 64).notNull().default(""),
      /** "<area>.<verb>", e.g. channel.update, user.disable, option.update. */
      action: k.varchar("action", 64).notNull(),
      target_type: k.varchar("target_type", 32).notNull().default(""),
      /** An id, a comma list of ids for bulk actions, a tag or option keys. */
      target_id: k.text("target_id").notNull().default(""),
      /** JSON array of {field, before?, after?} or {field, changed: true} for secrets. */
      changes: k.text("changes").notNull().default("[]"),
    },
    (table) => [
      k.index("audit_logs_created_at_index").on(table.created_at),
      k.index("audit_logs_actor_id_index").on(table.actor_id),
      k.index("audit_logs_action_index").on(table.action),
    ],
  );
