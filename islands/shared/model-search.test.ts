import { describe, expect, test } from "bun:test";
import { matchesModelQuery } from "./model-search.ts";

describe("finding a model by any part of its name", () => {
  test("words in any order, case and separators ignored", () => {
    expect(matchesModelQuery("claude-sonnet-4-5-20250929", "sonnet 4.5")).toBe(true);
    expect(matchesModelQuery("claude-sonnet-4-5-20250929", "4.5 SONNET")).toBe(true);
    expect(matchesModelQuery("gpt-5-codex", "gpt5 codex")).toBe(true);
    expect(matchesModelQuery("gemini-2.5-pro", "25pro")).toBe(true);
    expect(matchesModelQuery("Qwen/Qwen2.5-72B-Instruct", "72b instruct")).toBe(true);
    expect(matchesModelQuery("gpt-4o-mini", "")).toBe(true);
  });

  test("every word must be found", () => {
    expect(matchesModelQuery("claude-sonnet-4-5-20250929", "opus 4.5")).toBe(false);
    expect(matchesModelQuery("gpt-4o-mini", "mini 5")).toBe(false);
  });
});
