// Reservations in the store itself: what the Redis book falls back to while Redis is away
// (issue 18). A reservation is then a conditional debit (`quota >= needed`), exact across every
// instance because the database checks and debits in one statement; the settlement gives back
// what was debited less the cost (Settlement.debited), a release gives it all back.
import { and, eq, gte, sql } from "drizzle-orm";
import { t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { Reservation, ReserveOutcome } from "./reservation-types.ts";

class TokenShort extends Error {}

/**
 * Debits `amount` when the balance covers `needed` (amount × margin) plus what this instance
 * still holds in Redis for the account (`alsoHeld`): the user's balance and a limited token's,
 * both or neither.
 */
export async function debitInStore(
  reservation: Reservation,
  needed: number,
  alsoHeld: { user: number; token: number },
): Promise<ReserveOutcome> {
  try {
    return await transact(function* (tx) {
      const users = yield* run(
        tx
          .update(t.users)
          .set({ quota: sql`${t.users.quota} - ${reservation.amount}` })
          .where(and(eq(t.users.id, reservation.userId), gte(t.users.quota, needed + alsoHeld.user), gte(t.users.quota, 0)))
          .returning({ id: t.users.id }),
      );
      if (users.length === 0) return "user-short" as const;
      // A token reserved for its period budget alone has no balance of its own to debit: while
      // Redis is away its period is checked against the snapshot only (redis-reservations.ts).
      if (reservation.tokenId && reservation.tokenLimited !== false) {
        const tokens = yield* run(
          tx
            .update(t.tokens)
            .set({ remain_quota: sql`${t.tokens.remain_quota} - ${reservation.amount}` })
            .where(
              and(eq(t.tokens.id, reservation.tokenId), gte(t.tokens.remain_quota, needed + alsoHeld.token), gte(t.tokens.remain_quota, 0)),
            )
            .returning({ id: t.tokens.id }),
        );
        // Rolls the user's debit back with it.
        if (tokens.length === 0) throw new TokenShort();
      }
      return "reserved" as const;
    });
  } catch (error) {
    if (error instanceof TokenShort) return "token-short";
    throw error;
  }
}

/** Gives a debited reservation back: the request ended without a charge. */
export async function refundInStore(reservation: Reservation): Promise<void> {
  await transact(function* (tx) {
    yield* run(
      tx
        .update(t.users)
        .set({ quota: sql`${t.users.quota} + ${reservation.amount}` })
        .where(eq(t.users.id, reservation.userId)),
    );
    if (reservation.tokenId && reservation.tokenLimited !== false) {
      yield* run(
        tx
          .update(t.tokens)
          .set({ remain_quota: sql`${t.tokens.remain_quota} + ${reservation.amount}` })
          .where(eq(t.tokens.id, reservation.tokenId)),
      );
    }
  });
}
