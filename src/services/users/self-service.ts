// What a signed-in user does to their own account: profile, password (changed with the current
// one, or set for the first time by accounts created by a social sign-in), system access token,
// invite code (the personal settings tab and /api/user/self).
import { and, eq, isNull, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { isUniqueViolation } from "../../store/dialect.ts";
import { db, t } from "../../store/client.ts";
import { announceChange } from "../change-notices.ts";
import { parseInput } from "../parse-input.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { randomAlphanumeric, sha256Hex } from "./random-codes.ts";
import { findLiveUserById } from "./user-queries.ts";
import { firstPasswordInput, passwordRule, updateSelfInput } from "./user-schemas.ts";
import type { UserRow } from "./user-view.ts";
import { updateLiveUser } from "./user-writes.ts";

/** new-api's console sends this sentinel to mean "password unchanged". */
const unchangedPasswordSentinel = "$I_LOVE_U";

/** How recent a sign-in must be to set a first password (a stolen old cookie cannot). */
const firstPasswordSignInSeconds = 10 * 60;

export type SelfUpdateResult = { user: UserRow; passwordChanged: boolean };

/** Accounts created by a social sign-in have no password until their owner sets one. */
export const hasPassword = (user: Pick<UserRow, "password">) => user.password !== "";

/**
 * A new password ends every session of the account (this one gets a fresh cookie from the
 * route) and its system access token, which works again only once regenerated.
 */
const passwordChange = (hash: string) => ({ password: hash, session_version: sql`${t.users.session_version} + 1`, access_token: null });

export async function updateSelf(user: UserRow, body: unknown): Promise<SelfUpdateResult> {
  const input = parseInput(updateSelfInput, body);
  const changes: Partial<UserRow> = {};
  if (input.display_name !== undefined) changes.display_name = input.display_name;
  const newPassword = input.password && input.password !== unchangedPasswordSentinel ? input.password : undefined;
  if (newPassword !== undefined) {
    const checked = passwordRule.safeParse(newPassword);
    if (!checked.success) throw invalid(checked.error.issues[0]!.message);
    // A session cookie or access token alone must not be enough to take the account over.
    if (!hasPassword(user)) throw invalid("该账户还没有密码，请先设置密码");
    if (!input.original_password) throw invalid("请输入原密码");
    if (!(await verifyPassword(input.original_password, user.password))) throw invalid("原密码错误");
  }
  if (Object.keys(changes).length === 0 && newPassword === undefined) return { user, passwordChanged: false };
  const updated = await updateLiveUser(user.id, {
    ...changes,
    ...(newPassword !== undefined ? passwordChange(await hashPassword(newPassword)) : {}),
  });
  return { user: updated, passwordChanged: newPassword !== undefined };
}

/**
 * POST /api/user/self/password: the first password of an account created by a social sign-in,
 * from a session that signed in within the last ten minutes (so an old stolen cookie cannot).
 */
export async function setFirstPassword(caller: { user: UserRow; signedInAt?: number }, body: unknown): Promise<UserRow> {
  const input = parseInput(firstPasswordInput, body);
  if (hasPassword(caller.user)) throw invalid("该账户已有密码，请使用修改密码");
  if (caller.signedInAt === undefined || nowSeconds() - caller.signedInAt > firstPasswordSignInSeconds) {
    throw invalid("为了账户安全，请重新登录后 10 分钟内设置密码");
  }
  const hash = await hashPassword(input.password);
  // Only while the account still has none: two tabs setting it at once cannot both win.
  const [updated] = await db
    .update(t.users)
    .set(passwordChange(hash))
    .where(and(eq(t.users.id, caller.user.id), eq(t.users.password, ""), isNull(t.users.deleted_at)))
    .returning();
  if (!updated) throw invalid("该账户已有密码，请使用修改密码");
  await announceChange("users", updated.id);
  return updated;
}

/** Sign out everywhere: a new session version ends every cookie issued so far. */
export async function endAllSessions(user: UserRow): Promise<void> {
  await updateLiveUser(user.id, { session_version: sql`${t.users.session_version} + 1` });
}

/** GET /api/user/token: a new system access token; only its hash is kept, so it shows once. */
export async function resetAccessToken(user: UserRow): Promise<string> {
  const token = randomAlphanumeric(32);
  await db
    .update(t.users)
    .set({ access_token: sha256Hex(token) })
    .where(eq(t.users.id, user.id));
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
