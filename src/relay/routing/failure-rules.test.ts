import { describe, expect, test } from "bun:test";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";
import { disableReasonFor, isRetryable, parseDisableKeywords } from "./failure-rules.ts";

const failure = (
  status: number,
  details: Partial<UpstreamFailure["details"]> = {},
  kind: UpstreamFailure["kind"] = "status",
): UpstreamFailure => ({
  kind,
  status,
  upstreamStatus: status,
  details: { message: "boom", type: "server_error", code: null, param: null, ...details },
  localMessage: false,
});

describe("retry", () => {
  test("network errors, timeouts, 429 and 5xx are retried", () => {
    expect(isRetryable(failure(502, {}, "network"))).toBe(true);
    expect(isRetryable(failure(504, {}, "timeout"))).toBe(true);
    for (const status of [429, 500, 502, 503, 504, 599]) expect(isRetryable(failure(status))).toBe(true);
  });

  test("client and key errors are not", () => {
    for (const status of [400, 401, 403, 404, 408, 413, 422]) expect(isRetryable(failure(status))).toBe(false);
  });
});

describe("auto-disable", () => {
  const keywords = parseDisableKeywords("Your credit balance is too low\n\n  You exceeded your current quota  \n");

  test("keywords are one per line, lower-cased, blanks dropped", () => {
    expect(keywords).toEqual(["your credit balance is too low", "you exceeded your current quota"]);
  });

  test("401, dead-key codes, auth and quota types and keywords disable", () => {
    expect(disableReasonFor(failure(401), keywords)).toBe("status 401: boom");
    expect(disableReasonFor(failure(400, { code: "invalid_api_key" }), keywords)).toBeDefined();
    expect(disableReasonFor(failure(403, { code: "account_deactivated" }), keywords)).toBeDefined();
    expect(disableReasonFor(failure(402, { code: "billing_not_active" }), keywords)).toBeDefined();
    for (const type of ["insufficient_quota", "authentication_error", "permission_error", "forbidden"]) {
      expect(disableReasonFor(failure(403, { type }), keywords)).toBeDefined();
    }
    expect(disableReasonFor(failure(400, { message: "YOU EXCEEDED your current quota, please check" }), keywords)).toBeDefined();
  });

  test("rate limits, server errors, missing models and network trouble do not", () => {
    expect(disableReasonFor(failure(429), keywords)).toBeUndefined();
    expect(disableReasonFor(failure(500), keywords)).toBeUndefined();
    expect(disableReasonFor(failure(404, { code: "model_not_found" }), keywords)).toBeUndefined();
    expect(disableReasonFor(failure(502, {}, "network"), keywords)).toBeUndefined();
  });
});
