import { describe, expect, test } from "bun:test";
import { scrubMessage } from "./upstream-failure.ts";

describe("scrubMessage", () => {
  const target = { key: "sk-live-channel-key-123456", baseUrl: "http://10.1.2.3:8080" };

  test("keys, bearer tokens, addresses and internal URLs are removed", () => {
    const message = "Incorrect API key provided: sk-proj-abcdef123456wxyz (Bearer abc.def) from http://10.1.2.3:8080/v1 at 192.168.0.7";
    const scrubbed = scrubMessage(message, target);
    expect(scrubbed).not.toContain("abcdef123456wxyz");
    expect(scrubbed).not.toContain("abc.def");
    expect(scrubbed).not.toContain("10.1.2.3");
    expect(scrubbed).not.toContain("192.168.0.7");
    expect(scrubbed).toContain("Incorrect API key provided: sk-***");
  });

  test("the channel's own key is removed wherever it appears", () => {
    expect(scrubMessage("bad key sk-live-channel-key-123456!", target)).not.toContain("channel-key-123456");
  });

  test("each long part of a composite key is removed too", () => {
    const aws = { key: "AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG|us-east-1", baseUrl: "" };
    expect(scrubMessage("Credential=AKIAIOSFODNN7EXAMPLE/20250101/us-east-1/bedrock", aws)).toBe(
      "Credential=***/20250101/us-east-1/bedrock",
    );
  });

  test("links to public documentation stay", () => {
    const message = "See https://platform.openai.com/account/api-keys.";
    expect(scrubMessage(message, target)).toBe(message);
  });

  test("Google keys, JSON web tokens, named secrets and keys in links to help pages are removed; rate-limit words stay", () => {
    const message =
      "Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000. key=AIzaSyA1234567890abcdefghijklmnopqrstuv " +
      "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U " +
      "api_key: live-secret-9f8e7d password=hunter22 see https://docs.example.com/limits?key=leaky-value-123 max_tokens: 4096";
    const scrubbed = scrubMessage(message, target);
    for (const secret of ["AIzaSyA1234567890", "eyJhbGciOiJIUzI1NiJ9", "live-secret-9f8e7d", "hunter22", "leaky-value-123"]) {
      expect(scrubbed).not.toContain(secret);
    }
    expect(scrubbed).toContain("Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000.");
    expect(scrubbed).toContain("https://docs.example.com/limits");
    expect(scrubbed).toContain("max_tokens: 4096");
  });
});
