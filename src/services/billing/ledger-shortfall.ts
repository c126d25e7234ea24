// When a settlement batch holds more than an account can pay (ledger-moves.ts): an upstream
// reported more tokens than the request's hold covered (max_tokens: 1 and 50 tokens back), a
// request without max_tokens ran long, or the balance was lowered meanwhile. The balance stops at
// zero: each short account's balance is read under its row lock, what it can still give (its
// balance plus what its holds debited in the store) goes to the batch's settlements in order,
// each taking what it cost or what is left, and the rest of each cost is left uncollected. A
// token's period budget is such an account too: what the period has left.
//
// A settlement takes the smaller of what its user, its limited token and its token's period can
// give, so user, token, period and channel are charged the same amount and used quota = Σ logs
// holds for all of them. An account that paid in full (its own update went through) but shares
// a settlement with a short one gets the difference back in the same transaction.
import type { Db } from "../../store/client.ts";
import { run, type Query } from "../../store/transact.ts";
import { hasPeriodBudget } from "../tokens/quota-period.ts";
import type { Settlement } from "./settlement.ts";
import {
  chargeLimitedToken,
  chargeTokenPeriod,
  chargeUser,
  lockTokenBalance,
  lockTokenPeriod,
  lockUserBalance,
} from "./ledger-statements.ts";

/** One account's part of a batch: costs, requests, store debits, and its balance once charged. */
export type AccountSums = { quota: number; count: number; debited: number; after?: { balance: number; version: number } };

/** A token's part of a batch in its period budget (a batch across a boundary counts in the later period). */
export type PeriodSums = { quota: number; periodStart: number };

export type Shortfall = {
  users: Map<number, AccountSums>;
  /** Limited tokens only: an unlimited token has no balance to run out of. */
  tokens: Map<number, AccountSums>;
  /** Tokens with a period budget. */
  periods: Map<number, PeriodSums>;
  /** The accounts whose full charge would have gone below zero (nothing was written for them). */
  shortUsers: Set<number>;
  shortTokens: Set<number>;
  /** The tokens whose full charge would have passed their period budget. */
  shortPeriods: Set<number>;
  now: number;
};

/** Which account a settlement's uncollected part ran into (the log's `other.uncollected_reason`). */
export type UncollectedReason = "user_quota" | "token_quota" | "period_quota";

const reasonOf: Record<string, UncollectedReason> = { u: "user_quota", t: "token_quota", p: "period_quota" };

/** What each settlement is charged, in order, and why it was less than its cost. */
export type Collected = { charged: number[]; reasons: (UncollectedReason | undefined)[] };

/** What a period budget has left for a charge in the period starting at `periodStart`; undefined when no budget. */
function periodLeft(
  row: { quota_period: string; period_quota: number; period_used_quota: number; period_start: number } | undefined,
  periodStart: number,
): number | undefined {
  if (!row || !hasPeriodBudget(row)) return undefined;
  const used = Number(row.period_start) === periodStart ? Number(row.period_used_quota) : 0;
  return Math.max(0, Number(row.period_quota) - used);
}

/** What each settlement is charged, in order; the accounts are charged (or given back) accordingly. */
export function* collectShortfall(tx: Db, settlements: readonly Settlement[], batch: Shortfall): Generator<Query, Collected, unknown> {
  const left = new Map<string, number>();
  for (const userId of batch.shortUsers) {
    const [row] = yield* run(lockUserBalance(tx, { userId }));
    left.set(`u${userId}`, Math.max(0, Number(row?.balance ?? 0) + batch.users.get(userId)!.debited));
  }
  for (const tokenId of batch.shortTokens) {
    const [row] = yield* run(lockTokenBalance(tx, { tokenId }));
    left.set(`t${tokenId}`, Math.max(0, Number(row?.balance ?? 0) + batch.tokens.get(tokenId)!.debited));
  }
  for (const tokenId of batch.shortPeriods) {
    const [row] = yield* run(lockTokenPeriod(tx, { tokenId }));
    const remaining = periodLeft(row, batch.periods.get(tokenId)!.periodStart);
    if (remaining !== undefined) left.set(`p${tokenId}`, remaining);
  }
  const reasons: (UncollectedReason | undefined)[] = [];
  const charged = settlements.map((settlement) => {
    const limits = [`u${settlement.userId}`];
    if (settlement.tokenId && settlement.tokenLimited) limits.push(`t${settlement.tokenId}`);
    if (settlement.tokenId && settlement.tokenPeriodStart) limits.push(`p${settlement.tokenId}`);
    let amount = Math.max(0, settlement.quota);
    let reason: UncollectedReason | undefined;
    for (const key of limits) {
      const remaining = left.get(key);
      if (remaining !== undefined && remaining < amount) {
        amount = remaining;
        reason = reasonOf[key[0]!];
      }
    }
    for (const key of limits) if (left.has(key)) left.set(key, left.get(key)! - amount);
    reasons.push(reason);
    return amount;
  });

  const chargedOf = (matches: (settlement: Settlement) => boolean) =>
    settlements.reduce((sum, settlement, index) => sum + (matches(settlement) ? charged[index]! : 0), 0);
  for (const [userId, sums] of batch.users) {
    const amount = chargedOf((settlement) => settlement.userId === userId);
    let row: { quota: number; used: number } | undefined;
    if (batch.shortUsers.has(userId)) {
      [row] = yield* run(chargeUser(tx, { delta: sums.debited - amount, quota: amount, count: sums.count, userId }));
    } else if (amount < sums.quota) {
      // Charged in full already: what its short token could not pay comes back.
      [row] = yield* run(chargeUser(tx, { delta: sums.quota - amount, quota: amount - sums.quota, count: 0, userId }));
    }
    if (row) sums.after = { balance: Number(row.quota), version: Number(row.used) };
  }
  for (const [tokenId, sums] of batch.tokens) {
    const amount = chargedOf((settlement) => settlement.tokenLimited && settlement.tokenId === tokenId);
    const values = { now: batch.now, tokenId };
    let row: { remain: number; used: number } | undefined;
    if (batch.shortTokens.has(tokenId)) {
      [row] = yield* run(chargeLimitedToken(tx, { ...values, delta: sums.debited - amount, quota: amount }));
    } else if (amount < sums.quota) {
      [row] = yield* run(chargeLimitedToken(tx, { ...values, delta: sums.quota - amount, quota: amount - sums.quota }));
    }
    if (row) sums.after = { balance: Number(row.remain), version: Number(row.used) };
  }
  for (const [tokenId, sums] of batch.periods) {
    const amount = chargedOf((settlement) => !!settlement.tokenPeriodStart && settlement.tokenId === tokenId);
    const values = { periodStart: sums.periodStart, tokenId };
    if (batch.shortPeriods.has(tokenId)) yield* run(chargeTokenPeriod(tx, { ...values, quota: amount }));
    // Charged in full already, in this period (the full charge set it): the difference comes back.
    else if (amount < sums.quota) yield* run(chargeTokenPeriod(tx, { ...values, quota: amount - sums.quota }));
  }
  return { charged, reasons };
}
