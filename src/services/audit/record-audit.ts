// Writing the audit trail (issue 27): one entry per change made through the management API or
// console, with who, from where, when, what and the fields changed. Services that change things
// call `auditEntry` inside the change's own transaction (the entry exists exactly when the change
// does), or `recordAudit` right after a change that is not one transaction of its own.
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import type { Db } from "../../store/database.ts";
import { run } from "../../store/transact.ts";
import type { AuditActor } from "./audit-actor.ts";
import type { AuditChange } from "./audit-changes.ts";

export type AuditTarget = {
  /** "<area>.<verb>": channel.update, user.disable, option.update, redemption.create... */
  action: string;
  targetType: string;
  /** One id, ids joined by commas (bulk actions), a tag or an option key. */
  targetId?: string | number | readonly (string | number)[];
  changes?: AuditChange[];
};

/** Bulk actions name at most this many targets; the count is in the changes. */
const maxTargets = 200;

function targetText(id: AuditTarget["targetId"]): string {
  if (id === undefined) return "";
  if (!Array.isArray(id)) return String(id);
  const shown = id.slice(0, maxTargets).join(",");
  return id.length > maxTargets ? `${shown},…` : shown;
}

function auditRow(actor: AuditActor, target: AuditTarget) {
  return {
    created_at: nowSeconds(),
    actor_id: actor.id,
    actor_name: actor.name.slice(0, 64),
    address: actor.address.slice(0, 64),
    action: target.action,
    target_type: target.targetType,
    target_id: targetText(target.targetId),
    changes: JSON.stringify(target.changes ?? []),
  };
}

/** Inside a transaction: `yield* auditEntry(tx, actor, {...})`. */
export function* auditEntry(tx: Db, actor: AuditActor, target: AuditTarget) {
  yield* run(tx.insert(t.audit_logs).values(auditRow(actor, target)));
}

/** After a change that was not one transaction (or spans several). */
export async function recordAudit(actor: AuditActor, target: AuditTarget): Promise<void> {
  await db.insert(t.audit_logs).values(auditRow(actor, target));
}
