// Reading a user's tokens (/token and /api/token). A token belongs to one user and is
// only ever read through its owner; other users' tokens look like missing ones.
import { and, desc, eq, isNull, type SQL } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { notFound } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";
import { periodEndOf, periodUsed } from "./quota-period.ts";
import { containsText, countRows } from "../../store/dialect.ts";
import type { Tables } from "../../store/schema/define-schema.ts";

export type TokenRow = Tables["tokens"]["$inferSelect"];
/** With what the current period used and when it ends (unix seconds; 0 without a period). */
export type TokenView = Omit<TokenRow, "deleted_at"> & { period_reset_at: number };

export const TokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export const tokenNotFound = "令牌不存在";

export function isExpired(token: Pick<TokenRow, "expired_time">, now = nowSeconds()): boolean {
  return token.expired_time !== -1 && token.expired_time <= now;
}

export function isExhausted(token: Pick<TokenRow, "unlimited_quota" | "remain_quota">): boolean {
  return !token.unlimited_quota && token.remain_quota <= 0;
}

/**
 * The token as its owner sees it. An enabled token past its expiry or out of quota shows as
 * expired or exhausted, whether or not the relay has written that status yet.
 */
export function toTokenView(row: TokenRow): TokenView {
  const { deleted_at: _deleted, ...columns } = row;
  const view: TokenView = { ...columns, period_used_quota: periodUsed(row), period_reset_at: periodEndOf(row.quota_period) };
  if (view.status === TokenStatus.enabled && isExpired(row)) view.status = TokenStatus.expired;
  else if (view.status === TokenStatus.enabled && isExhausted(row)) view.status = TokenStatus.exhausted;
  return view;
}

const ownedBy = (userId: number) => and(eq(t.tokens.user_id, userId), isNull(t.tokens.deleted_at));

export async function findToken(userId: number, id: number): Promise<TokenRow> {
  const [row] = Number.isInteger(id)
    ? await db
        .select()
        .from(t.tokens)
        .where(and(ownedBy(userId), eq(t.tokens.id, id)))
        .limit(1)
    : [];
  if (!row) throw notFound(tokenNotFound);
  return row;
}

export type TokenFilter = { keyword?: string; token?: string };

function filterCondition(userId: number, filter: TokenFilter): SQL | undefined {
  const keyword = filter.keyword?.trim();
  const key = filter.token?.trim().replace(/^sk-/, "");
  return and(
    ownedBy(userId),
    keyword ? containsText(t.tokens.name, keyword) : undefined,
    key ? containsText(t.tokens.key, key) : undefined,
  );
}

/** A page of the user's tokens, newest first, with the total. */
export async function queryTokens(
  userId: number,
  filter: TokenFilter,
  paging: { page: number; pageSize: number },
): Promise<{ items: TokenRow[]; total: number }> {
  const where = filterCondition(userId, filter);
  const [items, [counted]] = await Promise.all([
    db
      .select()
      .from(t.tokens)
      .where(where)
      .orderBy(desc(t.tokens.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    db.select({ count: countRows() }).from(t.tokens).where(where),
  ]);
  return { items, total: counted?.count ?? 0 };
}

/** The user's first enabled, usable token (oldest first), for chat links. */
export async function firstUsableToken(userId: number): Promise<TokenRow | undefined> {
  const rows = await db
    .select()
    .from(t.tokens)
    .where(and(ownedBy(userId), eq(t.tokens.status, TokenStatus.enabled)))
    .orderBy(t.tokens.id)
    .limit(100);
  const now = nowSeconds();
  return rows.find((row) => !isExpired(row, now) && !isExhausted(row));
}
