import { describe, expect, test } from "bun:test";
import type { SseEvent, StreamConverter } from "../providers/adaptor.ts";
import { createOpenAIStreamConverter } from "../providers/openai-compatible/openai-stream.ts";
import { testCall } from "../../../tests/helpers/test-call.ts";
import { createSseParser } from "../upstream/sse.ts";
import { claudeStreamTranslator } from "./claude/chat-to-claude-stream.ts";
import { geminiStreamTranslator } from "./gemini/chat-to-gemini-stream.ts";
import type { ChunkTranslator } from "./inbound-codec.ts";
import { responsesStreamTranslator } from "./responses/responses-stream.ts";
import { translateStream } from "./translate-stream.ts";

const sse = (data: string): SseEvent => ({ raw: `data: ${data}\n\n`, event: "", data });
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  sse(
    JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 7,
      model: "up-model",
      choices: [{ index: 0, delta, finish_reason: finish }],
    }),
  );
const usageChunk = sse(
  JSON.stringify({
    id: "chatcmpl-1",
    choices: [],
    usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29, completion_tokens_details: { reasoning_tokens: 4 } },
  }),
);
const countWords = (output: { text: string }) => output.text.split(" ").filter(Boolean).length;

/** A reasoning + text + tool call answer, as an OpenAI-style upstream streams it. */
const upstream = [
  chunk({ role: "assistant", content: "" }),
  chunk({ reasoning_content: "Think " }),
  chunk({ reasoning_content: "more" }),
  chunk({ content: "Hello " }),
  chunk({ content: "world" }),
  chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: "" } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
  chunk({}, "tool_calls"),
  usageChunk,
  sse("[DONE]"),
];

function run(translator: ChunkTranslator, events: SseEvent[], withUsage = true) {
  const call = testCall(
    { model: "client-model", messages: [], stream: true, stream_options: { include_usage: true } },
    { countPromptTokens: () => 20 },
  );
  const inner: StreamConverter = createOpenAIStreamConverter(call, countWords);
  const converter = translateStream(inner, translator, () => ({
    prompt_tokens: 20,
    completion_tokens: countWords(inner.output()),
    total_tokens: 0,
  }));
  const parser = createSseParser();
  const out: SseEvent[] = [];
  for (const event of events.filter((event) => withUsage || event !== usageChunk))
    for (const text of converter.push(event)) out.push(...parser.push(text));
  return { out, converter, inner };
}

const request = { model: "client-model" };
const native = (extra: Record<string, unknown> = {}) => ({
  model: "client-model",
  request: { ...request, ...extra },
  countPromptTokens: () => 15,
});

describe("OpenAI chunks into Anthropic events", () => {
  test("the full event sequence, with blocks per kind and the final usage", () => {
    const { out, converter } = run(claudeStreamTranslator(native()), upstream);
    expect(out.map((event) => event.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const data = out.map((event) => JSON.parse(event.data));
    expect(data[0].message).toMatchObject({
      role: "assistant",
      model: "up-model",
      content: [],
      usage: { input_tokens: 15, output_tokens: 0 },
    });
    expect(data[2]).toEqual({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } });
    expect(data[3].delta).toEqual({ type: "thinking_delta", thinking: "Think " });
    expect(data[7].delta).toEqual({ type: "text_delta", text: "Hello " });
    expect(data[10]).toEqual({
      type: "content_block_start",
      index: 2,
      content_block: { type: "tool_use", id: "call_1", name: "lookup", input: {} },
    });
    expect(data[11].delta).toEqual({ type: "input_json_delta", partial_json: '{"q":' });
    expect(data[14]).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { input_tokens: 20, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(converter.finished()).toBe(true);
    expect(converter.usage()).toMatchObject({ prompt_tokens: 20, completion_tokens: 9 });
  });

  test("without upstream usage the closing usage is the local count the settlement bills", () => {
    const { out } = run(claudeStreamTranslator(native()), [chunk({ content: "one two three" }), chunk({}, "length"), sse("[DONE]")], false);
    const delta = JSON.parse(out.find((event) => event.event === "message_delta")!.data);
    expect(delta.delta.stop_reason).toBe("max_tokens");
    expect(delta.usage).toMatchObject({ input_tokens: 20, output_tokens: 3 });
  });

  test("a break mid-stream ends with an error event", () => {
    const { converter } = run(claudeStreamTranslator(native()), [chunk({ content: "Hi" })]);
    const [text] = converter.abort!({ status: 502, message: "cut", type: "upstream_error", code: "upstream_stream_broken", param: null });
    expect(text).toBe('event: error\ndata: {"type":"error","error":{"type":"api_error","message":"cut"}}\n\n');
    expect(converter.abort!({ status: 502, message: "again", type: "x", code: null, param: null })).toEqual([]);
  });
});

describe("OpenAI chunks into Responses events", () => {
  test("typed events with sequence numbers, items in order, response.completed with usage", () => {
    const { out } = run(responsesStreamTranslator(native({ instructions: "Be brief", tools: [] })), upstream);
    const data = out.map((event) => JSON.parse(event.data));
    expect(out.map((event) => event.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(data.map((event) => event.sequence_number)).toEqual(data.map((_, index) => index));
    expect(out.every((event, index) => data[index].type === event.event)).toBe(true);
    expect(data[0].response).toMatchObject({
      object: "response",
      status: "in_progress",
      model: "up-model",
      instructions: "Be brief",
      output: [],
    });
    expect(data[13]).toMatchObject({ type: "response.output_text.done", output_index: 1, content_index: 0, text: "Hello world" });
    expect(data[19]).toMatchObject({
      type: "response.function_call_arguments.done",
      output_index: 2,
      arguments: '{"q":"x"}',
      name: "lookup",
    });
    const final = data[21].response;
    expect(final.status).toBe("completed");
    expect(final.output.map((item: { type: string }) => item.type)).toEqual(["reasoning", "message", "function_call"]);
    expect(final.output[0].summary).toEqual([{ type: "summary_text", text: "Think more" }]);
    expect(final.output[2]).toMatchObject({
      type: "function_call",
      status: "completed",
      call_id: "call_1",
      name: "lookup",
      arguments: '{"q":"x"}',
    });
    expect(final.usage).toEqual({
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: 29,
    });
  });

  test("a length finish is response.incomplete; a break is response.failed", () => {
    const { out, converter } = run(responsesStreamTranslator(native()), [
      chunk({ content: "a" }),
      chunk({}, "length"),
      usageChunk,
      sse("[DONE]"),
    ]);
    const last = JSON.parse(out.at(-1)!.data);
    expect(last.type).toBe("response.incomplete");
    expect(last.response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    const broken = run(responsesStreamTranslator(native()), [chunk({ content: "a" })]);
    const failed = JSON.parse(
      createSseParser().push(
        broken.converter.abort!({ status: 504, message: "slow", type: "upstream_error", code: "upstream_timeout", param: null }).join(""),
      )[0]!.data,
    );
    expect(failed).toMatchObject({
      type: "response.failed",
      response: { status: "failed", error: { code: "upstream_timeout", message: "slow" } },
    });
    expect(converter.finished()).toBe(true);
  });
});

describe("OpenAI chunks into Gemini responses", () => {
  test("text pieces as they come, thoughts only when asked, function calls whole at the end with usage", () => {
    const { out } = run(geminiStreamTranslator(native({ generationConfig: { thinkingConfig: { includeThoughts: true } } })), upstream);
    const data = out.map((event) => JSON.parse(event.data));
    expect(data.map((response) => response.candidates[0].content?.parts)).toEqual([
      [{ text: "Think ", thought: true }],
      [{ text: "more", thought: true }],
      [{ text: "Hello " }],
      [{ text: "world" }],
      [{ functionCall: { id: "call_1", name: "lookup", args: { q: "x" } } }],
    ]);
    expect(data.at(-1)).toMatchObject({
      candidates: [{ finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, thoughtsTokenCount: 4, totalTokenCount: 29 },
      modelVersion: "up-model",
      responseId: "chatcmpl-1",
    });
    const plain = run(geminiStreamTranslator(native()), upstream).out.map((event) => JSON.parse(event.data));
    expect(plain.some((response) => JSON.stringify(response).includes('"thought"'))).toBe(false);
  });
});
