// What a token's rate and concurrency limits count (issue 27), behind one small interface: in
// this process's memory for a single instance, in Redis for several (redis-token-meters.ts),
// chosen with the shared state like the reservation book.
//
//   slots     requests in flight: a slot is taken when the request is admitted and given back
//             when it ends (its flight ends, in-flight.ts);
//   minute    prompt + completion tokens of the last 60 s: a request reserves an upper bound of
//             its tokens (the prompt's bound plus its completion allowance) when it is admitted,
//             replaced by what it really used when it settles, dropped when it fails. The
//             bound counts from admission and the usage from settlement, each for a minute.
//
// Counting the bound until the settlement is what keeps a burst of concurrent calls within the
// limit: the tokens the admitted calls settle never pass it (the same idea as the ledger's holds).
import type { SharedState } from "../../cache/shared-state.ts";
import { createRedisTokenMeters } from "./redis-token-meters.ts";
import { minuteMs } from "./minute-window.ts";
import type { TokenMeters } from "./token-meter-types.ts";

export { minuteMs };
export type { MinuteVerdict, TokenMeters } from "./token-meter-types.ts";

type Entry = { at: number; tokens: number };

/**
 * When a reservation of `tokens` fits again: the oldest entries leave the window first. An
 * amount larger than the limit never fits; the caller is told to come back in a minute.
 */
function minuteRetryAfter(entries: Entry[], tokens: number, limit: number, now: number): number {
  let sum = entries.reduce((total, entry) => total + entry.tokens, 0);
  if (tokens > limit) return minuteMs / 1000;
  for (const entry of [...entries].sort((a, b) => a.at - b.at)) {
    sum -= entry.tokens;
    if (sum + tokens <= limit) return Math.max(1, Math.ceil((entry.at + minuteMs - now) / 1000));
  }
  return 1;
}

function createMemoryTokenMeters(): TokenMeters {
  const slots = new Map<number, number>();
  const minutes = new Map<number, Map<string, Entry>>();

  const windowOf = (tokenId: number, now: number) => {
    let window = minutes.get(tokenId);
    if (!window) minutes.set(tokenId, (window = new Map()));
    for (const [key, entry] of window) if (entry.at <= now - minuteMs) window.delete(key);
    return window;
  };

  return {
    async takeSlot(tokenId, limit) {
      const taken = slots.get(tokenId) ?? 0;
      if (taken >= limit) return false;
      slots.set(tokenId, taken + 1);
      return true;
    },
    async giveSlot(tokenId) {
      const taken = (slots.get(tokenId) ?? 0) - 1;
      if (taken > 0) slots.set(tokenId, taken);
      else slots.delete(tokenId);
    },
    async reserveMinute(tokenId, requestId, tokens, limit) {
      const now = Date.now();
      const window = windowOf(tokenId, now);
      let sum = 0;
      for (const entry of window.values()) sum += entry.tokens;
      if (sum + tokens > limit) return { allowed: false, retryAfterSeconds: minuteRetryAfter([...window.values()], tokens, limit, now) };
      window.set(`p:${requestId}`, { at: now, tokens });
      return { allowed: true, retryAfterSeconds: 0 };
    },
    async settleMinute(tokenId, requestId, _reserved, used) {
      const now = Date.now();
      const window = windowOf(tokenId, now);
      window.delete(`p:${requestId}`);
      if (used > 0) window.set(`s:${requestId}`, { at: now, tokens: used });
    },
    async dropMinute(tokenId, requestId) {
      const window = minutes.get(tokenId);
      window?.delete(`p:${requestId}`);
      if (window?.size === 0) minutes.delete(tokenId);
    },
    async close() {
      slots.clear();
      minutes.clear();
    },
  };
}

let meters: TokenMeters = createMemoryTokenMeters();

/** Chooses the meters: Redis when the shared state is Redis (every instance counts together). */
export async function openTokenMeters(shared: SharedState, instanceName: string): Promise<TokenMeters> {
  await meters.close();
  meters = shared.scripts
    ? await createRedisTokenMeters(shared.scripts, instanceName, createMemoryTokenMeters())
    : createMemoryTokenMeters();
  return meters;
}

export function tokenMeters(): TokenMeters {
  return meters;
}
