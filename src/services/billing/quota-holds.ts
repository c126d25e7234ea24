// The three money moves of a relay request, each one transaction in the store:
//
//   hold     reserve the estimate: a conditional debit of the user (and of a limited token) that
//            fails instead of overdrawing, plus a quota_holds row naming the request;
//   settle   replace the hold by the real cost: user quota, used quota and request count, token
//            remaining and used quota, channel used quota and the consumption log together;
//   release  give the hold back (the request failed before anything was delivered).
//
// Invariant (reliability plan L1): quota + used_quota + Σ open holds of a user moves only by
// top-ups and admin edits. Settle and release both start by deleting the hold row, so whichever
// comes first wins and the other finds nothing: a request is settled or refunded exactly once,
// also when the stale-hold sweeper of another instance resolves it.
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { AppError } from "../../errors/app-error.ts";
import { nowSeconds } from "../../clock.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { ConsumeLogValues } from "./consume-log.ts";

export type HoldRequest = {
  requestId: string;
  userId: number;
  /** 0 for calls billed to the user alone (playground). */
  tokenId: number;
  /** The token's own balance is limited, so it is debited too. */
  tokenLimited: boolean;
  amount: number;
};

export const insufficientUserQuota = "用户额度不足";
export const insufficientTokenQuota = "令牌额度不足";

export async function holdQuota(hold: HoldRequest): Promise<void> {
  await transact(function* (tx) {
    const users = yield* run(
      tx
        .update(t.users)
        .set({ quota: sql`${t.users.quota} - ${hold.amount}` })
        .where(and(eq(t.users.id, hold.userId), gte(t.users.quota, hold.amount)))
        .returning({ quota: t.users.quota }),
    );
    if (users.length === 0) {
      throw new AppError("insufficient_quota", insufficientUserQuota, undefined, { code: "insufficient_user_quota" });
    }
    if (hold.tokenLimited) {
      const tokens = yield* run(
        tx
          .update(t.tokens)
          .set({ remain_quota: sql`${t.tokens.remain_quota} - ${hold.amount}` })
          .where(and(eq(t.tokens.id, hold.tokenId), gte(t.tokens.remain_quota, hold.amount)))
          .returning({ remain: t.tokens.remain_quota }),
      );
      if (tokens.length === 0) {
        throw new AppError("insufficient_quota", insufficientTokenQuota, undefined, { code: "pre_consume_token_quota_failed" });
      }
    }
    yield* run(
      tx.insert(t.quota_holds).values({
        request_id: hold.requestId,
        user_id: hold.userId,
        token_id: hold.tokenId,
        amount: hold.amount,
        token_debited: hold.tokenLimited,
        created_at: nowSeconds(),
      }),
    );
  });
}

export type Settlement = {
  requestId: string;
  userId: number;
  tokenId: number;
  tokenLimited: boolean;
  channelId: number;
  quota: number;
  /** The consumption log to write with it, or null when logging is off. */
  log: ConsumeLogValues | null;
};

export type SettledBalances = { userQuota: number; tokenRemain: number | undefined };

export async function settleQuota(settlement: Settlement): Promise<SettledBalances> {
  const { quota } = settlement;
  return transact(function* (tx) {
    const [hold] = yield* run(
      tx.delete(t.quota_holds).where(eq(t.quota_holds.request_id, settlement.requestId)).returning(),
    );
    const held = hold?.amount ?? 0;
    const tokenHeld = hold?.token_debited ? held : 0;
    const [user] = yield* run(
      tx
        .update(t.users)
        .set({
          quota: sql`${t.users.quota} + ${held - quota}`,
          used_quota: sql`${t.users.used_quota} + ${quota}`,
          request_count: sql`${t.users.request_count} + 1`,
        })
        .where(eq(t.users.id, settlement.userId))
        .returning({ quota: t.users.quota }),
    );
    let tokenRemain: number | undefined;
    if (settlement.tokenId) {
      const [token] = yield* run(
        tx
          .update(t.tokens)
          .set({
            used_quota: sql`${t.tokens.used_quota} + ${quota}`,
            ...(settlement.tokenLimited ? { remain_quota: sql`${t.tokens.remain_quota} + ${tokenHeld - quota}` } : {}),
          })
          .where(eq(t.tokens.id, settlement.tokenId))
          .returning({ remain: t.tokens.remain_quota }),
      );
      tokenRemain = token?.remain;
    }
    if (settlement.channelId && quota !== 0) {
      yield* run(
        tx
          .update(t.channels)
          .set({ used_quota: sql`${t.channels.used_quota} + ${quota}` })
          .where(eq(t.channels.id, settlement.channelId)),
      );
    }
    if (settlement.log) yield* run(tx.insert(t.logs).values(settlement.log));
    return { userQuota: user?.quota ?? 0, tokenRemain };
  });
}

/** Gives a hold back; false when it was already settled or released. */
export async function releaseHold(requestId: string): Promise<boolean> {
  return transact(function* (tx) {
    const [hold] = yield* run(tx.delete(t.quota_holds).where(eq(t.quota_holds.request_id, requestId)).returning());
    if (!hold) return false;
    if (hold.amount !== 0) {
      yield* run(
        tx.update(t.users).set({ quota: sql`${t.users.quota} + ${hold.amount}` }).where(eq(t.users.id, hold.user_id)),
      );
      if (hold.token_debited) {
        yield* run(
          tx
            .update(t.tokens)
            .set({ remain_quota: sql`${t.tokens.remain_quota} + ${hold.amount}` })
            .where(eq(t.tokens.id, hold.token_id)),
        );
      }
    }
    return true;
  });
}

/**
 * Releases holds older than `ageSeconds`: requests whose process died between hold and
 * settlement. A request still running past that age is settled later without its hold, which
 * charges exactly its cost (settle finds no hold to credit back).
 */
export async function releaseStaleHolds(ageSeconds: number): Promise<number> {
  const stale = await db
    .select({ request_id: t.quota_holds.request_id })
    .from(t.quota_holds)
    .where(lt(t.quota_holds.created_at, nowSeconds() - ageSeconds))
    .limit(1000);
  let released = 0;
  for (const hold of stale) if (await releaseHold(hold.request_id)) released++;
  return released;
}
