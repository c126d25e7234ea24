// The settlement's transaction body (see quota-holds.ts for the rules). Several requests'
// settlements share one transaction (ledger-batch.ts): one update per user, token and channel
// with the summed amounts (the same arithmetic as one update per request, in fewer statements),
// then each one's consumption log.
//
// A settlement never takes a user's balance, or a limited token's, below zero, nor a token's
// period past its budget. Each account's update charges in full only when its balance stays at or
// above zero (the period's sum within its budget): the usual case, one statement each. When one
// cannot, ledger-shortfall.ts collects what each account still has, settlement by settlement,
// and the rest is left uncollected: the log's quota is what was charged (so used quota = Σ logs
// stays exact), `other.uncollected` says what was not and `other.uncollected_reason` which
// account ran out, and the channel's row counts it (with its completions reported over the
// request's max_tokens).
import { nowSeconds } from "../../clock.ts";
import type { Db } from "../../store/client.ts";
import { run, type Query } from "../../store/transact.ts";
import type { ConsumeLogValues } from "./consume-log.ts";
import { collectShortfall, type AccountSums, type PeriodSums, type UncollectedReason } from "./ledger-shortfall.ts";
import {
  chargeChannel,
  chargeLimitedTokenInFull,
  chargeTokenPeriodInFull,
  chargeUnlimitedToken,
  chargeUserInFull,
  flagChannel,
  insertConsumeLog,
  type LogValues,
} from "./ledger-statements.ts";
import type { SettledBalances, Settlement } from "./settlement.ts";

const add = <K>(sums: Map<K, AccountSums>, key: K, quota: number, debited = 0) => {
  const sum = sums.get(key);
  if (sum) {
    sum.quota += quota;
    sum.count++;
    sum.debited += debited;
  } else sums.set(key, { quota, count: 1, debited });
};

const total = <K>(sums: Map<K, number>, key: K, amount: number) => sums.set(key, (sums.get(key) ?? 0) + amount);

/** The log as written when part of the cost could not be collected. */
function logOf(log: ConsumeLogValues, charged: number, uncollected: number, reason: UncollectedReason | undefined): LogValues {
  if (uncollected === 0) return log as LogValues;
  const other = JSON.parse(String(log.other ?? "{}")) as Record<string, unknown>;
  return { ...log, quota: charged, other: JSON.stringify({ ...other, uncollected, uncollected_reason: reason }) } as LogValues;
}

export function* settleBody(tx: Db, settlements: readonly Settlement[]): Generator<Query, SettledBalances[], unknown> {
  const users = new Map<number, AccountSums>();
  const limitedTokens = new Map<number, AccountSums>();
  for (const settlement of settlements) {
    add(users, settlement.userId, settlement.quota, settlement.debited);
    if (settlement.tokenId && settlement.tokenLimited) add(limitedTokens, settlement.tokenId, settlement.quota, settlement.debited);
  }
  // Usually nothing was taken from the balance before (reservations live outside the store), so
  // the whole cost leaves it now; a hold debited in the store (Redis away) is given back here.
  const shortUsers = new Set<number>();
  for (const [userId, sums] of users) {
    const [row] = yield* run(chargeUserInFull(tx, { delta: sums.debited - sums.quota, quota: sums.quota, count: sums.count, userId }));
    if (row) sums.after = { balance: Number(row.quota), version: Number(row.used) };
    else shortUsers.add(userId);
  }
  // Settling is when a token was last used, so accessed_time rides along.
  const now = nowSeconds();
  const shortTokens = new Set<number>();
  for (const [tokenId, sums] of limitedTokens) {
    const [row] = yield* run(chargeLimitedTokenInFull(tx, { delta: sums.debited - sums.quota, quota: sums.quota, now, tokenId }));
    if (row) sums.after = { balance: Number(row.remain), version: Number(row.used) };
    else shortTokens.add(tokenId);
  }
  const periods = periodSumsOf(settlements);
  const shortPeriods = new Set<number>();
  for (const [tokenId, sum] of periods ?? []) {
    const [row] = yield* run(chargeTokenPeriodInFull(tx, { ...sum, tokenId }));
    if (!row) shortPeriods.add(tokenId);
  }
  const { charged, reasons } =
    shortUsers.size + shortTokens.size + shortPeriods.size === 0
      ? { charged: settlements.map((settlement) => settlement.quota), reasons: [] }
      : yield* collectShortfall(tx, settlements, {
          users,
          tokens: limitedTokens,
          periods: periods ?? new Map(),
          shortUsers,
          shortTokens,
          shortPeriods,
          now,
        });

  const unlimitedTokens = new Map<number, number>();
  const channels = new Map<number, number>();
  const uncollectedOf = new Map<number, number>();
  const overLimitOf = new Map<number, number>();
  for (const [index, settlement] of settlements.entries()) {
    const amount = charged[index]!;
    const uncollected = settlement.quota - amount;
    if (settlement.tokenId && !settlement.tokenLimited) total(unlimitedTokens, settlement.tokenId, amount);
    if (settlement.channelId && amount !== 0) total(channels, settlement.channelId, amount);
    if (settlement.channelId && uncollected > 0) total(uncollectedOf, settlement.channelId, uncollected);
    if (settlement.channelId && settlement.overLimit) total(overLimitOf, settlement.channelId, 1);
    if (settlement.log) yield* run(insertConsumeLog(tx, logOf(settlement.log, amount, uncollected, reasons[index])));
  }
  // The version of an unlimited token's period budget is its used quota after the batch.
  const unlimitedVersions = new Map<number, number>();
  for (const [tokenId, quota] of unlimitedTokens) {
    const [row] = yield* run(chargeUnlimitedToken(tx, { quota, now, tokenId }));
    if (row) unlimitedVersions.set(tokenId, Number(row.used));
  }
  for (const [channelId, quota] of channels) yield* run(chargeChannel(tx, { quota, channelId }));
  for (const channelId of new Set([...uncollectedOf.keys(), ...overLimitOf.keys()])) {
    const values = { uncollected: uncollectedOf.get(channelId) ?? 0, overLimit: overLimitOf.get(channelId) ?? 0, now, channelId };
    yield* run(flagChannel(tx, values));
  }
  return settlements.map((settlement, index) => {
    const user = users.get(settlement.userId)?.after;
    const token = settlement.tokenLimited ? limitedTokens.get(settlement.tokenId)?.after : undefined;
    return {
      userQuota: user?.balance ?? 0,
      userVersion: user?.version ?? 0,
      tokenRemain: token?.balance,
      tokenVersion: token?.version ?? (settlement.tokenPeriodStart ? unlimitedVersions.get(settlement.tokenId) : undefined),
      charged: charged[index]!,
      uncollected: settlement.quota - charged[index]!,
    };
  });
}

/** The period sums of the batch's tokens with a period budget; undefined when it has none. */
function periodSumsOf(settlements: readonly Settlement[]): Map<number, PeriodSums> | undefined {
  let periods: Map<number, PeriodSums> | undefined;
  for (const settlement of settlements) {
    if (!settlement.tokenId || !settlement.tokenPeriodStart) continue;
    periods ??= new Map();
    const sum = periods.get(settlement.tokenId);
    // A batch that straddles a boundary counts in the later period.
    if (sum) {
      sum.quota += settlement.quota;
      sum.periodStart = Math.max(sum.periodStart, settlement.tokenPeriodStart);
    } else periods.set(settlement.tokenId, { quota: settlement.quota, periodStart: settlement.tokenPeriodStart });
  }
  return periods;
}
