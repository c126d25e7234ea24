import { describe, expect, test } from "bun:test";
import type { SseEvent } from "../adaptor.ts";
import { buildResponsesBody, convertResponsesAnswer, createResponsesStreamConverter } from "./responses-passthrough.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";

const event = (type: string, payload: Record<string, unknown>): SseEvent => {
  const data = JSON.stringify({ type, ...payload });
  return { raw: `event: ${type}\ndata: ${data}\n\n`, event: type, data };
};
const usage = {
  input_tokens: 30,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 5 },
  total_tokens: 42,
};

describe("the Responses API passed through", () => {
  test("the body changes only for another model name", () => {
    const call = testCall({ model: "gpt-x", input: "hi" }, { format: "responses" });
    expect(buildResponsesBody(call, "gpt-x")).toBe(call.rawBody);
    expect(JSON.parse(buildResponsesBody({ ...call, upstreamModel: "dep" }, "dep") as string)).toEqual({ model: "dep", input: "hi" });
  });

  test("a whole answer: untouched, usage and output read", () => {
    const body = new TextEncoder().encode(
      JSON.stringify({
        id: "resp_1",
        status: "completed",
        output: [
          { type: "message", content: [{ type: "output_text", text: "Hi there" }] },
          { type: "function_call", name: "f", arguments: "{}" },
        ],
        usage,
      }),
    );
    const converted = convertResponsesAnswer(testCall({ model: "m" }), body, "application/json");
    expect(converted.body).toBe(body);
    expect(converted.usage).toEqual({ prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, cached_tokens: 10, reasoning_tokens: 5 });
    expect(converted.output()).toEqual({ text: "Hi theref{}", toolCalls: 1 });
    expect(
      convertResponsesAnswer(
        testCall({ model: "m" }),
        new TextEncoder().encode('{"status":"failed","error":{"code":"server_error","message":"boom"}}'),
        "application/json",
      ).error?.message,
    ).toBe("boom");
  });

  test("a stream: events forwarded as received, finished at response.completed with its usage", () => {
    const converter = createResponsesStreamConverter(testCall({ model: "m", stream: true }), () => 0);
    const created = event("response.created", { sequence_number: 0, response: { id: "resp_1", status: "in_progress", error: null } });
    expect(converter.push(created)).toEqual([created.raw]);
    converter.push(
      event("response.output_item.added", {
        sequence_number: 1,
        output_index: 0,
        item: { type: "function_call", name: "lookup", arguments: "" },
      }),
    );
    converter.push(event("response.function_call_arguments.delta", { sequence_number: 2, delta: '{"q":1}' }));
    converter.push(event("response.output_text.delta", { sequence_number: 3, delta: "Hello" }));
    expect(converter.finished()).toBe(false);
    expect(converter.output()).toEqual({ text: 'lookup{"q":1}Hello', toolCalls: 1 });
    const aborted = converter.abort!({ status: 502, message: "cut", type: "upstream_error", code: "upstream_stream_broken", param: null });
    expect(JSON.parse(aborted[0]!.split("data: ")[1]!)).toEqual({
      type: "error",
      sequence_number: 4,
      code: "upstream_stream_broken",
      message: "cut",
      param: null,
    });
    converter.push(event("response.completed", { sequence_number: 4, response: { status: "completed", usage } }));
    expect(converter.finished()).toBe(true);
    expect(converter.usage()).toMatchObject({ prompt_tokens: 30, completion_tokens: 12 });
    expect(converter.finish()).toEqual([]);
  });
});
