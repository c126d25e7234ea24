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

describe("bounded counting (issue 15)", () => {
  const encoder = require("gpt-tokenizer/encoding/o200k_base") as { countTokens(text: string): number };

  test("ordinary text of any language is still counted exactly", () => {
    const prose = "The gateway counts every prompt before it holds quota. ".repeat(400) + "supercalifragilisticexpialidocious ".repeat(20);
    const chinese = "在这个快速发展的时代，人工智能技术正在深刻地改变着我们的生活方式和工作方式。我们需要思考：未来会怎样？".repeat(200);
    const japanese = "東京は日本の首都です。人口はとても多いです、そして交通も便利です。".repeat(200);
    const code = "function add(a, b) {\n  return a + b;\n}\nconst values = [1, 2, 3].map((value) => add(value, 10));\n".repeat(200);
    for (const text of [prose, chinese, japanese, code]) expect(countTextTokens(text, "gpt-4o")).toBe(encoder.countTokens(text));
  });

  test("runs without spaces are counted in bounded pieces, close to the exact count", () => {
    const run = "x".repeat(20_000);
    expect(countTextTokens(run, "gpt-4o")).toBe(encoder.countTokens(run));
    const base64 = Buffer.from(new Uint8Array(30_000).map((_, i) => (i * 7919) % 256)).toString("base64");
    const counted = countTextTokens(base64, "gpt-4o");
    const exact = encoder.countTokens(base64);
    expect(counted).toBeGreaterThanOrEqual(exact);
    expect(counted).toBeLessThan(exact * 1.02);
  });

  test("ten megabytes of one character: an answer at or above the real count, at once (this timed out before)", () => {
    const tokens = countTextTokens("x".repeat(10 * 1024 * 1024), "gpt-4o");
    expect(tokens).toBeGreaterThanOrEqual((10 * 1024 * 1024) / 8);
    expect(tokens).toBeLessThanOrEqual(10 * 1024 * 1024);
  });

  test("a hundred thousand messages and a megabyte of random Chinese are bounded too", () => {
    const messages = Array.from({ length: 100_000 }, (_, i) => ({ role: "user", content: `message ${i}` }));
    expect(countChatPromptTokens(messages, "gpt-4o")).toBeGreaterThan(100_000 * 5);
    const random = Array.from({ length: 1024 * 1024 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join("");
    expect(countTextTokens(random, "gpt-4o")).toBeGreaterThanOrEqual(1024 * 1024);
  });
});
