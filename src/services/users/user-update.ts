// PUT /api/user/: an admin edits a user of a lower role (the console's edit panel):
// username, display name, password, group and quota. Quota changes are exact: an added amount
// (may be negative) or a new total, applied to the current value inside one transaction, never
// below zero, and written to the log as an admin entry (type 3) carrying the signed change.
import { and, eq, isNull, sql } from "drizzle-orm";
import { AppError, invalid } from "../../errors/app-error.ts";
import { isUniqueViolation } from "../../store/dialect.ts";
import { t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { rowChanges } from "../audit/audit-changes.ts";
import { auditEntry } from "../audit/record-audit.ts";
import { announceChange } from "../change-notices.ts";
import { LogType } from "../logs/log-types.ts";
import { insertLog } from "../logs/record-log.ts";
import { groupRatios } from "../groups/user-groups.ts";
import { parseInput } from "../parse-input.ts";
import { formatQuota } from "../pricing/quota-format.ts";
import { manageableUser } from "./user-admin.ts";
import { checkCaptureUntil } from "../captures/capture-window.ts";
import { hashPassword } from "./passwords.ts";
import { passwordRule, updateUserInput } from "./user-schemas.ts";
import { userAuditRules } from "./user-audit.ts";
import { toAdminUserView, type UserRow, type UserView } from "./user-view.ts";

/** new-api's console sends this to mean "password unchanged". */
const unchangedPassword = "$I_LOVE_U";
const sameOrHigher = "无权更新同权限等级或更高权限等级的用户信息";

export async function updateUserByAdmin(actor: UserRow, body: unknown, auditActor: AuditActor): Promise<UserView> {
  const input = parseInput(updateUserInput, body);
  const target = await manageableUser(actor, input.id, sameOrHigher);
  // Roles change only through promote/demote; asking for one at or above your own is refused.
  if (input.role !== undefined && input.role >= actor.role) throw invalid("无权将其他用户权限等级提升到大于等于自己的权限等级");

  const changes: Partial<UserRow> = {};
  if (input.username !== undefined && input.username !== target.username) changes.username = input.username;
  if (input.display_name !== undefined) changes.display_name = input.display_name || input.username || target.username;
  if (input.group !== undefined && input.group !== target.group) {
    if (!Object.hasOwn(groupRatios(), input.group)) throw invalid("分组不存在");
    changes.group = input.group;
  }
  const captureUntil = checkCaptureUntil(input.capture_until, Number(target.capture_until), actor.role);
  if (captureUntil !== Number(target.capture_until)) changes.capture_until = captureUntil;
  const newPassword = input.password && input.password !== unchangedPassword ? input.password : undefined;
  if (newPassword !== undefined) {
    const checked = passwordRule.safeParse(newPassword);
    if (!checked.success) throw invalid(checked.error.issues[0]!.message);
    changes.password = await hashPassword(newPassword);
  }

  try {
    const updated = await transact(function* (tx) {
      const [current] = yield* run(
        tx
          .select()
          .from(t.users)
          .where(and(eq(t.users.id, target.id), isNull(t.users.deleted_at)))
          .limit(1),
      );
      if (!current) throw invalid("用户不存在");
      const quota = input.add_quota ? current.quota + input.add_quota : (input.quota ?? current.quota);
      if (quota < 0) throw invalid("用户额度不能为负数");
      const [row] = yield* run(
        tx
          .update(t.users)
          .set({
            ...changes,
            quota,
            // A new password ends the user's sessions everywhere, and their system access token.
            ...(newPassword !== undefined ? { session_version: sql`${t.users.session_version} + 1`, access_token: null } : {}),
          })
          // The read above and this write must see the same quota (PostgreSQL runs
          // other transactions in between).
          .where(and(eq(t.users.id, current.id), eq(t.users.quota, current.quota)))
          .returning(),
      );
      if (!row) throw new AppError("conflict", "用户额度刚刚发生了变化，请刷新后重试");
      // A quota change here is an admin's top-up (or deduction): before and after are in the entry.
      yield* auditEntry(tx, auditActor, {
        action: "user.update",
        targetType: "user",
        targetId: row.id,
        changes: rowChanges(current, row, userAuditRules),
      });
      if (quota !== current.quota) {
        yield* run(
          insertLog(tx, {
            user_id: row.id,
            username: row.username,
            type: LogType.manage,
            quota: quota - current.quota,
            content: `管理员将用户额度从 ${formatQuota(current.quota)}修改为 ${formatQuota(quota)}`, // i18n-exempt: stored log text
          }),
        );
      }
      return row;
    });
    await announceChange("users", updated.id);
    return toAdminUserView(updated);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid("用户名已存在，或已注销");
    throw error;
  }
}
