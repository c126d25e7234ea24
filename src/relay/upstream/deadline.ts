// A timer that aborts an upstream call when it fires: one per call, re-armed on activity (the
// streaming idle timeout) instead of creating a timer per chunk. 0 seconds means no limit.
export type Deadline = { refresh(): void; clear(): void; readonly expired: boolean; readonly signal: AbortSignal | undefined };

const noDeadline: Deadline = { refresh() {}, clear() {}, expired: false, signal: undefined };

/** Without a limit there is no timer and no signal (an AbortSignal makes every fetch dearer). */
export function startDeadline(milliseconds: number): Deadline {
  if (milliseconds <= 0) return noDeadline;
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException("upstream timed out", "TimeoutError"));
  }, milliseconds);
  return {
    refresh: () => void timer.refresh(),
    clear: () => clearTimeout(timer),
    get expired() {
      return expired;
    },
    signal: controller.signal,
  };
}
