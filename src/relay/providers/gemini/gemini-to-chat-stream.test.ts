// Gemini streams (alt=sse) as OpenAI chunks, and Gemini-format streams passed through.
import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createNativeStreamConverter } from "./gemini-native.ts";
import { createGeminiStreamConverter } from "./gemini-to-chat-stream.ts";

const event = (data: unknown) => {
  const text = JSON.stringify(data);
  return { raw: `data: ${text}\r\n\r\n`, event: "", data: text };
};
const chunks = (texts: string[]) => texts.filter((text) => text !== "data: [DONE]\n\n").map((text) => JSON.parse(text.slice(6)));

describe("Gemini stream to OpenAI chunks", () => {
  test("text and thoughts as deltas, finish reason, usage chunk for a client that asked, then [DONE]", () => {
    const call = testCall({ model: "gemini-2.5-flash", messages: [], stream: true, stream_options: { include_usage: true } });
    const converter = createGeminiStreamConverter({ ...call, countPromptTokens: () => 7 }, () => 99);
    const out = [
      ...converter.push(
        event({
          responseId: "r1",
          candidates: [{ content: { role: "model", parts: [{ text: "hmm", thought: true }] } }],
          usageMetadata: { promptTokenCount: 4 },
        }),
      ),
      ...converter.push(event({ candidates: [{ content: { parts: [{ text: "Hel" }] } }] })),
      ...converter.push(
        event({
          candidates: [{ content: { parts: [{ text: "lo" }] }, finishReason: "STOP" }],
          usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, thoughtsTokenCount: 1 },
        }),
      ),
      ...converter.finish(),
    ];
    expect(out[out.length - 1]).toBe("data: [DONE]\n\n");
    const parsed = chunks(out);
    expect(parsed.every((chunk) => chunk.id === "chatcmpl-r1" && chunk.object === "chat.completion.chunk")).toBe(true);
    expect(parsed.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: "assistant", reasoning_content: "hmm" },
      { content: "Hel" },
      { content: "lo" },
      undefined,
    ]);
    expect(parsed[2].choices[0].finish_reason).toBe("stop");
    expect(parsed[3].usage).toEqual({
      prompt_tokens: 4,
      completion_tokens: 3,
      total_tokens: 7,
      completion_tokens_details: { reasoning_tokens: 1 },
    });
    expect(converter.usage()).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7, reasoning_tokens: 1 });
    expect(converter.finished()).toBe(true);
    expect(converter.finish()).toEqual([]);
  });

  test("function calls as tool_calls deltas with increasing indexes; finish tool_calls; no usage chunk unasked", () => {
    const converter = createGeminiStreamConverter(
      testCall({ model: "g", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
    );
    const out = [
      ...converter.push(
        event({ candidates: [{ content: { parts: [{ functionCall: { name: "a", args: { x: 1 } }, thoughtSignature: "s1" }] } }] }),
      ),
      ...converter.push(event({ candidates: [{ content: { parts: [{ functionCall: { name: "b", args: {} } }] }, finishReason: "STOP" }] })),
      ...converter.finish(),
    ];
    const parsed = chunks(out);
    expect(parsed).toHaveLength(2);
    const [first, second] = parsed.map((chunk) => chunk.choices[0].delta.tool_calls[0]);
    expect(first).toMatchObject({
      index: 0,
      type: "function",
      function: { name: "a", arguments: '{"x":1}' },
      extra_content: { google: { thought_signature: "s1" } },
    });
    expect(second).toMatchObject({ index: 1, function: { name: "b", arguments: "{}" } });
    expect(parsed[1].choices[0].finish_reason).toBe("tool_calls");
    expect(converter.output()).toEqual({ text: 'a{"x":1}b{}', toolCalls: 2 });
  });

  test("an upstream without usage gets a usage chunk counted locally when the client asked", () => {
    const call = testCall({ model: "g", messages: [], stream: true, stream_options: { include_usage: true } });
    const converter = createGeminiStreamConverter({ ...call, countPromptTokens: () => 7 }, (output) => output.text.length);
    converter.push(event({ candidates: [{ content: { parts: [{ text: "abcd" }] }, finishReason: "STOP" }] }));
    const usage = chunks(converter.finish())[0].usage;
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 });
    expect(converter.usage()).toBeNull();
  });

  test("an error event mid-stream is passed on as an OpenAI error and ends the stream", () => {
    const converter = createGeminiStreamConverter(
      testCall({ model: "g", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
    );
    converter.push(event({ candidates: [{ content: { parts: [{ text: "a" }] } }] }));
    const out = converter.push(event({ error: { code: 500, message: "internal", status: "INTERNAL" } }));
    expect(chunks(out)).toEqual([{ error: { message: "internal", type: "server_error", param: null, code: "INTERNAL" } }]);
    expect(converter.finished()).toBe(true);
  });
});

test("a stream that breaks before its finishing event is billed for at least what was generated", () => {
  const converter = createGeminiStreamConverter(
    testCall({ model: "g", messages: [], stream: true }, { countPromptTokens: () => 0 }),
    (output) => output.text.length,
  );
  converter.push(
    event({ candidates: [{ content: { parts: [{ text: "abcdef" }] } }], usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }),
  );
  expect(converter.usage()).toEqual({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });
  converter.push(
    event({
      candidates: [{ content: { parts: [{ text: "g" }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2 },
    }),
  );
  expect(converter.usage()).toEqual({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
});

describe("Gemini-format passthrough", () => {
  test("events leave as they came; usage and text are read on the way; nothing is added at the end", () => {
    const converter = createNativeStreamConverter(() => 0);
    const first = event({ candidates: [{ content: { parts: [{ text: "Hi" }] } }], usageMetadata: { promptTokenCount: 3 } });
    const last = event({
      candidates: [{ content: { parts: [{ text: "!" }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 },
    });
    expect([...converter.push(first), ...converter.push(last)]).toEqual([first.raw, last.raw]);
    expect(converter.finish()).toEqual([]);
    expect(converter.usage()).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    expect(converter.output()).toEqual({ text: "Hi!", toolCalls: 0 });
  });
});
