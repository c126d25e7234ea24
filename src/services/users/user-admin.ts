// User management for admins (/user and /api/user/): the list and search (deleted
// users included, shown as such), one user's details, and creating accounts. Responses never
// carry password hashes or access tokens.
import type { AuditActor } from "../audit/audit-actor.ts";
import { rowChanges } from "../audit/audit-changes.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { userAuditRules } from "./user-audit.ts";
import { and, desc, eq, or, type SQL } from "drizzle-orm";
import { invalid, notFound } from "../../errors/app-error.ts";
import { containsText, countRows } from "../../store/dialect.ts";
import { db, t } from "../../store/client.ts";
import { pageResult, pagingOf, type Page } from "../paging.ts";
import { parseInput } from "../parse-input.ts";
import { createAccount } from "./registration.ts";
import { Role } from "./roles.ts";
import { assertOutranks } from "./user-permissions.ts";
import { findLiveUserById } from "./user-queries.ts";
import { createUserInput } from "./user-schemas.ts";
import { toAdminUserView, type UserRow, type UserView } from "./user-view.ts";

function searchCondition(keyword: string, group: string): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  const words = keyword.trim();
  if (words) {
    conditions.push(
      or(
        /^\d+$/.test(words) && Number(words) <= 2_147_483_647 ? eq(t.users.id, Number(words)) : undefined,
        containsText(t.users.username, words),
        containsText(t.users.display_name, words),
        containsText(t.users.email, words),
      ),
    );
  }
  if (group.trim()) conditions.push(eq(t.users.group, group.trim()));
  return conditions.length ? and(...conditions) : undefined;
}

export type UserListQuery = { p?: unknown; page_size?: unknown; keyword?: unknown; group?: unknown };

/** GET /api/user/ and /api/user/search: p is 1-based, page_size 10 by default (at most 100). */
export async function listUsers(query: UserListQuery): Promise<Page<UserView>> {
  const paging = pagingOf(query);
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const where = searchCondition(text(query.keyword), text(query.group));
  const [rows, [counted]] = await Promise.all([
    db.select().from(t.users).where(where).orderBy(desc(t.users.id)).limit(paging.pageSize).offset(paging.offset),
    db.select({ total: countRows() }).from(t.users).where(where),
  ]);
  return pageResult(rows.map(toAdminUserView), counted?.total ?? 0, paging);
}

/** A live user an admin may act on, or the spec's refusal. */
export async function manageableUser(actor: UserRow, id: number, refusal: string): Promise<UserRow> {
  if (!Number.isInteger(id) || id <= 0) throw invalid("无效的参数");
  const target = await findLiveUserById(id);
  if (!target) throw notFound("用户不存在");
  assertOutranks(actor, target, refusal);
  return target;
}

/** GET /api/user/{id}. */
export async function getUserForAdmin(actor: UserRow, id: number): Promise<UserView> {
  return toAdminUserView(await manageableUser(actor, id, "无权获取同级或更高等级用户的信息"));
}

/** POST /api/user/: always a common user (promotion is a separate, root-only step). */
export async function createUserByAdmin(actor: UserRow, body: unknown, auditActor: AuditActor): Promise<UserView> {
  const input = parseInput(createUserInput, body);
  if ((input.role ?? Role.common) >= actor.role) throw invalid("无法创建权限大于等于自己的用户");
  const user = await createAccount({
    username: input.username,
    password: input.password,
    displayName: input.display_name || input.username,
  });
  // createAccount's transaction also serves sign-ups (no actor there); the entry follows it.
  await recordAudit(auditActor, {
    action: "user.create",
    targetType: "user",
    targetId: user.id,
    changes: rowChanges(undefined, user, userAuditRules),
  });
  return toAdminUserView(user);
}
