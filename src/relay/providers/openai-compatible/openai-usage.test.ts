import { describe, expect, test } from "bun:test";
import { findUsageQuickly, normalizeUsage, outputOfBody, usageOfBody } from "./openai-usage.ts";

describe("usage", () => {
  test("normalised to integers; bad values become 0; all-zero is none", () => {
    expect(normalizeUsage({ prompt_tokens: 10, completion_tokens: "5", total_tokens: 15 })).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
    });
    expect(normalizeUsage({ prompt_tokens: -3, completion_tokens: NaN })).toBeNull();
    expect(normalizeUsage({ input_tokens: 4, output_tokens: 6 })).toEqual({ prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 });
    expect(normalizeUsage({ total_tokens: 12 })).toEqual({ prompt_tokens: 12, completion_tokens: 0, total_tokens: 12 });
    expect(normalizeUsage(null)).toBeNull();
    expect(
      normalizeUsage({
        prompt_tokens: 100,
        completion_tokens: 50,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 30 },
      }),
    ).toEqual({ prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, cached_tokens: 40, reasoning_tokens: 30 });
  });

  test("found at the end of a body without parsing it all", () => {
    const body = JSON.stringify({ data: [{ embedding: [1, 2, 3] }], usage: { prompt_tokens: 8, total_tokens: 8, details: { a: "}" } } });
    expect(findUsageQuickly(body)).toEqual({ prompt_tokens: 8, completion_tokens: 0, total_tokens: 8 });
    expect(findUsageQuickly('{"usage":null}')).toBeNull();
    expect(findUsageQuickly('{"choices":[]}')).toBeUndefined();
  });

  test("rerank vendors' meta forms", () => {
    expect(usageOfBody({ meta: { tokens: { input_tokens: 9, output_tokens: 0 } } })).toEqual({
      prompt_tokens: 9,
      completion_tokens: 0,
      total_tokens: 9,
    });
    expect(usageOfBody({ meta: { billed_units: { search_units: 1 } } })).toEqual({
      prompt_tokens: 1,
      completion_tokens: 0,
      total_tokens: 1,
    });
  });

  test("generated output: content, reasoning, tool calls, completion text, transcripts", () => {
    expect(
      outputOfBody({
        choices: [
          { message: { content: "Hi", reasoning_content: " think", tool_calls: [{ id: "c1", function: { name: "f", arguments: "{}" } }] } },
        ],
      }),
    ).toEqual({ text: "Hi thinkf{}", toolCalls: 1 });
    expect(outputOfBody({ choices: [{ text: "done" }] })).toEqual({ text: "done", toolCalls: 0 });
    expect(outputOfBody({ text: "spoken words" })).toEqual({ text: "spoken words", toolCalls: 0 });
  });
});
