// The console's shared formats and choices (issue 17): amounts that never read as zero when they
// are not, the pagination's page numbers around the current page, the one date format the
// pickers write, and which channel kinds this build can relay.
import { describe, expect, test } from "bun:test";
import { formatAmount, formatPaidAmount, formatQuotaDisplay } from "../../src/console/format.ts";
import { pageItems } from "../../src/console/components/pagination.tsx";
import { fromPickerValue, parseLocalTime, toPickerValue } from "../../console-runtime/local-time.ts";
import { canRelayType, channelTypes, unrelayableTypes } from "../../src/services/channels/channel-types.ts";

describe("amounts", () => {
  test("two decimals, or the two significant digits a small non-zero amount needs", () => {
    expect(formatAmount(0)).toBe("0.00");
    expect(formatAmount(1.5)).toBe("1.50");
    expect(formatAmount(12.345)).toBe("12.35");
    expect(formatAmount(0.0042)).toBe("0.0042");
    expect(formatAmount(0.004249)).toBe("0.0042");
    expect(formatAmount(-0.0042)).toBe("-0.0042");
    expect(formatAmount(0.000002)).toBe("0.000002");
    expect(formatAmount(0.0042, 6)).toBe("0.004200");
  });

  test("quota shown in dollars when the site displays currency, else as a count", () => {
    expect(formatQuotaDisplay(2100, { display_in_currency: true, quota_per_unit: 500000 })).toBe("$0.0042");
    expect(formatQuotaDisplay(1, { display_in_currency: true, quota_per_unit: 500000 })).toBe("$0.000002");
    expect(formatQuotaDisplay(2100, { display_in_currency: false, quota_per_unit: 500000 })).toBe("2100");
  });
});

describe("pagination", () => {
  test("first, last and two either side of the current page, with ellipses between", () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(1, 6)).toEqual([1, 2, 3, "gap", 6]);
    expect(pageItems(4, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pageItems(10, 20)).toEqual([1, "gap", 8, 9, 10, 11, 12, "gap", 20]);
    expect(pageItems(20, 20)).toEqual([1, "gap", 18, 19, 20]);
  });
});

describe("date-time pickers", () => {
  test("the native picker's value and the console's format convert both ways", () => {
    expect(fromPickerValue("2030-01-02T03:04")).toBe("2030-01-02 03:04:00");
    expect(fromPickerValue("2030-01-02T03:04:05")).toBe("2030-01-02 03:04:05");
    expect(fromPickerValue("")).toBe("");
    expect(toPickerValue("2030-01-02 03:04:05")).toBe("2030-01-02T03:04:05");
    expect(toPickerValue("-1")).toBe("");
    expect(parseLocalTime(fromPickerValue(toPickerValue("2030-01-02 03:04:05")))).toBe(parseLocalTime("2030-01-02 03:04:05"));
  });
});

describe("relayable channel types", () => {
  test("every type of the catalogue has a relay; an unknown type has none", () => {
    expect(unrelayableTypes()).toEqual([]);
    for (const info of channelTypes) expect(canRelayType(info.type)).toBe(true);
    expect(canRelayType(9999)).toBe(false);
  });
});

describe("formatPaidAmount", () => {
  test("two decimals at least, every real one beyond, no binary noise", () => {
    expect(formatPaidAmount(7.3)).toBe("7.30");
    expect(formatPaidAmount(0.1 + 0.2)).toBe("0.30");
    expect(formatPaidAmount(10)).toBe("10.00");
    expect(formatPaidAmount(0.125)).toBe("0.125");
    expect(formatPaidAmount(13.6845)).toBe("13.6845");
    expect(formatPaidAmount(0.004)).toBe("0.004");
    expect(formatPaidAmount(Number.NaN)).toBe("0.00");
  });
});
