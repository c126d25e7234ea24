// "Today" and times in a browser's zone, computed on the server (time-zone.ts, format.ts).
import { describe, expect, test } from "bun:test";
import { formatUnixTime } from "./format.ts";
import { knownTimeZone, startOfDay } from "./time-zone.ts";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe("time zones", () => {
  test("times are written in the zone asked for", () => {
    const instant = at("2026-03-05T20:15:09Z");
    expect(formatUnixTime(instant, "UTC")).toBe("2026-03-05 20:15:09");
    expect(formatUnixTime(instant, "Asia/Kolkata")).toBe("2026-03-06 01:45:09");
    expect(formatUnixTime(instant, "America/New_York")).toBe("2026-03-05 15:15:09");
    expect(formatUnixTime(0, "UTC")).toBe("-");
  });

  test("the start of today and of days before, in the zone", () => {
    const instant = at("2026-03-05T20:15:09Z");
    expect(startOfDay(instant, "UTC")).toBe(at("2026-03-05T00:00:00Z"));
    // Already the 6th in Kolkata (UTC+5:30).
    expect(startOfDay(instant, "Asia/Kolkata")).toBe(at("2026-03-05T18:30:00Z"));
    expect(startOfDay(instant, "Asia/Kolkata", 6)).toBe(at("2026-02-27T18:30:00Z"));
    // Across New York's change to summer time on 2026-03-08: midnights before it are at 05:00 UTC, after at 04:00.
    const afterChange = at("2026-03-10T12:00:00Z");
    expect(startOfDay(afterChange, "America/New_York")).toBe(at("2026-03-10T04:00:00Z"));
    expect(startOfDay(afterChange, "America/New_York", 6)).toBe(at("2026-03-04T05:00:00Z"));
  });

  test("only zones this runtime knows are taken from a cookie", () => {
    expect(knownTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(knownTimeZone("UTC")).toBe("UTC");
    for (const name of [undefined, "", "Mars/Olympus", "../../etc", "Europe/Berlin; drop", "x".repeat(80)])
      expect(knownTimeZone(name)).toBeUndefined();
  });
});
