// Token authentication of /v1 calls, in new-api's order and with its messages: the
// key, the token's status, expiry and balance (401), the owner (403 when banned), channel
// pinning (admins only), the client address allow-list, and the token's group. Everything is
// read from the in-memory caches; the store is written only to mark a token expired or
// exhausted the first time that is noticed.
import { and, eq, lte } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { AppError } from "../../errors/app-error.ts";
import { announceChange } from "../../services/change-notices.ts";
import { groupExists } from "../../services/billing/model-prices.ts";
import { usableGroupsOf } from "../../services/groups/user-groups.ts";
import { TokenStatus } from "../../services/tokens/token-queries.ts";
import { isAdmin } from "../../services/users/roles.ts";
import { db, t } from "../../store/client.ts";
import { findToken, peekToken, type TokenSnapshot } from "../caches/token-cache.ts";
import { findUser, peekUser } from "../caches/user-cache.ts";
import type { RelayCaller } from "../relay-context.ts";
import { readApiKey } from "./api-key.ts";
import { refusalOf } from "./refused-caller.ts";

const tokenError = (key: string, params?: Record<string, string | number>) => new AppError("unauthorized", key, params);

/** Records what the clock or the balance already decided, so the console shows it too. */
function markToken(token: TokenSnapshot, status: 3 | 4): void {
  const condition =
    status === TokenStatus.expired
      ? and(eq(t.tokens.id, token.id), eq(t.tokens.status, TokenStatus.enabled), lte(t.tokens.expired_time, nowSeconds()))
      : and(
          eq(t.tokens.id, token.id),
          eq(t.tokens.status, TokenStatus.enabled),
          eq(t.tokens.unlimited_quota, false),
          lte(t.tokens.remain_quota, 0),
        );
  void db
    .update(t.tokens)
    .set({ status })
    .where(condition)
    .returning({ id: t.tokens.id })
    .then((rows) => (rows.length ? announceChange("tokens", token.key) : undefined))
    .catch(() => undefined);
}

function checkTokenState(token: TokenSnapshot): void {
  if (token.status === TokenStatus.exhausted) throw tokenError("该令牌额度已用尽");
  if (token.status === TokenStatus.expired) throw tokenError("该令牌已过期");
  if (token.status !== TokenStatus.enabled) throw tokenError("该令牌状态不可用");
  if (token.expiredTime !== -1 && token.expiredTime < nowSeconds()) {
    markToken(token, TokenStatus.expired);
    throw tokenError("该令牌已过期");
  }
  if (!token.unlimited && token.remainQuota <= 0) {
    markToken(token, TokenStatus.exhausted);
    throw tokenError("该令牌额度已用尽");
  }
}

/** The group a call runs in: the token's (one its owner may use and that still has a ratio), else the owner's. */
export function resolveGroup(userGroup: string, requested: string): string {
  if (!requested) return userGroup;
  if (!Object.hasOwn(usableGroupsOf(userGroup), requested))
    throw new AppError("forbidden", "令牌分组 {{group}} 已被禁用", { group: requested });
  if (!groupExists(requested)) throw new AppError("forbidden", "分组 {{group}} 已被弃用", { group: requested });
  return requested;
}

/**
 * `clientAddress` is asked only when the token has an allow-list (reading it costs a lookup);
 * `keyText` is the key a native format carries outside the Authorization header.
 */
export async function authenticateToken(headers: Headers, clientAddress: () => string, keyText?: string): Promise<RelayCaller> {
  const apiKey = readApiKey(headers, keyText);
  if (!apiKey.key) throw tokenError("未提供令牌");
  const cachedToken = peekToken(apiKey.key);
  const token = cachedToken !== undefined ? cachedToken : await findToken(apiKey.key);
  if (!token) throw tokenError("无效的令牌");
  try {
    checkTokenState(token);
    const cachedUser = peekUser(token.userId);
    const user = cachedUser !== undefined ? cachedUser : await findUser(token.userId);
    if (!user || user.deleted) throw tokenError("无效的令牌");
    if (user.status !== 1) throw new AppError("forbidden", "用户已被封禁");

    let pinnedChannelId: number | undefined;
    if (apiKey.pinnedChannel !== undefined) {
      if (!isAdmin(user.role)) throw new AppError("forbidden", "普通用户不支持指定渠道");
      pinnedChannelId = Number(apiKey.pinnedChannel);
      if (!/^\d+$/.test(apiKey.pinnedChannel) || !Number.isSafeInteger(pinnedChannelId)) throw new AppError("invalid", "无效的渠道 Id");
    }
    if (token.allowIps && !token.allowIps.allows(clientAddress())) {
      throw new AppError("forbidden", "您的 IP 不在令牌允许访问的列表中");
    }
    return {
      userId: user.id,
      username: user.username,
      role: user.role,
      group: resolveGroup(user.group, token.group),
      tokenId: token.id,
      tokenKey: token.key,
      tokenName: token.name,
      tokenLimited: !token.unlimited,
      limits: token.limits,
      modelLimits: token.modelLimits,
      pinnedChannelId,
      captureUntil: Math.max(token.captureUntil, user.captureUntil),
    };
  } catch (error) {
    throw await attributed(error, token);
  }
}

/** A refusal after the key was recognised is its owner's call (for the error log); a deleted owner has none. */
async function attributed(error: unknown, token: TokenSnapshot): Promise<unknown> {
  const owner = peekUser(token.userId) ?? (await findUser(token.userId).catch(() => undefined));
  if (!owner || owner.deleted) return error;
  return refusalOf(error, {
    userId: owner.id,
    username: owner.username,
    tokenId: token.id,
    tokenName: token.name,
    group: token.group || owner.group,
  });
}
