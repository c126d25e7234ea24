// A client that reads nothing. Bun asks an answer's stream for its next piece only once the
// client's socket took the last one, so a piece left waiting means the client stopped reading;
// past the allowed time (STREAMING_TIMEOUT) the answer gives up on it (respond-stream.ts,
// respond-json.ts).

/** Ends a watch: its timer goes, and with it the answer's state the timer's closure holds. */
export type ClientWatch = { stop(): void };

const noWatch: ClientWatch = { stop() {} };

/**
 * Calls `stalled` once `waitingSince()` (a performance.now() time; 0 while the client is reading,
 * -1 once the answer ended) is `limitMs` old. One timer per answer, set again only when it fires:
 * marking the time of each piece sent costs a clock read, not a timer. The answer stops the watch
 * when it ends: a pending timer keeps everything the answer held reachable for up to `limitMs`
 * (STREAMING_TIMEOUT, 300 s), which under load was hundreds of megabytes of finished streams.
 */
export function watchClient(waitingSince: () => number, limitMs: number, stalled: () => void): ClientWatch {
  if (limitMs <= 0) return noWatch;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    timer = undefined;
    const since = waitingSince();
    if (since < 0) return;
    const waited = since === 0 ? 0 : performance.now() - since;
    if (waited >= limitMs) return stalled();
    timer = setTimeout(check, Math.ceil(limitMs - waited));
    timer.unref?.();
  };
  timer = setTimeout(check, limitMs);
  timer.unref?.();
  return {
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
