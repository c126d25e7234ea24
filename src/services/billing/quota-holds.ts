// The three money moves of a relay request, each atomic in the store:
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
// also when the stale-hold sweeper of another instance resolves it. Concurrent requests' moves
// share transactions (ledger-batch.ts); the statements are in ledger-moves.ts.
import { lt } from "drizzle-orm";
import { AppError } from "../../errors/app-error.ts";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { holdInBatch, releaseInBatch, settleInBatch } from "./ledger-batch.ts";
import type { HoldRequest, SettledBalances, Settlement } from "./ledger-moves.ts";

export type { HoldRequest, SettledBalances, Settlement } from "./ledger-moves.ts";

export const insufficientUserQuota = "用户额度不足";
export const insufficientTokenQuota = "令牌额度不足";

export async function holdQuota(hold: HoldRequest): Promise<void> {
  const outcome = await holdInBatch(hold);
  if (outcome === "user-short") {
    throw new AppError("insufficient_quota", insufficientUserQuota, undefined, { code: "insufficient_user_quota" });
  }
  if (outcome === "token-short") {
    throw new AppError("insufficient_quota", insufficientTokenQuota, undefined, { code: "pre_consume_token_quota_failed" });
  }
}

export function settleQuota(settlement: Settlement): Promise<SettledBalances> {
  return settleInBatch(settlement);
}

/** Gives a hold back; false when it was already settled or released. */
export function releaseHold(requestId: string): Promise<boolean> {
  return releaseInBatch(requestId);
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
