import { describe, expect, test } from "bun:test";
import { parseAddressAllowList } from "./address-allow-list.ts";

describe("parseAddressAllowList", () => {
  test("an empty list means no limit", () => {
    expect(parseAddressAllowList("")).toBeNull();
    expect(parseAddressAllowList(" \n \n")).toBeNull();
  });

  test("single addresses and CIDR ranges, IPv4 and IPv6", () => {
    const list = parseAddressAllowList("203.0.113.7\n10.0.0.0/8\n2001:db8::/32\n::1")!;
    expect(list.allows("203.0.113.7")).toBe(true);
    expect(list.allows("203.0.113.8")).toBe(false);
    expect(list.allows("10.200.3.4")).toBe(true);
    expect(list.allows("11.0.0.1")).toBe(false);
    expect(list.allows("2001:db8:1::9")).toBe(true);
    expect(list.allows("::1")).toBe(true);
    expect(list.allows("2001:db9::1")).toBe(false);
    expect(list.allows("unknown")).toBe(false);
  });
});
