// Memory back after a burst of load. JavaScriptCore collects when allocation asks for it, so a
// process that goes quiet keeps the garbage of its last busy seconds (tens of megabytes after a
// benchmark) until the next request. When the relay has been quiet for a while after serving
// requests, one full collection returns that memory; a process that stays busy never pays for it.
let served = 0;
let seenAt = 0;
let collected = true;

/** Counts a relay request (the pipeline calls it once per request). */
export function noteRelayRequest(): void {
  served++;
}

/** Checks every `periodMs`; collects once per quiet spell that follows activity. */
export function startIdleCollection(periodMs = 10_000): () => void {
  const timer = setInterval(() => {
    if (served !== seenAt) {
      seenAt = served;
      collected = false;
      return;
    }
    if (collected) return;
    collected = true;
    Bun.gc(true);
    // Then the runtime drops its compiled code and hands freed allocator pages back: about 8 MB
    // more comes back after a burst (docs/PERFORMANCE.md); the next request compiles again.
    Bun.shrink();
  }, periodMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
