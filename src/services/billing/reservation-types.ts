// The reservation book's contract (reservation-book.ts chooses the book): balances as read from
// the store, a reservation, what reserving answers, what a settlement charged, and the book
// itself. Kept apart so the two books (memory-reservations.ts, redis-reservations.ts) and the
// ledger name them without importing the module that creates the books.

/** An account's balance as read from the store; `version` is its used quota at that moment. */
export type Balance = {
  balance: number;
  version: number;
  /** Set when a token's period budget is what limits it: when the period ends (unix seconds). */
  periodEnd?: number;
};

export type Snapshots = { user: Balance; token?: Balance };

export type Reservation = {
  requestId: string;
  userId: number;
  /** The token whose balance is reserved too (a limited one, or one with a period budget), or 0. */
  tokenId: number;
  /** The token's own balance is limited (a store debit takes from it). */
  tokenLimited?: boolean;
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
