import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertCohereChat, readCohereEvent } from "./cohere-answer.ts";
import { cohereStreamError, parseCohereError } from "./cohere-errors.ts";
import { cohereChatBody } from "./cohere-request.ts";
import { cohereRerankBody, convertCohereRerank } from "./cohere-rerank.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const event = (value: { type: string } & Record<string, unknown>) => ({ raw: "", event: value.type, data: JSON.stringify(value) });

describe("Cohere v2 chat", () => {
  test("the body: roles kept, sampling renamed, OpenAI-only fields dropped, a named tool forced", () => {
    const call = testCall({
      model: "command-r",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: { a: 1 } } }] },
        { role: "tool", tool_call_id: "c1", content: "42" },
      ],
      top_p: 0.5,
      stop: "END",
      n: 1,
      user: "u",
      max_completion_tokens: 30,
      tools: [
        { type: "function", function: { name: "f", parameters: { type: "object" } } },
        { type: "function", function: { name: "g" } },
      ],
      tool_choice: { type: "function", function: { name: "f" } },
    });
    expect(cohereChatBody(call)).toEqual({
      model: "command-r",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
        { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }] },
        { role: "tool", tool_call_id: "c1", content: "42" },
      ],
      stream: false,
      max_tokens: 30,
      p: 0.5,
      stop_sequences: ["END"],
      tool_choice: "REQUIRED",
      tools: [{ type: "function", function: { name: "f", description: "", parameters: { type: "object" } } }],
    });
  });

  test("a whole answer: text, tool plan as reasoning, tool calls, billed units as usage", () => {
    const converted = convertCohereChat(
      testCall({ model: "command-r", messages: [] }),
      bytes({
        id: "co1",
        finish_reason: "TOOL_CALL",
        message: {
          role: "assistant",
          tool_plan: "I will call f",
          tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        usage: { billed_units: { input_tokens: 9, output_tokens: 4 }, tokens: { input_tokens: 120, output_tokens: 10 } },
      }),
    );
    expect(JSON.parse(converted.body as string).choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { content: null, reasoning_content: "I will call f" },
    });
    expect(converted.usage).toEqual({ prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 });
  });

  test("a stream: text deltas, tool call start and deltas, message-end with usage", () => {
    const stream = createChunkStream(
      testCall({ model: "command-r", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
      readCohereEvent,
    );
    stream.push(event({ type: "message-start", id: "x", delta: { message: { role: "assistant" } } }));
    stream.push(event({ type: "content-delta", index: 0, delta: { message: { content: { text: "Hel" } } } }));
    stream.push(event({ type: "content-delta", index: 0, delta: { message: { content: { text: "lo" } } } }));
    const start = stream.push(
      event({
        type: "tool-call-start",
        index: 0,
        delta: { message: { tool_calls: { id: "t1", type: "function", function: { name: "f", arguments: "" } } } },
      }),
    );
    stream.push(event({ type: "tool-call-delta", index: 0, delta: { message: { tool_calls: { function: { arguments: "{}" } } } } }));
    const end = stream.push(
      event({ type: "message-end", delta: { finish_reason: "TOOL_CALL", usage: { billed_units: { input_tokens: 3, output_tokens: 2 } } } }),
    );
    expect(JSON.parse(start[0]!.slice(6)).choices[0].delta.tool_calls[0]).toEqual({
      index: 0,
      id: "t1",
      type: "function",
      function: { name: "f", arguments: "" },
    });
    expect(JSON.parse(end[0]!.slice(6)).choices[0].finish_reason).toBe("tool_calls");
    expect(end.at(-1)).toBe("data: [DONE]\n\n");
    expect(stream.usage()).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    expect(stream.output()).toEqual({ text: "Hellof{}", toolCalls: 1 });
  });

  test("errors: statuses typed, a stream ending in ERROR", () => {
    expect(parseCohereError(401, JSON.stringify({ id: "e", message: "invalid api token" }))).toMatchObject({
      message: "invalid api token",
      type: "authentication_error",
    });
    expect(parseCohereError(429, JSON.stringify({ message: "trial key limited" }))).toMatchObject({ type: "rate_limit_error" });
    expect(parseCohereError(402, "{}")).toMatchObject({ type: "insufficient_quota" });
    expect(cohereStreamError(event({ type: "message-end", delta: { finish_reason: "ERROR", error: "boom" } }))).toMatchObject({
      message: "boom",
      status: 500,
    });
  });
});

describe("Cohere rerank", () => {
  test("Jina-style request in, Cohere v2 out; documents returned from the request when asked", () => {
    const call = testCall(
      { model: "rerank-v3.5", query: "q", documents: ["a", { text: "b" }], top_n: 1, return_documents: true },
      { endpoint: "rerank" },
    );
    expect(cohereRerankBody(call)).toEqual({ model: "rerank-v3.5", query: "q", documents: ["a", "b"], top_n: 1 });
    const converted = convertCohereRerank(
      call,
      bytes({ id: "r1", results: [{ index: 1, relevance_score: 0.9 }], meta: { billed_units: { search_units: 1 } } }),
    );
    expect(JSON.parse(converted.body as string)).toEqual({
      id: "r1",
      model: "rerank-v3.5",
      results: [{ index: 1, relevance_score: 0.9, document: { text: "b" } }],
      usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 },
    });
  });
});
