// Signing in with, and binding, a social account (GitHub, LinuxDO, WeChat, Telegram). Each
// method obeys its own switch; a social account belongs to one user at most (a unique index
// backs the check); a first sign-in creates an account when registration is open, with the
// invite code the visitor arrived with, so invite rewards are credited exactly as for a
// password registration.
import { and, eq, max } from "drizzle-orm";
import { forbidden, invalid, isAppError } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";
import type { BoolOptionKey } from "../options/option-registry.ts";
import { optionBool } from "../options/options.ts";
import { acceptableEmail } from "../users/email-rules.ts";
import { randomAlphanumeric } from "../users/random-codes.ts";
import { createAccount } from "../users/registration.ts";
import { keepsASignInMethod } from "../users/sign-in-methods.ts";
import { UserStatus } from "../users/roles.ts";
import { emailTaken, findUserBySocialId, type SocialColumn, usernameTaken } from "../users/user-queries.ts";
import type { UserRow } from "../users/user-view.ts";
import { updateLiveUser } from "../users/user-writes.ts";

export type SocialProvider = "github" | "linuxdo" | "wechat" | "telegram" | "oidc";

export type SocialIdentity = {
  provider: SocialProvider;
  /** The provider's stable id of the person. */
  id: string;
  /** An older id form to find bindings made before (GitHub logins, as new-api stored them). */
  legacyId?: string;
  displayName?: string;
  email?: string;
  /** A user name the provider suggests for a new account (OIDC's configured claim). */
  preferredUsername?: string;
};

type ProviderRules = { column: SocialColumn; switch: BoolOptionKey; disabled: string; taken: string; prefix: string; fallbackName: string };

const socialProviders: Record<SocialProvider, ProviderRules> = {
  github: {
    column: "github_id",
    switch: "GitHubOAuthEnabled",
    disabled: "管理员未开启通过 GitHub 登录以及注册",
    taken: "该 GitHub 账户已被绑定",
    prefix: "github",
    fallbackName: "GitHub User",
  },
  linuxdo: {
    column: "linux_do_id",
    switch: "LinuxDOOAuthEnabled",
    disabled: "管理员未开启通过 Linux DO 登录以及注册",
    taken: "该 Linux DO 账户已被绑定",
    prefix: "linuxdo",
    fallbackName: "LinuxDO User",
  },
  wechat: {
    column: "wechat_id",
    switch: "WeChatAuthEnabled",
    disabled: "管理员未开启通过微信登录以及注册",
    taken: "该微信账号已被绑定",
    prefix: "wechat",
    fallbackName: "WeChat User",
  },
  telegram: {
    column: "telegram_id",
    switch: "TelegramOAuthEnabled",
    disabled: "管理员未开启通过 Telegram 登录以及注册",
    taken: "该 Telegram 账户已被绑定",
    prefix: "telegram",
    fallbackName: "Telegram User",
  },
  oidc: {
    column: "oidc_id",
    switch: "OidcEnabled",
    disabled: "管理员未开启通过 OIDC 登录以及注册",
    taken: "该 OIDC 账户已被绑定",
    prefix: "oidc",
    fallbackName: "OIDC User",
  },
};

export function assertSocialEnabled(provider: SocialProvider): void {
  const rules = socialProviders[provider];
  if (!optionBool(rules.switch)) throw forbidden(rules.disabled);
}

/** The bound user, moving a binding stored under the legacy id to the stable one. */
async function findBoundUser(identity: SocialIdentity): Promise<UserRow | undefined> {
  const { column } = socialProviders[identity.provider];
  const bound = await findUserBySocialId(column, identity.id);
  if (bound || !identity.legacyId || identity.legacyId === identity.id) return bound;
  const legacy = await findUserBySocialId(column, identity.legacyId);
  if (!legacy) return undefined;
  const [moved] = await db
    .update(t.users)
    .set({ [column]: identity.id })
    .where(and(eq(t.users.id, legacy.id), eq(t.users[column], identity.legacyId)))
    .returning();
  return moved ?? legacy;
}

async function usableEmail(identity: SocialIdentity): Promise<string> {
  if (!identity.email) return "";
  try {
    const email = acceptableEmail(identity.email);
    return (await emailTaken(email)) ? "" : email;
  } catch {
    return "";
  }
}

/** The provider's suggested name when it is a valid user name (12 characters at most, no spaces). */
function suggestedUsername(name: string | undefined): string | undefined {
  const trimmed = name?.trim() ?? "";
  return trimmed !== "" && trimmed.length <= 12 && !/[\s@]/.test(trimmed) ? trimmed : undefined;
}

async function createSocialUser(identity: SocialIdentity, affCode: string): Promise<UserRow> {
  const rules = socialProviders[identity.provider];
  const [{ highest }] = (await db.select({ highest: max(t.users.id) }).from(t.users)) as [{ highest: number | null }];
  const email = await usableEmail(identity);
  const preferred = suggestedUsername(identity.preferredUsername);
  const names = preferred && !(await usernameTaken(preferred)) ? [preferred] : [];
  // new-api names these accounts github_<next id>; a taken name gets a random suffix instead.
  names.push(`${rules.prefix}_${Number(highest ?? 0) + 1}`);
  for (let attempt = 0; attempt < 5; attempt++) {
    const username = names[attempt] ?? `${rules.prefix}_${randomAlphanumeric(6)}`;
    try {
      return await createAccount({
        username,
        // No password: the account's owner sets a first one from the personal tab if they want.
        password: null,
        displayName: (identity.displayName || rules.fallbackName).slice(0, 20),
        email,
        affCode: affCode || undefined,
        social: { [rules.column]: identity.id },
      });
    } catch (error) {
      // Two first sign-ins of one person at once: the other one created the account.
      const created = await findUserBySocialId(rules.column, identity.id);
      if (created) return created;
      if (!(isAppError(error) && error.messageKey === "用户名已存在，或已注销")) throw error;
    }
  }
  throw new Error("could not find a free username for a social sign-in");
}

/** Signs in (or, the first time, signs up) with a social account; returns the user. */
export async function signInWithSocial(identity: SocialIdentity, affCode = ""): Promise<UserRow> {
  assertSocialEnabled(identity.provider);
  let user = await findBoundUser(identity);
  if (user) {
    if (user.deleted_at !== null) throw invalid("用户已注销");
  } else {
    if (!optionBool("RegisterEnabled")) throw forbidden("管理员关闭了新用户注册");
    user = await createSocialUser(identity, affCode);
  }
  if (user.status !== UserStatus.enabled) throw forbidden("用户已被封禁");
  return user;
}

/** Unbinds a social account (OIDC today), unless it is the account's last way to sign in. */
export async function unbindSocial(user: UserRow, provider: "oidc"): Promise<UserRow> {
  const rules = socialProviders[provider];
  if (user[rules.column] === "") throw invalid("未绑定该账户");
  if (!(await keepsASignInMethod(user, provider))) throw invalid("这是该账户唯一的登录方式，无法解绑");
  return updateLiveUser(user.id, { [rules.column]: "" });
}

/** Binds a social account to a signed-in user; one bound anywhere else is refused. */
export async function bindSocial(user: UserRow, identity: SocialIdentity): Promise<UserRow> {
  assertSocialEnabled(identity.provider);
  const rules = socialProviders[identity.provider];
  if (await findBoundUser(identity)) throw invalid(rules.taken);
  return updateLiveUser(user.id, { [rules.column]: identity.id }, rules.taken);
}
