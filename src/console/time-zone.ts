// The browser's time zone on the server. The console runtime keeps it in the "tz" cookie
// (console-runtime/time-zone.ts), so pages and the fragments htmx swaps in render times and
// compute "today" where the visitor is, not where the server is; <LocalTime> and the date
// fields are re-rendered by the browser as well, which covers a first visit before the cookie.
import { zonedParts } from "./format.ts";

export const timeZoneCookie = "tz";

/** The zone's name when this runtime knows it (IANA names only), else undefined. */
export function knownTimeZone(name: string | undefined): string | undefined {
  if (!name || name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return undefined;
  try {
    zonedParts(0, name);
    return name;
  } catch {
    return undefined;
  }
}

/** This process's own zone: the fallback while the browser's is unknown. */
const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** How far the zone's wall clock is ahead of UTC at an instant (milliseconds). */
function offsetAt(milliseconds: number, timeZone: string): number {
  const p = zonedParts(milliseconds, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(milliseconds / 1000) * 1000;
}

/** Unix seconds of the midnight that starts the day `daysBack` days before today, in the zone. */
export function startOfDay(nowSeconds: number, timeZone: string | undefined, daysBack = 0): number {
  const zone = timeZone ?? serverTimeZone();
  const today = zonedParts(nowSeconds * 1000, zone);
  const midnight = Date.UTC(today.year, today.month - 1, today.day - daysBack);
  // The offset at midnight itself, found in two steps (a daylight-saving change may lie between).
  const first = midnight - offsetAt(midnight, zone);
  return Math.floor((midnight - offsetAt(first, zone)) / 1000);
}
