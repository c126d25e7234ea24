// A timer that aborts an upstream call when it fires: one per call, re-armed on activity (the
// streaming idle timeout) instead of creating a timer per chunk. 0 seconds means no limit.
export type Deadline = { refresh(): void; clear(): void; readonly expired: boolean };

export function startDeadline(controller: AbortController, milliseconds: number): Deadline {
  let expired = false;
  if (milliseconds <= 0) return { refresh() {}, clear() {}, expired };
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
  };
}
