import { describe, expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { quotaForUsage } from "./quota-math.ts";
import { boundTextTokens, countChatPromptTokens, countCompletionTokens, countInputTokens, countTextTokens } from "./token-counter.ts";

/** Steps for a count that must be exact whatever it costs. */
const unbounded = Number.POSITIVE_INFINITY;
const base64 = Buffer.from(new Uint8Array(30_000).map((_, i) => (i * 7919) % 256)).toString("base64");

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

  test("ordinary text of any language is still counted exactly, 150 000 tokens of prose too, at the default budget", () => {
    const prose = "The gateway counts every prompt before it holds quota. ".repeat(400) + "supercalifragilisticexpialidocious ".repeat(20);
    const chinese = "在这个快速发展的时代，人工智能技术正在深刻地改变着我们的生活方式和工作方式。我们需要思考：未来会怎样？".repeat(200);
    const japanese = "東京は日本の首都です。人口はとても多いです、そして交通も便利です。".repeat(200);
    const code = "function add(a, b) {\n  return a + b;\n}\nconst values = [1, 2, 3].map((value) => add(value, 10));\n".repeat(200);
    for (const text of [prose, chinese, japanese, code]) expect(countTextTokens(text, "gpt-4o")).toBe(encoder.countTokens(text));
    const long = Array.from({ length: 8_000 }, (_, i) => `Paragraph ${i} of a long document, with numbers like ${i * 37} and words.`).join(
      " ",
    );
    const exact = encoder.countTokens(long);
    expect(exact).toBeGreaterThan(140_000);
    expect(countTextTokens(long, "gpt-4o")).toBe(exact);
  });

  test("runs without spaces are counted in bounded pieces, close to the exact count", () => {
    const run = "x".repeat(20_000);
    expect(countTextTokens(run, "gpt-4o", unbounded)).toBe(encoder.countTokens(run));
    const counted = countTextTokens(base64, "gpt-4o", unbounded);
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

describe("a count bounded by work, not time (issue 29)", () => {
  test("a count stops where its steps run out, at the same place every time, and estimates the rest", () => {
    const exact = countTextTokens(base64, "gpt-4o", unbounded);
    const small = countTextTokens(base64, "gpt-4o", 300_000);
    for (let round = 0; round < 5; round++) expect(countTextTokens(base64, "gpt-4o", 300_000)).toBe(small);
    expect(small).not.toBe(exact);
    expect(Math.abs(small - exact)).toBeLessThan(exact * 0.02);
    // Enough steps count it all.
    expect(countTextTokens(base64, "gpt-4o", 30_000_000)).toBe(exact);
  });

  test("a remembered text spends the steps it took: a prompt counts the same the first and the second time", () => {
    // Fresh texts (nobody counted them yet), and a budget that runs out inside the last message.
    const messages = Array.from({ length: 40 }, (_, i) => ({
      role: "user",
      content: `first count ${i}: ${base64.slice(i * 50, i * 50 + 2000)}`,
    }));
    messages.push({ role: "user", content: base64 });
    const first = countChatPromptTokens(messages, "gpt-4o", undefined, 2_000_000);
    const second = countChatPromptTokens(messages, "gpt-4o", undefined, 2_000_000);
    expect(second).toBe(first);
    // The budget did run out inside the prompt.
    expect(first).not.toBe(countChatPromptTokens(messages, "gpt-4o", undefined, unbounded));
  });

  test("the tight bound counts while the steps last and takes the rest at its bytes", () => {
    const texts = ["How much does this cost?", base64, "x".repeat(200_000)];
    const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    const exact = texts.reduce((sum, text) => sum + countTextTokens(text, "gpt-4o", unbounded), 0);
    for (const steps of [0, 50_000, 2_000_000, unbounded]) {
      const bound = boundTextTokens(texts, "gpt-4o", steps);
      expect(bound).toBeGreaterThanOrEqual(exact);
      expect(bound).toBeLessThanOrEqual(bytes);
    }
    expect(boundTextTokens(texts, "gpt-4o", 0)).toBe(bytes);
    expect(boundTextTokens(texts, "gpt-4o", unbounded)).toBe(exact);
  });

  test("the same text gets the same count and the same quota while a CPU hog runs beside it", async () => {
    // Larger than one count's budget: part counted exactly, the rest estimated.
    let seed = 29;
    const text = Buffer.from(Array.from({ length: 600_000 }, () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24)).toString(
      "base64",
    );
    const price = { kind: "ratio", modelRatio: 1.25, completionRatio: 4, groupRatio: 1 } as const;
    const quotaOf = (tokens: number) => quotaForUsage(price, { promptTokens: tokens, completionTokens: 0 }, 500_000);
    const quiet = countTextTokens(text, "gpt-4o");
    expect(quiet).not.toBe(countTextTokens(text, "gpt-4o", unbounded));
    // One busy loop per core, in workers: the counting thread gets a share of a core at best.
    const hogSource = URL.createObjectURL(new Blob(["postMessage('busy'); for (;;) {}"], { type: "application/javascript" }));
    const hogs = Array.from({ length: Math.max(2, availableParallelism()) }, () => new Worker(hogSource));
    try {
      await Promise.all(hogs.map((hog) => new Promise((resolve) => hog.addEventListener("message", resolve, { once: true }))));
      for (let round = 0; round < 3; round++) {
        const busy = countTextTokens(text, "gpt-4o");
        expect(busy).toBe(quiet);
        expect(quotaOf(busy)).toBe(quotaOf(quiet));
      }
    } finally {
      for (const hog of hogs) hog.terminate();
      URL.revokeObjectURL(hogSource);
    }
  });
});
