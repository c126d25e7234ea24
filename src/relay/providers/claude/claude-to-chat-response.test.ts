import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { claudeStreamError, parseClaudeError } from "./claude-to-chat-errors.ts";
import { convertClaudeResponse, finishReasonOf } from "./claude-to-chat-response.ts";
import { claudeUsage } from "./claude-usage.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

const message = {
  id: "msg_01",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-20250514",
  content: [
    { type: "thinking", thinking: "Paris is in France.", signature: "sig" },
    { type: "text", text: "Let me look it up." },
    { type: "tool_use", id: "toolu_9", name: "weather", input: { city: "Paris" } },
  ],
  stop_reason: "tool_use",
  stop_sequence: null,
  usage: { input_tokens: 20, cache_creation_input_tokens: 100, cache_read_input_tokens: 300, output_tokens: 42 },
};

describe("a whole Claude answer", () => {
  test("becomes a chat.completion: text, reasoning_content, tool_calls, finish reason, usage with cache parts", () => {
    const converted = convertClaudeResponse(
      testCall({ model: "claude-sonnet-4-20250514", messages: [] }),
      bytes(message),
      "application/json",
    );
    const body = JSON.parse(converted.body as string);
    expect(body).toMatchObject({
      id: "msg_01",
      object: "chat.completion",
      model: "claude-sonnet-4-20250514",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Let me look it up.",
            reasoning_content: "Paris is in France.",
            tool_calls: [{ id: "toolu_9", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: {
        prompt_tokens: 420,
        completion_tokens: 42,
        total_tokens: 462,
        prompt_tokens_details: { cached_tokens: 300, cache_creation_tokens: 100 },
      },
    });
    expect(converted.usage).toEqual({
      prompt_tokens: 420,
      completion_tokens: 42,
      total_tokens: 462,
      cached_tokens: 300,
      cache_creation_tokens: 100,
    });
    expect(converted.output()).toEqual({ text: 'Paris is in France.Let me look it up.weather{"city":"Paris"}', toolCalls: 1 });
  });

  test("a client in Claude's own format gets the bytes untouched, usage read", () => {
    const raw = bytes(message);
    const converted = convertClaudeResponse(testCall({ model: "m" }, { format: "claude" }), raw, "application/json");
    expect(converted.body).toBe(raw);
    expect(converted.usage?.prompt_tokens).toBe(420);
  });

  test("an error object or an unreadable body is an error, not an answer", () => {
    const error = convertClaudeResponse(
      testCall({ model: "m" }),
      bytes({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
      "application/json",
    );
    expect(error.error).toEqual({ message: "Overloaded", type: "overloaded_error", code: "overloaded_error", param: null });
    expect(convertClaudeResponse(testCall({ model: "m" }), new TextEncoder().encode("<html>"), "text/html").error?.code).toBe(
      "bad_response_body",
    );
  });

  test("stop reasons: end_turn and stop_sequence stop, max_tokens is length, tool_use is tool_calls, refusal is content_filter", () => {
    expect(["end_turn", "stop_sequence", "max_tokens", "tool_use", "refusal", "pause_turn"].map(finishReasonOf)).toEqual([
      "stop",
      "stop",
      "length",
      "tool_calls",
      "content_filter",
      "stop",
    ]);
  });

  test("usage: the three input parts add up to prompt_tokens; bad counts are 0; nothing reported is null", () => {
    expect(claudeUsage({ input_tokens: 5, output_tokens: 7 })).toEqual({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 });
    expect(claudeUsage({ input_tokens: -3, output_tokens: "x" })).toBeNull();
  });
});

describe("Claude errors", () => {
  test("the error type is kept, so the relay's rules can read it", () => {
    expect(parseClaudeError(529, JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }))).toEqual({
      message: "Overloaded",
      type: "overloaded_error",
      code: "overloaded_error",
      param: null,
    });
    expect(
      parseClaudeError(401, JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } })).type,
    ).toBe("authentication_error");
    expect(parseClaudeError(502, "<html>bad gateway</html>")).toMatchObject({ code: "bad_response_status_code", param: "502" });
  });

  test("an error event in a stream", () => {
    const data = JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    expect(claudeStreamError({ raw: `event: error\ndata: ${data}\n\n`, event: "error", data })?.type).toBe("overloaded_error");
    expect(claudeStreamError({ raw: "", event: "ping", data: '{"type":"ping"}' })).toBeUndefined();
  });
});
