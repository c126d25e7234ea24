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
import type { ReservationBook } from "./reservation-types.ts";

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
