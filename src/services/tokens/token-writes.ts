// Creating, changing and deleting a user's tokens. Keys are 48 alphanumerics from the crypto
// RNG, stored without the sk- prefix clients write in front. After each committed write the
// relay's token cache hears announceChange("tokens", key).
import { and, eq, inArray, isNull } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid, notFound } from "../../errors/app-error.ts";
import { t, transact } from "../../store/client.ts";
import { isUniqueViolation } from "../../store/dialect.ts";
import { run } from "../../store/transact.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { rowChanges } from "../audit/audit-changes.ts";
import { auditEntry } from "../audit/record-audit.ts";
import { announceChange } from "../change-notices.ts";
import { isSelectableGroup } from "../groups/user-groups.ts";
import { randomAlphanumeric } from "../users/random-codes.ts";
import type { UserRow } from "../users/user-view.ts";
import { batchCountOf, parseTokenBody, tokenChanges, tokenForCreate, tokenMessages, type TokenFields } from "./token-input.ts";
import {
  findToken,
  isExhausted,
  isExpired,
  TokenStatus,
  tokenNotFound,
  toTokenView,
  type TokenRow,
  type TokenView,
} from "./token-queries.ts";

const tokenKeyLength = 48;

function generateTokenKey(): string {
  return randomAlphanumeric(tokenKeyLength);
}

function checkGroup(user: UserRow, fields: TokenFields): void {
  if (!isSelectableGroup(user.group, fields.group)) throw invalid("分组 {{group}} 不可用", { group: fields.group });
}

/**
 * POST /api/token/: `count` tokens (default 1); names after the first get a random
 * 6-character suffix, as new-api names them. All are created or none.
 */
/** The token's bookkeeping, left out of its audit entries (the key is a secret by name). */
const tokenAuditRules = { ignore: ["created_time", "accessed_time", "used_quota"] };

export async function createTokens(user: UserRow, body: unknown, actor: AuditActor): Promise<TokenView[]> {
  const raw = parseTokenBody(body);
  const fields = tokenForCreate(raw, user.role);
  const count = batchCountOf(raw);
  checkGroup(user, fields);
  const createdTime = nowSeconds();
  for (let attempt = 0; ; attempt++) {
    const values = Array.from({ length: count }, (_, index) => ({
      ...fields,
      name: index === 0 ? fields.name : `${fields.name}-${randomAlphanumeric(6)}`,
      user_id: user.id,
      key: generateTokenKey(),
      status: TokenStatus.enabled,
      created_time: createdTime,
      accessed_time: createdTime,
    }));
    try {
      const rows = await transact(function* (tx) {
        const inserted = yield* run(tx.insert(t.tokens).values(values).returning());
        yield* auditEntry(tx, actor, {
          action: "token.create",
          targetType: "token",
          targetId: inserted.map((row) => row.id),
          changes: rowChanges(undefined, { ...values[0], count }, tokenAuditRules),
        });
        return inserted;
      });
      await Promise.all(rows.map((row) => announceChange("tokens", row.key)));
      return rows.map(toTokenView);
    } catch (error) {
      // 62^48 keys make a collision practically impossible; retry rather than fail if it happens.
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

async function saveToken(current: TokenRow, changes: Partial<TokenRow>, actor: AuditActor, action: string): Promise<TokenView> {
  const [row] = await transact(function* (tx) {
    const saved = yield* run(
      tx
        .update(t.tokens)
        .set(changes)
        .where(and(eq(t.tokens.id, current.id), isNull(t.tokens.deleted_at)))
        .returning(),
    );
    if (saved[0]) {
      yield* auditEntry(tx, actor, {
        action,
        targetType: "token",
        targetId: current.id,
        changes: [{ field: "user_id", before: current.user_id }, ...rowChanges(current, saved[0], tokenAuditRules)],
      });
    }
    return saved;
  });
  if (!row) throw notFound(tokenNotFound);
  await announceChange("tokens", row.key);
  return toTokenView(row);
}

/**
 * PUT /api/token/: with statusOnly, switches between enabled and disabled, refusing to enable
 * a token that is expired or out of quota; otherwise replaces the editable fields (status kept).
 */
export async function updateToken(user: UserRow, body: unknown, statusOnly: boolean, actor: AuditActor): Promise<TokenView> {
  const raw = parseTokenBody(body);
  const current = await findToken(user.id, raw.id ?? Number.NaN);
  if (statusOnly) {
    const status = raw.status;
    if (status !== TokenStatus.enabled && status !== TokenStatus.disabled) throw invalid(tokenMessages.status);
    if (status === TokenStatus.enabled) {
      if (isExpired(current)) throw invalid("令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期");
      if (isExhausted(current)) throw invalid("令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度");
    }
    return saveToken(current, { status }, actor, "token.status");
  }
  const fields = tokenChanges(raw, current, user.role);
  if (fields.group !== current.group) checkGroup(user, fields);
  // Another kind of period starts over: what the old one counted says nothing about the new.
  if (fields.quota_period !== current.quota_period) {
    return saveToken(current, { ...fields, period_used_quota: 0, period_start: 0 }, actor, "token.update");
  }
  return saveToken(current, fields, actor, "token.update");
}

/** DELETE /api/token/{id}/: a soft delete, so logs keep pointing at a known token. */
export async function deleteToken(user: UserRow, id: number, actor: AuditActor): Promise<void> {
  const current = await findToken(user.id, id);
  await saveToken(current, { deleted_at: nowSeconds() }, actor, "token.delete");
}

/**
 * POST /api/token/batch {ids}: deletes the caller's own tokens among the ids (soft, like one
 * delete, in one statement); gives how many went. Another user's ids change nothing.
 */
export async function deleteTokens(user: UserRow, ids: unknown, actor: AuditActor): Promise<number> {
  const list = Array.isArray(ids) ? [...new Set(ids.map(Number).filter(Number.isSafeInteger))] : [];
  if (list.length === 0) throw invalid("请至少选择一个令牌！");
  const deleted = await transact(function* (tx) {
    const rows = yield* run(
      tx
        .update(t.tokens)
        .set({ deleted_at: nowSeconds() })
        .where(and(inArray(t.tokens.id, list), eq(t.tokens.user_id, user.id), isNull(t.tokens.deleted_at)))
        .returning({ id: t.tokens.id, key: t.tokens.key, name: t.tokens.name }),
    );
    if (rows.length > 0) {
      yield* auditEntry(tx, actor, {
        action: "token.batch_delete",
        targetType: "token",
        targetId: rows.map((row) => row.id),
        changes: [
          { field: "user_id", before: user.id },
          { field: "count", before: rows.length },
          { field: "names", before: rows.map((row) => row.name).join(", ") },
        ],
      });
    }
    return rows;
  });
  for (const row of deleted) await announceChange("tokens", row.key);
  return deleted.length;
}
