// The hold is an upper bound (issue 18): the prompt's bounds are never below the prompt as
// counted with its per-message framing, and the completion allowance is max_tokens, else the
// configured default (docs/ARCHITECTURE.md, "Money", "No overdraft: what is not collected").
import { describe, expect, test } from "bun:test";
import { completionAllowanceOf, estimatePrompt } from "./prompt-estimate.ts";
import type { ParsedCall } from "./read-call.ts";

const chatCall = (json: Record<string, unknown>, maxTokens?: number) =>
  ({ endpoint: "chat", json, model: String(json.model), maxTokens }) as unknown as ParsedCall;

const prompts: Record<string, unknown>[] = [
  { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] },
  { model: "gpt-4o", messages: Array.from({ length: 40 }, (_, index) => ({ role: index % 2 ? "assistant" : "user", content: "" })) },
  {
    model: "gpt-4o-mini",
    messages: [
      { role: "system", content: "You are terse." },
      { role: "user", name: "alice", content: "Explain tokenizers in one line." },
    ],
  },
  {
    model: "gpt-3.5-turbo",
    messages: [
      { role: "user", content: "一二三四五六七八九十，这是一个中文句子。" },
      { role: "assistant", content: "好的" },
    ],
  },
  {
    model: "gpt-4o",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "a b c d e f g" },
          { type: "text", text: "🙂🙂🙂" },
        ],
      },
    ],
  },
  {
    model: "gpt-4o",
    messages: [{ role: "user", content: "weather?" }],
    tools: [
      {
        type: "function",
        function: {
          name: "weather",
          description: "Weather of a city",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ],
  },
];

describe("the prompt's bound", () => {
  for (const json of prompts) {
    test(`never below the counted prompt: ${JSON.stringify(json).slice(0, 60)}`, () => {
      const estimate = estimatePrompt(chatCall(json));
      const counted = estimate.count();
      expect(counted).toBeGreaterThan(0);
      expect(estimate.tightBound()).toBeGreaterThanOrEqual(counted);
      expect(estimate.bound).toBeGreaterThanOrEqual(estimate.tightBound());
    });
  }
});

describe("the completion allowance", () => {
  test("max_tokens when the client set it, else the configured default (or a kind's own, if more)", () => {
    const json = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] };
    expect(completionAllowanceOf(chatCall(json, 64), 500)).toBe(64);
    expect(completionAllowanceOf(chatCall(json), 500)).toBe(500);
    expect(completionAllowanceOf(chatCall(json), 500, 4096)).toBe(4096);
  });
});
