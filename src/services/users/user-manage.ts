// Row actions of the user list (promote, demote, disable, enable, delete) and deleting
// accounts. Every change of role or status, and every deletion, bumps the user's
// session_version, so open sessions end at their next request on every instance. Deletion is
// soft: the row stays (logs and money keep their owner), the username and bindings stay taken;
// what the relay kept for the user (Responses API state) goes at once.
import { eq, sql } from "drizzle-orm";
import { forbidden, invalid } from "../../errors/app-error.ts";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { rowChanges } from "../audit/audit-changes.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { parseInput } from "../parse-input.ts";
import { forgetUserResponses } from "../responses/stored-responses.ts";
import { manageableUser } from "./user-admin.ts";
import { Role, UserStatus, isRoot } from "./roles.ts";
import { userAuditRules } from "./user-audit.ts";
import { manageUserInput } from "./user-schemas.ts";
import type { UserRow } from "./user-view.ts";
import { updateLiveUser } from "./user-writes.ts";

const sameOrHigher = "无权更新同权限等级或更高权限等级的用户信息";

type Changes = { role?: number; status?: number; deleted_at?: number };

async function applyChanges(target: UserRow, changes: Changes): Promise<UserRow> {
  const updated = await updateLiveUser(target.id, { ...changes, session_version: sql`${t.users.session_version} + 1` });
  if (changes.deleted_at !== undefined) await forgetUserResponses(target.id);
  return updated;
}

function changesFor(actor: UserRow, target: UserRow, action: string): Changes {
  switch (action) {
    case "disable":
      return { status: UserStatus.banned };
    case "enable":
      if (target.status === UserStatus.nonEnableable) throw invalid("该用户无法被启用");
      return { status: UserStatus.enabled };
    case "delete":
      return { deleted_at: nowSeconds() };
    case "promote":
      if (!isRoot(actor.role)) throw forbidden("普通管理员用户无法提升其他用户为管理员");
      if (target.role >= Role.admin) throw invalid("该用户已经是管理员");
      return { role: Role.admin };
    default:
      if (target.role <= Role.common) throw invalid("该用户已经是普通用户");
      return { role: Role.common };
  }
}

/** One write of the user's row; the audit entry follows it (updateLiveUser is its own statement). */
async function applyAudited(auditActor: AuditActor, action: string, target: UserRow, changes: Changes): Promise<UserRow> {
  const updated = await applyChanges(target, changes);
  await recordAudit(auditActor, { action, targetType: "user", targetId: target.id, changes: rowChanges(target, updated, userAuditRules) });
  return updated;
}

/** POST /api/user/manage: returns the user's new status and role for the row to take over. */
export async function manageUser(actor: UserRow, body: unknown, auditActor: AuditActor): Promise<{ status: number; role: number }> {
  const input = parseInput(manageUserInput, body);
  const target = await manageableUserOrRoot(actor, input.id, input.action);
  const updated = await applyAudited(auditActor, `user.${input.action}`, target, changesFor(actor, target, input.action));
  return { status: updated.status, role: updated.role };
}

/** The super admin's protections come first, with their own messages, then the rank rule. */
async function manageableUserOrRoot(actor: UserRow, id: number, action: string, refusal = sameOrHigher): Promise<UserRow> {
  const messages: Record<string, string> = {
    disable: "无法禁用超级管理员用户",
    delete: "无法删除超级管理员用户",
    demote: "无法降级超级管理员用户",
  };
  const [target] = await db.select({ role: t.users.role }).from(t.users).where(eq(t.users.id, id)).limit(1);
  if (target && isRoot(target.role) && messages[action]) throw forbidden(messages[action]);
  return manageableUser(actor, id, refusal);
}

/** DELETE /api/user/{id}: the same soft delete as the row action. */
export async function deleteUserByAdmin(actor: UserRow, id: number, auditActor: AuditActor): Promise<void> {
  const target = await manageableUserOrRoot(actor, id, "delete", "无权删除同权限等级或更高权限等级的用户");
  await applyAudited(auditActor, "user.delete", target, { deleted_at: nowSeconds() });
}

/** DELETE /api/user/self: the console sends the typed username to confirm. */
export async function deleteSelf(user: UserRow, confirmation: unknown): Promise<void> {
  if (isRoot(user.role)) throw forbidden("不能删除超级管理员账户");
  if (confirmation !== undefined && confirmation !== user.username) throw invalid("请输入你的账户名以确认删除！");
  await applyChanges(user, { deleted_at: nowSeconds() });
}
