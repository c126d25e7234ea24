import { describe, expect, test } from "bun:test";
import type { SseEvent } from "../adaptor.ts";
import { createOpenAIStreamConverter } from "./openai-stream.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";

const event = (data: string): SseEvent => ({ raw: `data: ${data}\n\n`, event: "", data });
const chunk = (content: string) =>
  event(
    JSON.stringify({
      id: "c1",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta: { content } }],
      usage: null,
    }),
  );
const usageChunk = event(
  JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [],
    usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 },
  }),
);
const countWords = (output: { text: string }) => output.text.split(" ").filter(Boolean).length;

describe("the OpenAI stream converter", () => {
  test("chunks pass through as received; the usage chunk the client did not ask for is withheld", () => {
    const converter = createOpenAIStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    expect(converter.push(chunk("Hello "))).toEqual([chunk("Hello ").raw]);
    expect(converter.push(usageChunk)).toEqual([]);
    expect(converter.finished()).toBe(false);
    expect(converter.push(event("[DONE]"))).toEqual(["data: [DONE]\n\n"]);
    expect(converter.finished()).toBe(true);
    expect(converter.usage()).toEqual({ prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 });
    expect(converter.finish()).toEqual([]);
  });

  test("a client that asked gets the usage chunk", () => {
    const converter = createOpenAIStreamConverter(
      testCall({ model: "m", messages: [], stream: true, stream_options: { include_usage: true } }, { countPromptTokens: () => 5 }),
      countWords,
    );
    expect(converter.push(usageChunk)).toEqual([usageChunk.raw]);
  });

  test("without upstream usage, a client that asked gets one counted locally before [DONE]", () => {
    const converter = createOpenAIStreamConverter(
      testCall({ model: "m", messages: [], stream: true, stream_options: { include_usage: true } }, { countPromptTokens: () => 5 }),
      countWords,
    );
    converter.push(chunk("one two "));
    converter.push(chunk("three"));
    const closing = converter.push(event("[DONE]"));
    expect(closing).toHaveLength(2);
    expect(JSON.parse(closing[0]!.slice(6))).toMatchObject({
      id: "c1",
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
    expect(closing[1]).toBe("data: [DONE]\n\n");
    expect(converter.usage()).toBeNull();
    expect(converter.output()).toEqual({ text: "one two three", toolCalls: 0 });
  });

  test("a long answer keeps a bounded part of itself for counting, and counts the rest as it goes", () => {
    const converter = createOpenAIStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    const piece = "word ".repeat(200);
    for (let index = 0; index < 3000; index++) converter.push(chunk(piece));
    const output = converter.output();
    // 3 MB of text went by; at most about 256 KB of it is kept, the rest is a rough count (a
    // quarter token per ASCII character: 5 characters a word here, so above the word count).
    expect(output.text.length).toBeLessThan(400 * 1024);
    const keptWords = countWords(output);
    expect(output.countedTokens).toBe(Math.ceil(((3000 * 200 - keptWords) * 5) / 4));
  });

  test("an upstream that ends without [DONE] is closed properly", () => {
    const converter = createOpenAIStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    converter.push(chunk("x"));
    expect(converter.finish()).toEqual(["data: [DONE]\n\n"]);
  });

  test("usage sent twice counts once (the last report wins)", () => {
    const converter = createOpenAIStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    converter.push(usageChunk);
    converter.push(usageChunk);
    expect(converter.usage()!.completion_tokens).toBe(2);
  });

  test("usage inside a chunk with choices is kept and the chunk forwarded", () => {
    const converter = createOpenAIStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    const last = event(
      JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 3, completion_tokens: 4 } }),
    );
    expect(converter.push(last)).toEqual([last.raw]);
    expect(converter.usage()!.completion_tokens).toBe(4);
  });
});
