// The settlement's transaction body (see quota-holds.ts for the rules). Several requests'
// settlements share one transaction (ledger-batch.ts): each one's consumption log, then one
// update per user, token and channel with the summed amounts (the same arithmetic as one update
// per request, in fewer statements).
import { nowSeconds } from "../../clock.ts";
import type { Db } from "../../store/client.ts";
import { run, type Query } from "../../store/transact.ts";
import type { ConsumeLogValues } from "./consume-log.ts";
import { chargeChannel, chargeLimitedToken, chargeUnlimitedToken, chargeUser, insertConsumeLog, type LogValues } from "./ledger-statements.ts";

export type Settlement = {
  requestId: string;
  userId: number;
  tokenId: number;
  tokenLimited: boolean;
  channelId: number;
  quota: number;
  /** What the hold debited from the balances in the store (Redis away, store-debit.ts), else 0. */
  debited?: number;
  /** The consumption log to write with it, or null when logging is off. */
  log: ConsumeLogValues | null;
};

/** Balances after the batch, with the versions (used quotas) the reservation book needs. */
export type SettledBalances = { userQuota: number; userVersion: number; tokenRemain: number | undefined; tokenVersion: number | undefined };

type Sums = { quota: number; count: number; delta: number; after?: { balance: number; version: number } };

const add = <K>(sums: Map<K, Sums>, key: K, quota: number, debited = 0) => {
  const sum = sums.get(key);
  if (sum) {
    sum.quota += quota;
    sum.count++;
    sum.delta += debited - quota;
  } else sums.set(key, { quota, count: 1, delta: debited - quota });
};

export function* settleBody(tx: Db, settlements: readonly Settlement[]): Generator<Query, SettledBalances[], unknown> {
  const users = new Map<number, Sums>();
  const limitedTokens = new Map<number, Sums>();
  const unlimitedTokens = new Map<number, Sums>();
  const channels = new Map<number, Sums>();
  for (const settlement of settlements) {
    const { quota } = settlement;
    add(users, settlement.userId, quota, settlement.debited);
    if (settlement.tokenId) add(settlement.tokenLimited ? limitedTokens : unlimitedTokens, settlement.tokenId, quota, settlement.debited);
    if (settlement.channelId && quota !== 0) add(channels, settlement.channelId, quota);
    if (settlement.log) yield* run(insertConsumeLog(tx, settlement.log as LogValues));
  }
  for (const [userId, sums] of users) {
    // Usually nothing was taken from the balance before (reservations live outside the store), so
    // the whole cost leaves it now; a hold debited in the store (Redis away) is given back here.
    const [row] = yield* run(chargeUser(tx, { delta: sums.delta, quota: sums.quota, count: sums.count, userId }));
    if (row) sums.after = { balance: Number(row.quota), version: Number(row.used) };
  }
  // Settling is when a token was last used, so accessed_time rides along.
  const now = nowSeconds();
  for (const [tokenId, sums] of limitedTokens) {
    const [row] = yield* run(chargeLimitedToken(tx, { delta: sums.delta, quota: sums.quota, now, tokenId }));
    if (row) sums.after = { balance: Number(row.remain), version: Number(row.used) };
  }
  for (const [tokenId, sums] of unlimitedTokens) yield* run(chargeUnlimitedToken(tx, { quota: sums.quota, now, tokenId }));
  for (const [channelId, sums] of channels) yield* run(chargeChannel(tx, { quota: sums.quota, channelId }));
  return settlements.map((settlement) => {
    const user = users.get(settlement.userId)?.after;
    const token = settlement.tokenLimited ? limitedTokens.get(settlement.tokenId)?.after : undefined;
    return { userQuota: user?.balance ?? 0, userVersion: user?.version ?? 0, tokenRemain: token?.balance, tokenVersion: token?.version };
  });
}
