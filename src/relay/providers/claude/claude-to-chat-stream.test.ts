import { describe, expect, test } from "bun:test";
import type { SseEvent } from "../adaptor.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createClaudeNativeStreamConverter, nativeClaudeEdits } from "./claude-native.ts";
import { createClaudeStreamConverter } from "./claude-to-chat-stream.ts";

const countWords = (output: { text: string }) => output.text.split(/\s+/).filter(Boolean).length;
const event = (type: string, body: Record<string, unknown>): SseEvent => {
  const data = JSON.stringify({ type, ...body });
  return { raw: `event: ${type}\ndata: ${data}\n\n`, event: type, data };
};

/** A streamed answer with thinking, text and a tool call, as Anthropic sends it. */
const answer: SseEvent[] = [
  event("message_start", {
    message: {
      id: "msg_7",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-20250514",
      content: [],
      usage: { input_tokens: 12, cache_read_input_tokens: 30, output_tokens: 1 },
    },
  }),
  event("ping", {}),
  event("content_block_start", { index: 0, content_block: { type: "thinking", thinking: "" } }),
  event("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "Check the weather." } }),
  event("content_block_delta", { index: 0, delta: { type: "signature_delta", signature: "EqQ" } }),
  event("content_block_stop", { index: 0 }),
  event("content_block_start", { index: 1, content_block: { type: "text", text: "" } }),
  event("content_block_delta", { index: 1, delta: { type: "text_delta", text: "One moment." } }),
  event("content_block_stop", { index: 1 }),
  event("content_block_start", { index: 2, content_block: { type: "tool_use", id: "toolu_3", name: "weather", input: {} } }),
  event("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: "" } }),
  event("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: '{"city": "Pa' } }),
  event("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: 'ris"}' } }),
  event("content_block_stop", { index: 2 }),
  event("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 55 } }),
  event("message_stop", {}),
];

const chunks = (texts: string[]) => texts.filter((text) => text !== "data: [DONE]\n\n").map((text) => JSON.parse(text.slice(6)));

describe("Claude stream -> OpenAI chunks", () => {
  test("role, reasoning, the signed thinking block, text and tool-call deltas, finish reason, [DONE]", () => {
    const converter = createClaudeStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    const out = answer.flatMap((item) => converter.push(item));
    expect(out[out.length - 1]).toBe("data: [DONE]\n\n");
    const deltas = chunks(out).map((chunk) => [chunk.choices[0].delta, chunk.choices[0].finish_reason]);
    expect(deltas).toEqual([
      [{ role: "assistant", content: "" }, null],
      [{ reasoning_content: "Check the weather." }, null],
      // The signed block, whole, once it ends: what the next turn gives back.
      [
        { extra_content: { anthropic: { thinking_blocks: [{ type: "thinking", thinking: "Check the weather.", signature: "EqQ" }] } } },
        null,
      ],
      [{ content: "One moment." }, null],
      [{ tool_calls: [{ index: 0, id: "toolu_3", type: "function", function: { name: "weather", arguments: "" } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"city": "Pa' } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] }, null],
      [{}, "tool_calls"],
    ]);
    expect(
      chunks(out).every(
        (chunk) => chunk.id === "msg_7" && chunk.object === "chat.completion.chunk" && chunk.model === "claude-sonnet-4-20250514",
      ),
    ).toBe(true);
    expect(converter.finished()).toBe(true);
    expect(converter.finish()).toEqual([]);
    expect(converter.usage()).toEqual({ prompt_tokens: 42, completion_tokens: 55, total_tokens: 97, cached_tokens: 30 });
    expect(converter.output().toolCalls).toBe(1);
  });

  test("a client that asked for usage gets the usage chunk before [DONE]", () => {
    const converter = createClaudeStreamConverter(
      testCall({ model: "m", messages: [], stream: true, stream_options: { include_usage: true } }, { countPromptTokens: () => 5 }),
      countWords,
    );
    const out = answer.flatMap((item) => converter.push(item));
    const last = chunks(out).pop();
    expect(last).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 42, completion_tokens: 55, total_tokens: 97, prompt_tokens_details: { cached_tokens: 30 } },
    });
  });

  test("a stream cut before message_delta bills what was delivered, counted locally", () => {
    const converter = createClaudeStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    for (const item of answer.slice(0, 8)) converter.push(item);
    expect(converter.usage()).toEqual({ prompt_tokens: 42, completion_tokens: 4, total_tokens: 46, cached_tokens: 30 });
  });

  test("an error event ends the stream with an OpenAI error object", () => {
    const converter = createClaudeStreamConverter(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 5 }),
      countWords,
    );
    converter.push(answer[0]!);
    const out = converter.push(event("error", { error: { type: "overloaded_error", message: "Overloaded" } }));
    expect(chunks(out)).toEqual([{ error: { message: "Overloaded", type: "overloaded_error", param: null, code: "overloaded_error" } }]);
    expect(converter.finished()).toBe(true);
  });
});

describe("Claude's own format, passed through", () => {
  test("events leave as received; usage and output are read on the way; no [DONE] is added", () => {
    const converter = createClaudeNativeStreamConverter(testCall({ model: "m", stream: true }, { format: "claude" }), countWords);
    const out = answer.flatMap((item) => converter.push(item));
    expect(out).toEqual(answer.map((item) => item.raw));
    expect(converter.finished()).toBe(true);
    expect(converter.finish()).toEqual([]);
    expect(converter.usage()).toEqual({ prompt_tokens: 42, completion_tokens: 55, total_tokens: 97, cached_tokens: 30 });
    expect(converter.output()).toEqual({ text: 'weatherCheck the weather.One moment.{"city": "Paris"}', toolCalls: 1 });
  });

  test("the body changes only where it must: the mapped model, a missing max_tokens, a -thinking suffix", () => {
    const untouched = testCall({ model: "claude-3-5-sonnet-20241022", max_tokens: 100, messages: [] }, { format: "claude" });
    expect(nativeClaudeEdits(untouched)).toBeUndefined();
    const mapped = testCall(
      { model: "alias", messages: [] },
      { format: "claude", upstreamModel: "claude-3-5-haiku-20241022", completionAllowance: 2000 },
    );
    expect(nativeClaudeEdits(mapped)).toEqual({ model: "claude-3-5-haiku-20241022", max_tokens: 2000 });
    const thinking = testCall({ model: "claude-sonnet-4-20250514-thinking", max_tokens: 10000, messages: [] }, { format: "claude" });
    expect(nativeClaudeEdits(thinking)).toEqual({ model: "claude-sonnet-4-20250514", thinking: { type: "enabled", budget_tokens: 8000 } });
  });
});
