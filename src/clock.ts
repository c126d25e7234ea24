// The one source of "now" for the core. A test can start a server shifted in time
// (SWITCHYARD_CLOCK_OFFSET_MS, read by config.ts) to check expiries without waiting.
let offsetMs = 0;

export function setClockOffset(milliseconds: number): void {
  offsetMs = milliseconds;
}

export function nowMs(): number {
  return Date.now() + offsetMs;
}

export function nowSeconds(): number {
  return Math.floor(nowMs() / 1000);
}
