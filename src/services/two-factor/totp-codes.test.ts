// TOTP rules on a clock the test moves: RFC 6238's own vector, the ±1 step window, and replay.
import { describe, expect, test } from "bun:test";
import { acceptedTotpStep, newTotpSecret, otpauthUrl, totpCodeAt, totpStep } from "./totp-codes.ts";

describe("TOTP codes", () => {
  test("match RFC 6238's SHA-1 test vector (last six digits)", () => {
    // The RFC's secret is the ASCII "12345678901234567890"; at 59 s the 8-digit code is 94287082.
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(totpCodeAt(secret, 59_000)).toBe("287082");
    expect(totpCodeAt(secret, 1_111_111_109_000)).toBe("081804");
  });

  test("accept one step of drift either way and nothing beyond", () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = totpStep(now);
    expect(acceptedTotpStep(secret, totpCodeAt(secret, now), now, 0)).toBe(step);
    expect(acceptedTotpStep(secret, totpCodeAt(secret, now - 30_000), now, 0)).toBe(step - 1);
    expect(acceptedTotpStep(secret, totpCodeAt(secret, now + 30_000), now, 0)).toBe(step + 1);
    expect(acceptedTotpStep(secret, totpCodeAt(secret, now - 60_000), now, 0)).toBeUndefined();
    expect(acceptedTotpStep(secret, totpCodeAt(secret, now + 60_000), now, 0)).toBeUndefined();
  });

  test("refuse a step already used, or older than one used", () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const code = totpCodeAt(secret, now);
    const used = acceptedTotpStep(secret, code, now, 0)!;
    expect(acceptedTotpStep(secret, code, now, used)).toBeUndefined();
    expect(acceptedTotpStep(secret, totpCodeAt(secret, now - 30_000), now, used)).toBeUndefined();
    expect(acceptedTotpStep(secret, totpCodeAt(secret, now + 30_000), now, used)).toBe(used + 1);
  });

  test("refuse malformed codes and give an otpauth URL with issuer and account", () => {
    const secret = newTotpSecret();
    expect(acceptedTotpStep(secret, "12345", Date.now(), 0)).toBeUndefined();
    expect(acceptedTotpStep(secret, "abcdef", Date.now(), 0)).toBeUndefined();
    const url = new URL(otpauthUrl(secret, "alice", "Switchyard"));
    expect(url.protocol).toBe("otpauth:");
    expect(url.searchParams.get("secret")).toBe(secret);
    expect(url.searchParams.get("issuer")).toBe("Switchyard");
    expect(decodeURIComponent(url.pathname)).toContain("alice");
  });
});
