// A timer that aborts an upstream call when it fires: one per call. The streaming idle timeout is
// re-armed on activity, which comes with every chunk, so activity only notes the time; when the
// timer fires early because of it, it sets itself again for what is left of the silence allowed.
// (Re-arming the timer itself on every chunk was 4 % of the relay's CPU under paced streams.)
// 0 seconds means no limit.
export type Deadline = { refresh(): void; clear(): void; readonly expired: boolean; readonly signal: AbortSignal | undefined };

const noDeadline: Deadline = { refresh() {}, clear() {}, expired: false, signal: undefined };

/** Without a limit there is no timer and no signal (an AbortSignal makes every fetch dearer). */
export function startDeadline(milliseconds: number): Deadline {
  if (milliseconds <= 0) return noDeadline;
  const controller = new AbortController();
  let expired = false;
  let cleared = false;
  let lastActivity = performance.now();
  const check = () => {
    if (cleared) return;
    const silentFor = performance.now() - lastActivity;
    if (silentFor < milliseconds) {
      timer = setTimeout(check, Math.ceil(milliseconds - silentFor));
      return;
    }
    expired = true;
    controller.abort(new DOMException("upstream timed out", "TimeoutError"));
  };
  let timer = setTimeout(check, milliseconds);
  return {
    refresh: () => {
      lastActivity = performance.now();
    },
    clear: () => {
      cleared = true;
      clearTimeout(timer);
    },
    get expired() {
      return expired;
    },
    signal: controller.signal,
  };
}
