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
    expect(scrubMessage("Credential=AKIAIOSFODNN7EXAMPLE/20250101/us-east-1/bedrock", aws)).toBe("Credential=***/20250101/us-east-1/bedrock");
  });

  test("links to public documentation stay", () => {
    const message = "See https://platform.openai.com/account/api-keys.";
    expect(scrubMessage(message, target)).toBe(message);
  });
});
