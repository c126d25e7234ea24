import { describe, expect, test } from "bun:test";
import { maskKey, readApiKey } from "./api-key.ts";

const headers = (values: Record<string, string>) => new Headers(values);

describe("readApiKey", () => {
  test("Bearer and the sk- prefix are optional", () => {
    expect(readApiKey(headers({ authorization: "Bearer sk-abc123" }))).toEqual({ key: "abc123" });
    expect(readApiKey(headers({ authorization: "bearer abc123" }))).toEqual({ key: "abc123" });
    expect(readApiKey(headers({ authorization: "sk-abc123" }))).toEqual({ key: "abc123" });
    expect(readApiKey(headers({}))).toEqual({ key: "" });
  });

  test("sk-<key>-<channel> names a pinned channel", () => {
    expect(readApiKey(headers({ authorization: "Bearer sk-abc123-7" }))).toEqual({ key: "abc123", pinnedChannel: "7" });
    expect(readApiKey(headers({ authorization: "Bearer sk-abc123-x" }))).toEqual({ key: "abc123", pinnedChannel: "x" });
  });

  test("Midjourney clients may send mj-api-secret", () => {
    expect(readApiKey(headers({ authorization: "Bearer midjourney-proxy", "mj-api-secret": "sk-mjkey" }))).toEqual({ key: "mjkey" });
    expect(readApiKey(headers({ "mj-api-secret": "mjkey" }))).toEqual({ key: "mjkey" });
  });

  test("masking keeps three characters at each end", () => {
    expect(maskKey("abcdefghijkl")).toBe("sk-abc***jkl");
    expect(maskKey("abc")).toBe("sk-***");
  });
});
