// What the ledger is handed for one request, and what it hands back: shared by the ledger's
// moves (ledger-moves.ts), the shortfall they may collect (ledger-shortfall.ts), the batch and
// the holds, apart from all of them.
import type { ConsumeLogValues } from "./consume-log.ts";

export type Settlement = {
  requestId: string;
  userId: number;
  tokenId: number;
  tokenLimited: boolean;
  /** The start (unix seconds) of the period of a token with a period budget, else 0 or absent. */
  tokenPeriodStart?: number;
  channelId: number;
  /** What the request cost; what is charged is at most this (see `charged` below). */
  quota: number;
  /** What the hold debited from the balances in the store (Redis away, store-debit.ts), else 0. */
  debited?: number;
  /** The upstream reported more completion tokens than the request allowed (flags the channel). */
  overLimit?: boolean;
  /** The consumption log to write with it, or null when logging is off. */
  log: ConsumeLogValues | null;
};

/** Balances after the batch, with the versions (used quotas) the reservation book needs. */
export type SettledBalances = {
  userQuota: number;
  userVersion: number;
  tokenRemain: number | undefined;
  tokenVersion: number | undefined;
  /** What this settlement charged: its cost, or what the balances still had. */
  charged: number;
  /** Its cost less what was charged. */
  uncollected: number;
};
