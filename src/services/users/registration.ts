// Creating accounts: the root account on an empty store, and self-registration with invite
// rewards, by new-api's registration rules and messages.
import { eq, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { AppError, invalid } from "../../errors/app-error.ts";
import { countRows, isUniqueViolation } from "../../store/dialect.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { LogType } from "../logs/log-types.ts";
import { insertLog } from "../logs/record-log.ts";
import { optionBool, optionNumber } from "../options/options.ts";
import { parseInput } from "../parse-input.ts";
import { formatQuota } from "../pricing/quota-format.ts";
import { announceChange } from "../change-notices.ts";
import { consumeCode } from "../verifications/verification-codes.ts";
import { acceptableEmail } from "./email-rules.ts";
import { defaultRootPasswordHash, hashPassword } from "./passwords.ts";
import { randomAlphanumeric } from "./random-codes.ts";
import { Role } from "./roles.ts";
import { emailTaken, findUserByAffCode, findUserBySocialId, usernameTaken, type SocialColumn } from "./user-queries.ts";
import { registerInput } from "./user-schemas.ts";
import type { UserRow } from "./user-view.ts";

export const rootDefaults = { username: "root", password: "123456", displayName: "Root User", quota: 100_000_000 };

/** On an empty store, creates root / 123456 (the console warns until the password changes). */
export async function createRootIfEmpty(): Promise<boolean> {
  const [{ count }] = (await db.select({ count: countRows() }).from(t.users)) as [{ count: number }];
  if (count > 0) return false;
  try {
    await db.insert(t.users).values({
      username: rootDefaults.username,
      password: defaultRootPasswordHash,
      display_name: rootDefaults.displayName,
      role: Role.root,
      status: 1,
      quota: rootDefaults.quota,
      aff_code: randomAlphanumeric(4),
      created_at: nowSeconds(),
    });
    return true;
  } catch (error) {
    // Another instance sharing the store created it first.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export type NewAccount = {
  username: string;
  /** Null for accounts created by a social sign-in: they set a password later, if ever. */
  password: string | null;
  displayName?: string;
  email?: string;
  role?: number;
  affCode?: string;
  /** Social ids for accounts created by an OAuth login. */
  social?: Partial<Pick<UserRow, "github_id" | "wechat_id" | "telegram_id" | "linux_do_id">>;
};

/**
 * Inserts a user with the new-user quota and, when an invite code matches, the invite rewards
 * for both sides: all in one transaction, so rewards are credited exactly once.
 */
export async function createAccount(account: NewAccount): Promise<UserRow> {
  if (await usernameTaken(account.username)) throw invalid("用户名已存在，或已注销");
  if (account.email && (await emailTaken(account.email))) throw invalid("邮箱地址已被占用");
  const inviter = account.affCode ? await findUserByAffCode(account.affCode) : undefined;
  const passwordHash = account.password === null ? "" : await hashPassword(account.password);
  const quotaForNewUser = optionNumber("QuotaForNewUser");
  const quotaForInvitee = inviter ? optionNumber("QuotaForInvitee") : 0;
  const quotaForInviter = inviter ? optionNumber("QuotaForInviter") : 0;

  for (let attempt = 0; ; attempt++) {
    try {
      const created = await transact(function* (tx) {
        const [user] = yield* run(
          tx
            .insert(t.users)
            .values({
              username: account.username,
              password: passwordHash,
              display_name: account.displayName || account.username,
              email: account.email ?? "",
              role: account.role ?? Role.common,
              status: 1,
              quota: quotaForNewUser + quotaForInvitee,
              aff_code: randomAlphanumeric(4),
              inviter_id: inviter?.id ?? 0,
              created_at: nowSeconds(),
              ...account.social,
            })
            .returning(),
        );
        if (!user) throw new Error("user insert returned nothing");
        if (quotaForNewUser > 0) {
          yield* run(
            insertLog(tx, {
              user_id: user.id,
              username: user.username,
              type: LogType.system,
              content: `新用户注册赠送 ${formatQuota(quotaForNewUser)}`, // i18n-exempt: stored log text
            }),
          );
        }
        if (inviter) {
          if (quotaForInvitee > 0) {
            yield* run(
              insertLog(tx, {
                user_id: user.id,
                username: user.username,
                type: LogType.system,
                content: `使用邀请码赠送 ${formatQuota(quotaForInvitee)}`, // i18n-exempt: stored log text
              }),
            );
          }
          yield* run(
            tx
              .update(t.users)
              .set({
                aff_count: sql`${t.users.aff_count} + 1`,
                aff_quota: sql`${t.users.aff_quota} + ${quotaForInviter}`,
                aff_history_quota: sql`${t.users.aff_history_quota} + ${quotaForInviter}`,
              })
              .where(eq(t.users.id, inviter.id)),
          );
          if (quotaForInviter > 0) {
            yield* run(
              insertLog(tx, {
                user_id: inviter.id,
                username: inviter.username,
                type: LogType.system,
                content: `邀请用户赠送 ${formatQuota(quotaForInviter)}`, // i18n-exempt: stored log text
              }),
            );
          }
        }
        return user;
      });
      await announceChange("users", created.id);
      return created;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The username, address or social account was taken a moment ago, or the random invite
      // code collided (the only case worth another try).
      if (await usernameTaken(account.username)) throw invalid("用户名已存在，或已注销");
      if (account.email && (await emailTaken(account.email))) throw invalid("邮箱地址已被占用");
      if (account.social && (await anySocialTaken(account.social))) throw error;
      if (attempt >= 3) throw error;
    }
  }
}

async function anySocialTaken(social: NonNullable<NewAccount["social"]>): Promise<boolean> {
  for (const [column, value] of Object.entries(social)) {
    if (value && (await findUserBySocialId(column as SocialColumn, value))) return true;
  }
  return false;
}

/** POST /api/user/register: the public sign-up form. */
export async function registerWithPassword(body: unknown): Promise<UserRow> {
  if (!optionBool("RegisterEnabled")) throw new AppError("forbidden", "管理员关闭了新用户注册");
  if (!optionBool("PasswordRegisterEnabled")) {
    throw new AppError("forbidden", "管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册");
  }
  const input = parseInput(registerInput, body);
  let email = "";
  if (optionBool("EmailVerificationEnabled")) {
    if (!input.email || !input.verification_code) throw invalid("管理员开启了邮箱验证，请输入邮箱地址和验证码");
    email = acceptableEmail(input.email);
    if (await emailTaken(email)) throw invalid("邮箱地址已被占用");
    // Refusals that do not depend on the code come first, so a mistyped form keeps its code.
    if (await usernameTaken(input.username)) throw invalid("用户名已存在，或已注销");
    const verified = await consumeCode("email_verification", email, input.verification_code);
    if (!verified) throw invalid("验证码错误或已过期");
  }
  return createAccount({
    username: input.username,
    password: input.password,
    email,
    affCode: input.aff_code || undefined,
  });
}
