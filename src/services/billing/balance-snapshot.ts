// The balances a reservation is checked against, read from the store (the one truth about money)
// for every request: a primary-key read, synchronous on SQLite, so reading and reserving happen in
// one turn of the event loop there. A user (or token) that no longer exists reads as -1: nothing
// can be reserved against it.
import { db } from "../../store/client.ts";
import type { SyncQuery } from "../../store/transact.ts";
import { tokenBalance, userBalance } from "./ledger-statements.ts";
import type { Balance, Snapshots } from "./reservation-book.ts";

const missing: Balance = { balance: -1, version: 0 };

type Row = { quota?: number; remain?: number; used: number };

const toBalance = (row: Row | undefined): Balance =>
  row ? { balance: Number(row.quota ?? row.remain), version: Number(row.used) } : missing;

function both(user: Row[], token: Row[] | undefined): Snapshots {
  return { user: toBalance(user[0]), token: token ? toBalance(token[0]) : undefined };
}

/** The user's balance and, for a limited token (`tokenId` > 0), the token's. */
export function readBalances(userId: number, tokenId: number): Snapshots | Promise<Snapshots> {
  const user = userBalance(db, { userId });
  const token = tokenId ? tokenBalance(db, { tokenId }) : undefined;
  if (typeof (user as Partial<SyncQuery>).runSync === "function") {
    return both((user as SyncQuery<Row[]>).runSync(), token ? (token as SyncQuery<Row[]>).runSync() : undefined);
  }
  return Promise.all([user, token]).then(([userRows, tokenRows]) => both(userRows as Row[], tokenRows as Row[] | undefined));
}
