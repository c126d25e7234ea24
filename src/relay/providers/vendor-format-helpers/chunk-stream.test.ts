import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream, type VendorStep } from "./chunk-stream.ts";

/** A converter whose vendor events are the steps themselves (JSON in `data`). */
const converter = (json: Record<string, unknown>) =>
  createChunkStream(
    testCall(json, { countPromptTokens: () => 4 }),
    (output) => output.text.length,
    (event) => JSON.parse(event.data) as VendorStep,
  );
const push = (stream: ReturnType<typeof converter>, step: VendorStep) => stream.push({ raw: "", event: "", data: JSON.stringify(step) });
const chunks = (texts: string[]) => texts.filter((text) => text !== "data: [DONE]\n\n").map((text) => JSON.parse(text.slice(6)));

describe("vendor streams as OpenAI chunks", () => {
  test("the role once, tool-call deltas, the finish chunk, [DONE]", () => {
    const stream = converter({ model: "m", messages: [], stream: true });
    const out = [
      ...push(stream, {
        delta: { tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: '{"a":' } }] },
      }),
      ...push(stream, { delta: { tool_calls: [{ index: 0, function: { arguments: "1}" } }] } }),
      ...push(stream, { finishReason: "tool_calls", end: true }),
    ];
    const [first, second, finish] = chunks(out);
    expect(first.choices[0].delta).toEqual({
      role: "assistant",
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: '{"a":' } }],
    });
    expect(second.choices[0].delta).toEqual({ tool_calls: [{ index: 0, function: { arguments: "1}" } }] });
    expect(finish.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "tool_calls" });
    expect(out.at(-1)).toBe("data: [DONE]\n\n");
    expect(stream.output()).toEqual({ text: 'f{"a":1}', toolCalls: 1 });
    expect(stream.finish()).toEqual([]);
  });

  test("a client that asked for usage gets one counted locally when the vendor gave none", () => {
    const stream = converter({ model: "m", messages: [], stream: true, stream_options: { include_usage: true } });
    push(stream, { delta: { content: "abc" } });
    const closing = chunks(stream.finish());
    expect(closing[0].choices[0].finish_reason).toBe("stop");
    expect(closing[1]).toMatchObject({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } });
    expect(stream.usage()).toBeNull();
  });

  test("an error ends the stream with an error event and no [DONE]", () => {
    const stream = converter({ model: "m", messages: [], stream: true });
    push(stream, { delta: { content: "partial" } });
    const out = push(stream, { error: { message: "boom", type: "upstream_error", code: 7, param: null, status: 500 } });
    expect(out).toEqual([`data: ${JSON.stringify({ error: { message: "boom", type: "upstream_error", code: 7, param: null } })}\n\n`]);
    expect(stream.finished()).toBe(true);
    expect(stream.finish()).toEqual([]);
  });
});
