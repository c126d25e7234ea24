// The balances a reservation is checked against, read from the store (the one truth about money)
// for every request: a primary-key read, synchronous on SQLite, so reading and reserving happen in
// one turn of the event loop there. A user (or token) that no longer exists reads as -1: nothing
// can be reserved against it.
//
// A token's balance is what it may still spend: its own (a limited token's remaining quota) and
// its period budget's (what the current period has left), whichever is smaller; a token with
// neither is not reserved. The version is the token's used quota either way, since every charge
// raises both the used quota and the period's sum.
import { db } from "../../store/client.ts";
import { hasPeriodBudget, periodEndOf, periodUsed } from "../tokens/quota-period.ts";
import type { SyncQuery } from "../../store/transact.ts";
import { tokenBalance, userBalance } from "./ledger-statements.ts";
import type { Balance, Snapshots } from "./reservation-types.ts";

const missing: Balance = { balance: -1, version: 0 };

type Row = { quota: number; used: number };
type TokenRow = {
  remain: number;
  used: number;
  unlimited: boolean;
  quota_period: string;
  period_quota: number;
  period_used_quota: number;
  period_start: number;
};

const toBalance = (row: Row | undefined): Balance => (row ? { balance: Number(row.quota), version: Number(row.used) } : missing);

/** Stands for "no limit" where a number must go (the Redis script's arguments). */
const noLimit = Number.MAX_SAFE_INTEGER;

function tokenBalanceOf(row: TokenRow | undefined): Balance {
  if (!row) return missing;
  const own = row.unlimited ? noLimit : Number(row.remain);
  if (!hasPeriodBudget(row)) return { balance: own, version: Number(row.used) };
  const periodLeft = Number(row.period_quota) - periodUsed(row);
  if (periodLeft >= own) return { balance: own, version: Number(row.used) };
  return { balance: periodLeft, version: Number(row.used), periodEnd: periodEndOf(row.quota_period) };
}

function both(user: Row[], token: TokenRow[] | undefined): Snapshots {
  return { user: toBalance(user[0]), token: token ? tokenBalanceOf(token[0]) : undefined };
}

/** The user's balance and, for a limited token or one with a period budget (`tokenId` > 0), the token's. */
export function readBalances(userId: number, tokenId: number): Snapshots | Promise<Snapshots> {
  const user = userBalance(db, { userId });
  const token = tokenId ? tokenBalance(db, { tokenId }) : undefined;
  if (typeof (user as Partial<SyncQuery>).runSync === "function") {
    return both((user as SyncQuery<Row[]>).runSync(), token ? (token as SyncQuery<TokenRow[]>).runSync() : undefined);
  }
  return Promise.all([user, token]).then(([userRows, tokenRows]) => both(userRows as Row[], tokenRows as TokenRow[] | undefined));
}
