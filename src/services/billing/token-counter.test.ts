import { describe, expect, test } from "bun:test";
import { countChatPromptTokens, countCompletionTokens, countInputTokens, countTextTokens } from "./token-counter.ts";

describe("local token counts", () => {
  test("o200k for current models, cl100k for the GPT-4 generation", () => {
    expect(countTextTokens("Hello world", "gpt-4o-mini")).toBe(2);
    expect(countTextTokens("Hello world", "gpt-4")).toBe(2);
    expect(countTextTokens("", "gpt-4o")).toBe(0);
  });

  test("chat prompts: 3 per message + role + content, 3 to prime the reply", () => {
    const messages = [{ role: "user", content: "Hello world" }];
    expect(countChatPromptTokens(messages, "gpt-4o")).toBe(3 + 3 + countTextTokens("user", "gpt-4o") + 2);
  });

  test("images are counted without fetching them", () => {
    const low = [{ role: "user", content: [{ type: "image_url", image_url: { url: "http://10.0.0.1/x.png", detail: "low" } }] }];
    const high = [{ role: "user", content: [{ type: "image_url", image_url: { url: "http://10.0.0.1/x.png" } }] }];
    expect(countChatPromptTokens(high, "gpt-4o") - countChatPromptTokens(low, "gpt-4o")).toBe(680);
  });

  test("inputs: strings, lists, token ids", () => {
    expect(countInputTokens(["Hello world", "Hello"], "text-embedding-3-small")).toBe(3);
    expect(countInputTokens([[1, 2, 3], [4]], "text-embedding-3-small")).toBe(4);
  });

  test("completion: text plus 7 per tool call", () => {
    expect(countCompletionTokens({ text: "Hello world", toolCalls: 2 }, "gpt-4o")).toBe(16);
  });
});
