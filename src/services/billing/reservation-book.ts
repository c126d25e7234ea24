// Where the relay reserves a request's estimate before calling upstream: in this process's
// memory for a single instance, or in Redis for several (REDIS_CONN_STRING). The store is not
// written at all until the settlement, which debits the real cost once (see quota-holds.ts);
// only while Redis is away is a reservation a debit in the store (store-debit.ts).
//
// A reservation is admitted when the balance read from the store, less the open reservations of
// every instance, covers the estimate. The balance snapshot is read before the check, so a
// settlement can commit in between (its cost leaves the balance and its reservation ends):
// a snapshot carries a version, the account's used quota, which every charge raises, and the
// book remembers recent charges with the version after them. Charges newer than a snapshot are
// subtracted from it, so a stale snapshot never admits more than a fresh one would.
import type { SharedState } from "../../cache/shared-state.ts";
import { createMemoryReservations } from "./memory-reservations.ts";
import { createRedisReservations } from "./redis-reservations.ts";

/** An account's balance as read from the store; `version` is its used quota at that moment. */
export type Balance = { balance: number; version: number };

export type Snapshots = { user: Balance; token?: Balance };

export type Reservation = {
  requestId: string;
  userId: number;
  /** The limited token whose own balance is reserved too, or 0. */
  tokenId: number;
  amount: number;
  /** Set by the book: the amount was debited in the store (Redis away), the settlement gives it back. */
  debited?: boolean;
};

export type ReserveOutcome = "reserved" | "user-short" | "token-short";

/** What a committed settlement charged, with the accounts' versions after it. */
export type Charged = { cost: number; userVersion: number; tokenVersion?: number };

export interface ReservationBook {
  readonly kind: "memory" | "redis";
  /**
   * Reserves `amount` when what is left of the user's balance (and of a limited token's) covers
   * it `margin` times; a balance below zero admits nothing. `read` gives the balances from the
   * store (synchronously on SQLite, so reading, checking and reserving cannot be interleaved).
   */
  reserve(reservation: Reservation, margin: number, read: () => Snapshots | Promise<Snapshots>): Promise<ReserveOutcome>;
  /** The reservation's settlement committed: the reservation ends and the charge is remembered. */
  settled(reservation: Reservation, charged: Charged): Promise<void>;
  /** The reservation ends without a charge (the request failed before anything was delivered). */
  released(reservation: Reservation): Promise<void>;
  /**
   * A committed refund (a failed task's charge given back) lowered the user's and the token's
   * used quota, the version of their snapshots, by `amount`. The remembered charges' versions are
   * lowered by as much, so a snapshot read after the refund does not count them again (and is
   * not taken for one older than the forgotten charges). A snapshot read before the refund may
   * then miss charges worth at most `amount`, which it also lacks: it never admits more.
   */
  refunded(refund: { userId: number; tokenId: number; amount: number }): Promise<void>;
  /** The sum this instance holds reserved for a user (diagnostics and tests). */
  heldFor(userId: number): number;
  close(): Promise<void>;
}

let book: ReservationBook = createMemoryReservations();

/** Chooses the book: Redis when the shared state is Redis (every instance sees every reservation). */
export async function openReservationBook(shared: SharedState, instanceName: string): Promise<ReservationBook> {
  await book.close();
  book = shared.scripts ? await createRedisReservations(shared.scripts, instanceName) : createMemoryReservations();
  return book;
}

export function reservationBook(): ReservationBook {
  return book;
}
