// The money moves of a relay request:
//
//   hold     reserve the estimate outside the store (reservation-book.ts): admitted only when the
//            user's balance, less every open reservation, covers it (and a limited token's too);
//            a balance below zero admits nothing;
//   settle   one store transaction: the real cost leaves the user's balance (and a limited
//            token's) and joins the used quotas of user, token and channel, with the consumption
//            log; then the reservation ends. A balance never goes below zero, nor a token's
//            period past its budget: a cost larger than what is left is charged what is left,
//            the rest recorded as uncollected on the log and the channel (ledger-moves.ts);
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
//   a settlement never takes a user's or a limited token's balance below zero.
import { nowSeconds } from "../../clock.ts";
import { AppError } from "../../errors/app-error.ts";
import { readBalances } from "./balance-snapshot.ts";
import { batchesIdle, settleInBatch } from "./ledger-batch.ts";
import type { SettledBalances, Settlement } from "./settlement.ts";
import { reservationBook } from "./reservation-book.ts";
import type { Reservation } from "./reservation-types.ts";

export type { SettledBalances, Settlement } from "./settlement.ts";

const insufficientUserQuota = "用户额度不足";
const insufficientTokenQuota = "令牌额度不足";
const tokenPeriodQuotaExhausted = "令牌本周期额度已用尽，{{seconds}} 秒后重置";

/**
 * A cheap estimate is reserved as it is only when the balance left covers it this many times;
 * closer to the edge, the precise (costlier) estimate is asked for, so a loose bound never
 * refuses a request a precise count would admit.
 */
const cheapEstimateMargin = 50;

export type HoldRequest = {
  requestId: string;
  userId: number;
  /** 0 for calls billed to the user alone (playground). */
  tokenId: number;
  /** The token's own balance is limited, so it is reserved too. */
  tokenLimited: boolean;
  /** The token has a period budget, so it is reserved too (against what the period has left). */
  tokenPeriodic?: boolean;
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
  const reservation: Reservation = {
    requestId: hold.requestId,
    userId: hold.userId,
    tokenId: hold.tokenLimited || hold.tokenPeriodic ? hold.tokenId : 0,
    tokenLimited: hold.tokenLimited,
    amount: hold.amount,
  };
  // The last snapshot read says whether the period budget was what refused the token.
  let periodEnd: number | undefined;
  const read = () => {
    const snapshots = readBalances(reservation.userId, reservation.tokenId);
    if (!hold.tokenPeriodic) return snapshots;
    if (snapshots instanceof Promise)
      return snapshots.then((read) => {
        periodEnd = read.token?.periodEnd;
        return read;
      });
    periodEnd = snapshots.token?.periodEnd;
    return snapshots;
  };
  const book = reservationBook();
  let outcome = await book.reserve(reservation, hold.refine ? cheapEstimateMargin : 1, read);
  if (outcome !== "reserved" && hold.refine) {
    reservation.amount = Math.min(hold.amount, hold.refine());
    outcome = await book.reserve(reservation, 1, read);
  }
  if (outcome === "user-short") {
    throw new AppError("insufficient_quota", insufficientUserQuota, undefined, { code: "insufficient_user_quota" });
  }
  if (outcome === "token-short" && periodEnd) {
    const seconds = Math.max(1, periodEnd - nowSeconds());
    throw new AppError("rate_limited", tokenPeriodQuotaExhausted, { seconds }, { code: "token_period_quota_exhausted" });
  }
  if (outcome === "token-short") {
    throw new AppError("insufficient_quota", insufficientTokenQuota, undefined, { code: "pre_consume_token_quota_failed" });
  }
  open.set(hold.requestId, reservation);
}

/**
 * Refuses, with the hold's own message, a user whose balance is used up (new-api refuses a call
 * at a balance of 0 or less whatever its price): asked before reading a body that only a call
 * someone pays for needs, so an empty account cannot make the gateway read and parse it. The
 * hold that follows is the exact check.
 */
export async function refuseEmptyBalance(userId: number): Promise<void> {
  const { user } = await readBalances(userId, 0);
  if (user.balance <= 0) throw new AppError("insufficient_quota", insufficientUserQuota, undefined, { code: "insufficient_user_quota" });
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
      (balances) =>
        reservation &&
        book.settled(reservation, { cost: balances.charged, userVersion: balances.userVersion, tokenVersion: balances.tokenVersion }),
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
