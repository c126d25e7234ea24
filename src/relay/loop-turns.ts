// Sharing the event loop. Work that follows a promise already settled runs in the same turn of
// the loop as what came before it, so long steps add up without the loop ever polling for other
// requests: when many streams have data waiting (clients reading fast, upstreams quicker
// still), Bun pulls each one piece after piece inside one turn, and twenty such streams kept
// a status check waiting three seconds; twenty streams cut at once, each counting its output
// for its bill, held it a second; a large call's reading, conversion, estimate and serialising
// ran as one block. At such points (a stream's next piece, a settlement about to count, the
// steps of a large call) whoever finds the current turn older than `turnBudgetMs` waits for a
// later turn, so the loop polls for other work in between. The cost when nothing is busy: a
// clock read, and one setImmediate per turn of the loop rather than per request or piece.

const turnBudgetMs = 20;

let turnStartedAt = 0;
let turnMarked = false;

const endTurn = () => {
  turnMarked = false;
};

/** True when the current turn of the loop has run long enough that this stream should yield. */
export function turnIsLong(now: number): boolean {
  if (!turnMarked) {
    turnMarked = true;
    turnStartedAt = now;
    setImmediate(endTurn);
    return false;
  }
  return now - turnStartedAt > turnBudgetMs;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves in a turn of the loop that is still short (after the loop polled for other work). */
export async function waitForShortTurn(): Promise<void> {
  do await nextTurn();
  while (turnIsLong(performance.now()));
}
