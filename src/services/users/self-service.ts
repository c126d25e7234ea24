// What a signed-in user does to their own account: profile, password, system access token,
// invite code (spec §2 Settings/Personal, §7 Personal).
import { and, eq, isNull, sql } from "drizzle-orm";
import { invalid } from "../../errors/app-error.ts";
import { isUniqueViolation } from "../../store/dialect.ts";
import { db, t } from "../../store/client.ts";
import { parseInput } from "../parse-input.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { randomAlphanumeric, sha256Hex } from "./random-codes.ts";
import { findLiveUserById } from "./user-queries.ts";
import { passwordRule, updateSelfInput } from "./user-schemas.ts";
import type { UserRow } from "./user-view.ts";

/** new-api's console sends this sentinel to mean "password unchanged". */
const unchangedPasswordSentinel = "$I_LOVE_U";

export type SelfUpdateResult = { user: UserRow; passwordChanged: boolean };

export async function updateSelf(user: UserRow, body: unknown): Promise<SelfUpdateResult> {
  const input = parseInput(updateSelfInput, body);
  const changes: Partial<UserRow> = {};
  if (input.display_name !== undefined) changes.display_name = input.display_name;
  const newPassword = input.password && input.password !== unchangedPasswordSentinel ? input.password : undefined;
  if (newPassword !== undefined) {
    const checked = passwordRule.safeParse(newPassword);
    if (!checked.success) throw invalid(checked.error.issues[0]!.message);
    if (input.original_password !== undefined && !(await verifyPassword(input.original_password, user.password))) {
      throw invalid("原密码错误");
    }
    changes.password = await hashPassword(newPassword);
  }
  if (Object.keys(changes).length === 0) return { user, passwordChanged: false };
  const update = db.update(t.users);
  const [updated] = await update
    .set({
      ...changes,
      // A new password ends every other session of this account.
      ...(newPassword !== undefined ? { session_version: sql`${t.users.session_version} + 1` } : {}),
    })
    .where(and(eq(t.users.id, user.id), isNull(t.users.deleted_at)))
    .returning();
  if (!updated) throw invalid("用户不存在");
  return { user: updated, passwordChanged: newPassword !== undefined };
}

/** GET /api/user/token: a new system access token; only its hash is kept, so it shows once. */
export async function resetAccessToken(user: UserRow): Promise<string> {
  const token = randomAlphanumeric(32);
  await db.update(t.users).set({ access_token: sha256Hex(token) }).where(eq(t.users.id, user.id));
  return token;
}

/** GET /api/user/aff: the user's invite code, created on first request. */
export async function ensureAffCode(user: UserRow): Promise<string> {
  if (user.aff_code) return user.aff_code;
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = randomAlphanumeric(4);
    try {
      const [row] = await db
        .update(t.users)
        .set({ aff_code: code })
        .where(and(eq(t.users.id, user.id), isNull(t.users.aff_code)))
        .returning({ aff_code: t.users.aff_code });
      if (row?.aff_code) return row.aff_code;
      const current = await findLiveUserById(user.id);
      if (current?.aff_code) return current.aff_code;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("could not allocate an invite code");
}
