// The money moves of a relay request:
//
//   hold     reserve the estimate outside the store (reservation-book.ts): admitted only when the
//            user's balance, less every open reservation, covers it (and a limited token's too);
//            a balance below zero admits nothing;
//   settle   one store transaction: the real cost leaves the user's balance (and a limited
//            token's) and joins the used quotas of user, token and channel, with the consumption
//            log; then the reservation ends;
//   release  the reservation ends without a charge (the request failed before any answer).
//
// The store is written once per request, at settlement. A crash loses the reservations with the
// process, which took nothing from any balance: at most the charges of the requests in flight are
// lost, never a user's money. Each request's hold is taken out of `open` by whichever of settle
// and release comes first, so it ends exactly once; the consumption log's unique request id keeps
// a request from being charged twice in the store.
//
// Invariants (tested in tests/relay/concurrency.test.ts and tests/relay/crash-restart.test.ts):
//   quota + used_quota of a user moves only by top-ups and admin edits;
//   used_quota = Σ consumption logs (user, token, channel), request_count = their number;
//   concurrent spending never exceeds the balance plus the estimates in flight beyond it.
import { AppError } from "../../errors/app-error.ts";
import { registerReservations } from "../../metrics/metrics.ts";
import { readBalances } from "./balance-snapshot.ts";
import { batchesIdle, settleInBatch } from "./ledger-batch.ts";
import type { SettledBalances, Settlement } from "./ledger-moves.ts";
import { reservationBook, type Reservation } from "./reservation-book.ts";

export type { SettledBalances, Settlement } from "./ledger-moves.ts";

export const insufficientUserQuota = "用户额度不足";
export const insufficientTokenQuota = "令牌额度不足";

/**
 * A cheap estimate is reserved as it is only when the balance left covers it this many times;
 * closer to the edge, the precise (costlier) estimate is asked for, so a loose bound never
 * refuses a request a precise count would admit.
 */
export const cheapEstimateMargin = 50;

export type HoldRequest = {
  requestId: string;
  userId: number;
  /** 0 for calls billed to the user alone (playground). */
  tokenId: number;
  /** The token's own balance is limited, so it is reserved too. */
  tokenLimited: boolean;
  /** An upper bound of the cost, cheap to compute. */
  amount: number;
  /** A tighter upper bound, costlier to compute: asked for only when the balance is close. */
  refine?: () => number;
};

const open = new Map<string, Reservation>();
const inFlight = new Set<Promise<unknown>>();

function track<T>(promise: Promise<T>): Promise<T> {
  inFlight.add(promise);
  void promise.then(
    () => inFlight.delete(promise),
    () => inFlight.delete(promise),
  );
  return promise;
}

export async function holdQuota(hold: HoldRequest): Promise<void> {
  const reservation: Reservation = { requestId: hold.requestId, userId: hold.userId, tokenId: hold.tokenLimited ? hold.tokenId : 0, amount: hold.amount };
  const read = () => readBalances(reservation.userId, reservation.tokenId);
  const book = reservationBook();
  let outcome = await book.reserve(reservation, hold.refine ? cheapEstimateMargin : 1, read);
  if (outcome !== "reserved" && hold.refine) {
    reservation.amount = Math.min(hold.amount, hold.refine());
    outcome = await book.reserve(reservation, 1, read);
  }
  if (outcome === "user-short") {
    throw new AppError("insufficient_quota", insufficientUserQuota, undefined, { code: "insufficient_user_quota" });
  }
  if (outcome === "token-short") {
    throw new AppError("insufficient_quota", insufficientTokenQuota, undefined, { code: "pre_consume_token_quota_failed" });
  }
  open.set(hold.requestId, reservation);
}

/**
 * Charges the request in the store and ends its hold (if it still has one). Resolves once the
 * charge is committed; the hold ends right after, so until then it still counts.
 */
export function settleQuota(settlement: Settlement): Promise<SettledBalances> {
  const reservation = open.get(settlement.requestId);
  open.delete(settlement.requestId);
  const book = reservationBook();
  // A hold debited in the store (Redis away) is given back by the settlement itself.
  const charged = settleInBatch(reservation?.debited ? { ...settlement, debited: reservation.amount } : settlement);
  track(
    charged.then(
      (balances) => reservation && book.settled(reservation, { cost: settlement.quota, userVersion: balances.userVersion, tokenVersion: balances.tokenVersion }),
      // The charge could not be written: the hold still ends (the request is over), uncharged.
      () => reservation && book.released(reservation),
    ),
  );
  return track(charged);
}

/** Gives a hold back; false when it was already settled or released. */
export async function releaseHold(requestId: string): Promise<boolean> {
  const reservation = open.get(requestId);
  if (!reservation) return false;
  open.delete(requestId);
  await track(reservationBook().released(reservation));
  return true;
}

/** The quota this instance holds reserved and not yet settled or released. */
export function openHoldsQuota(): number {
  let sum = 0;
  for (const reservation of open.values()) sum += reservation.amount;
  return sum;
}
registerReservations(openHolds, openHoldsQuota);

/** Holds of this instance not yet settled or released. */
export function openHolds(): number {
  return open.size;
}

/**
 * Resolves when every settlement handed to the ledger is committed and every ended hold is gone
 * from the book: what a graceful shutdown awaits after the last request finished.
 */
export async function drainLedger(): Promise<void> {
  while (inFlight.size > 0) {
    await Promise.allSettled([...inFlight]);
    await batchesIdle();
  }
  await batchesIdle();
}
