// The transaction bodies of the money moves (see quota-holds.ts for the rules). They return
// business outcomes instead of throwing, so several requests' moves can share one transaction
// (ledger-batch.ts) without one refusal undoing the others.
import { nowSeconds } from "../../clock.ts";
import type { Db } from "../../store/client.ts";
import { run, type Query } from "../../store/transact.ts";
import type { ConsumeLogValues } from "./consume-log.ts";
import {
  chargeChannel,
  chargeLimitedToken,
  chargeUnlimitedToken,
  chargeUser,
  creditToken,
  creditUser,
  debitToken,
  debitUser,
  insertConsumeLog,
  insertHold,
  takeHold,
  type LogValues,
} from "./ledger-statements.ts";

export type HoldRequest = {
  requestId: string;
  userId: number;
  /** 0 for calls billed to the user alone (playground). */
  tokenId: number;
  /** The token's own balance is limited, so it is debited too. */
  tokenLimited: boolean;
  amount: number;
};

export type HoldOutcome = "held" | "user-short" | "token-short";

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

type Moves = Generator<Query, void, unknown>;

export function* holdBody(tx: Db, hold: HoldRequest): Generator<Query, HoldOutcome, unknown> {
  const amount = hold.amount;
  const users = yield* run(debitUser(tx, { amount, userId: hold.userId }));
  if (users.length === 0) return "user-short";
  if (hold.tokenLimited) {
    const tokens = yield* run(debitToken(tx, { amount, tokenId: hold.tokenId }));
    if (tokens.length === 0) {
      yield* run(creditUser(tx, { amount, userId: hold.userId }));
      return "token-short";
    }
  }
  yield* run(
    insertHold(tx, { requestId: hold.requestId, userId: hold.userId, tokenId: hold.tokenId, amount, tokenDebited: hold.tokenLimited, createdAt: nowSeconds() }),
  );
  return "held";
}

export function* releaseBody(tx: Db, requestId: string): Generator<Query, boolean, unknown> {
  const [hold] = yield* run(takeHold(tx, { requestId }));
  if (!hold) return false;
  if (hold.amount !== 0) {
    yield* run(creditUser(tx, { amount: hold.amount, userId: hold.user_id }));
    if (hold.token_debited) yield* run(creditToken(tx, { amount: hold.amount, tokenId: hold.token_id }));
  }
  return true;
}

type Sums = { delta: number; quota: number; after?: number };
const add = <K>(sums: Map<K, Sums>, key: K, delta: number, quota: number) => {
  const sum = sums.get(key);
  if (sum) {
    sum.delta += delta;
    sum.quota += quota;
  } else sums.set(key, { delta, quota });
};

/**
 * Settles several requests: each one's hold row and log, then one update per user, token and
 * channel with the summed amounts (the same arithmetic as one update per request, in fewer
 * statements). Every request gets the balances after the whole batch.
 */
export function* settleBody(tx: Db, settlements: readonly Settlement[]): Generator<Query, SettledBalances[], unknown> {
  const users = new Map<number, Sums & { count: number }>();
  const limitedTokens = new Map<number, Sums>();
  const unlimitedTokens = new Map<number, Sums>();
  const channels = new Map<number, Sums>();
  for (const settlement of settlements) {
    const { quota } = settlement;
    const [hold] = yield* run(takeHold(tx, { requestId: settlement.requestId }));
    const held = hold?.amount ?? 0;
    const user = users.get(settlement.userId);
    if (user) {
      user.delta += held - quota;
      user.quota += quota;
      user.count++;
    } else users.set(settlement.userId, { delta: held - quota, quota, count: 1 });
    if (settlement.tokenId) {
      if (settlement.tokenLimited) add(limitedTokens, settlement.tokenId, (hold?.token_debited ? held : 0) - quota, quota);
      else add(unlimitedTokens, settlement.tokenId, 0, quota);
    }
    if (settlement.channelId && quota !== 0) add(channels, settlement.channelId, 0, quota);
    if (settlement.log) yield* run(insertConsumeLog(tx, settlement.log as LogValues));
  }
  yield* chargeAll(tx, users, limitedTokens, unlimitedTokens, channels);
  return settlements.map((settlement) => ({
    userQuota: users.get(settlement.userId)?.after ?? 0,
    tokenRemain: settlement.tokenLimited ? limitedTokens.get(settlement.tokenId)?.after : undefined,
  }));
}

function* chargeAll(
  tx: Db,
  users: Map<number, Sums & { count: number }>,
  limitedTokens: Map<number, Sums>,
  unlimitedTokens: Map<number, Sums>,
  channels: Map<number, Sums>,
): Moves {
  for (const [userId, sums] of users) {
    const [row] = yield* run(chargeUser(tx, { delta: sums.delta, quota: sums.quota, count: sums.count, userId }));
    sums.after = row?.quota;
  }
  // Settling is when a token was last used, so accessed_time rides along.
  const now = nowSeconds();
  for (const [tokenId, sums] of limitedTokens) {
    const [row] = yield* run(chargeLimitedToken(tx, { delta: sums.delta, quota: sums.quota, now, tokenId }));
    sums.after = row?.remain;
  }
  for (const [tokenId, sums] of unlimitedTokens) yield* run(chargeUnlimitedToken(tx, { quota: sums.quota, now, tokenId }));
  for (const [channelId, sums] of channels) yield* run(chargeChannel(tx, { quota: sums.quota, channelId }));
}
