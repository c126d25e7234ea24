// Gemini answers, errors and embeddings as the OpenAI client expects them.
import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { geminiStreamError, parseGeminiError } from "./gemini-to-chat-errors.ts";
import { convertGeminiEmbeddings, embeddingsRequestOf } from "./gemini-embeddings.ts";
import { convertGeminiChat } from "./gemini-to-chat-response.ts";
import { usageOfMetadata } from "./gemini-usage.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const chat = testCall({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] });
const body = (converted: { body: unknown }) => JSON.parse(String(converted.body));

describe("whole answers", () => {
  test("text, thoughts and usage (thoughts are completion and reasoning tokens; cached tokens reported)", () => {
    const converted = convertGeminiChat(
      chat,
      bytes({
        responseId: "abc",
        candidates: [
          {
            index: 0,
            finishReason: "STOP",
            content: { role: "model", parts: [{ text: "Let me think.", thought: true }, { text: "Hello" }, { text: " there" }] },
          },
        ],
        usageMetadata: {
          promptTokenCount: 12,
          candidatesTokenCount: 3,
          thoughtsTokenCount: 5,
          cachedContentTokenCount: 4,
          totalTokenCount: 20,
        },
      }),
    );
    expect(converted.usage).toEqual({ prompt_tokens: 12, completion_tokens: 8, total_tokens: 20, reasoning_tokens: 5, cached_tokens: 4 });
    const answer = body(converted);
    expect(answer).toMatchObject({ id: "chatcmpl-abc", object: "chat.completion", model: "gemini-2.5-flash" });
    expect(answer.choices).toEqual([
      { index: 0, message: { role: "assistant", content: "Hello there", reasoning_content: "Let me think." }, finish_reason: "stop" },
    ]);
    expect(answer.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 8,
      total_tokens: 20,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
    expect(converted.output()).toEqual({ text: "Hello thereLet me think.", toolCalls: 0 });
  });

  test("function calls become tool_calls (finish tool_calls), the thought signature kept in extra_content", () => {
    const answer = body(
      convertGeminiChat(
        chat,
        bytes({
          candidates: [
            {
              finishReason: "STOP",
              content: { role: "model", parts: [{ functionCall: { name: "weather", args: { city: "Paris" } }, thoughtSignature: "c2ln" }] },
            },
          ],
        }),
      ),
    );
    const message = answer.choices[0].message;
    expect(answer.choices[0].finish_reason).toBe("tool_calls");
    expect(message.content).toBeNull();
    expect(message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        type: "function",
        function: { name: "weather", arguments: '{"city":"Paris"}' },
        extra_content: { google: { thought_signature: "c2ln" } },
      },
    ]);
  });

  test("finish reasons: MAX_TOKENS is length, the safety family content_filter", () => {
    const reasons = ["MAX_TOKENS", "SAFETY", "RECITATION", "PROHIBITED_CONTENT", "STOP"].map(
      (finishReason) =>
        body(convertGeminiChat(chat, bytes({ candidates: [{ finishReason, content: { parts: [{ text: "x" }] } }] }))).choices[0]
          .finish_reason,
    );
    expect(reasons).toEqual(["length", "content_filter", "content_filter", "content_filter", "stop"]);
  });

  test("a blocked prompt is an error the client gets as a 400", () => {
    const converted = convertGeminiChat(chat, bytes({ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 5 } }));
    expect(converted.error).toMatchObject({ type: "invalid_request_error", code: "prompt_blocked", status: 400 });
    expect(converted.error!.message).toContain("SAFETY");
  });

  test("usage: tool-use prompt tokens count as prompt, all zero is none", () => {
    expect(usageOfMetadata({ promptTokenCount: 10, toolUsePromptTokenCount: 6, candidatesTokenCount: 2 })).toEqual({
      prompt_tokens: 16,
      completion_tokens: 2,
      total_tokens: 18,
    });
    expect(usageOfMetadata({ promptTokenCount: 0 })).toBeNull();
    expect(usageOfMetadata(undefined)).toBeNull();
  });
});

describe("errors", () => {
  const rpc = (code: number, status: string, message: string, reason?: string) =>
    JSON.stringify({
      error: {
        code,
        message,
        status,
        ...(reason ? { details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "googleapis.com" }] } : {}),
      },
    });

  test("an invalid key is an authentication error; PERMISSION_DENIED a permission error (both disable the channel)", () => {
    expect(
      parseGeminiError(400, rpc(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", "API_KEY_INVALID")),
    ).toEqual({
      message: "API key not valid. Please pass a valid API key.",
      type: "authentication_error",
      code: "invalid_api_key",
      param: null,
    });
    expect(parseGeminiError(403, rpc(403, "PERMISSION_DENIED", "Permission denied"))).toMatchObject({ type: "permission_error" });
  });

  test("quota, server and argument errors keep their status name as the code", () => {
    expect(parseGeminiError(429, rpc(429, "RESOURCE_EXHAUSTED", "Quota exceeded"))).toMatchObject({
      type: "rate_limit_error",
      code: "RESOURCE_EXHAUSTED",
    });
    expect(parseGeminiError(503, rpc(503, "UNAVAILABLE", "overloaded"))).toMatchObject({ type: "server_error", code: "UNAVAILABLE" });
    expect(parseGeminiError(400, rpc(400, "INVALID_ARGUMENT", "bad role"))).toMatchObject({
      type: "invalid_request_error",
      code: "INVALID_ARGUMENT",
      message: "bad role",
    });
    expect(parseGeminiError(502, "<html>bad gateway</html>")).toMatchObject({ code: "bad_response_status_code", param: "502" });
    expect(parseGeminiError(500, `[${rpc(500, "INTERNAL", "boom")}]`)).toMatchObject({ message: "boom", type: "server_error" });
  });

  test("a stream opening with an error or a blocked prompt fails; in Gemini's own format the blocked prompt passes", () => {
    const event = (data: unknown) => ({ raw: "", event: "", data: JSON.stringify(data) });
    expect(
      geminiStreamError(event({ error: { code: 429, message: "slow down", status: "RESOURCE_EXHAUSTED" } }), { format: "openai" }),
    ).toMatchObject({ message: "slow down" });
    expect(geminiStreamError(event({ promptFeedback: { blockReason: "OTHER" } }), { format: "openai" })).toMatchObject({ status: 400 });
    expect(geminiStreamError(event({ promptFeedback: { blockReason: "OTHER" } }), { format: "gemini" })).toBeUndefined();
    expect(
      geminiStreamError(event({ candidates: [{ content: { parts: [{ text: "the word error" }] } }] }), { format: "openai" }),
    ).toBeUndefined();
  });
});

describe("embeddings", () => {
  test("one text is embedContent, a list batchEmbedContents; dimensions is outputDimensionality", () => {
    expect(embeddingsRequestOf({ input: "hello" }, "gemini-embedding-001")).toEqual({
      method: "embedContent",
      body: { content: { parts: [{ text: "hello" }] } },
    });
    expect(embeddingsRequestOf({ input: ["a", "b"], dimensions: 8 }, "gemini-embedding-001")).toEqual({
      method: "batchEmbedContents",
      body: {
        requests: ["a", "b"].map((text) => ({
          model: "models/gemini-embedding-001",
          content: { parts: [{ text }] },
          outputDimensionality: 8,
        })),
      },
    });
    expect(() => embeddingsRequestOf({ input: [1, 2, 3] }, "m")).toThrow();
  });

  test("vectors as floats or base64 float32, usage counted locally", () => {
    const call = testCall({ model: "gemini-embedding-001", input: ["a", "b"], encoding_format: "base64" }, { endpoint: "embeddings" });
    const converted = convertGeminiEmbeddings(call, bytes({ embeddings: [{ values: [0.5, -1] }, { values: [2, 0.25] }] }));
    const answer = body(converted);
    expect(answer.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
    expect(converted.usage).toBeNull();
    const decoded = answer.data.map((entry: { embedding: string }) => [
      ...new Float32Array(Buffer.from(entry.embedding, "base64").buffer.slice(0)),
    ]);
    expect(decoded).toEqual([
      [0.5, -1],
      [2, 0.25],
    ]);
    const floats = body(
      convertGeminiEmbeddings(testCall({ model: "m", input: "a" }, { endpoint: "embeddings" }), bytes({ embedding: { values: [0.1] } })),
    );
    expect(floats.data).toEqual([{ object: "embedding", index: 0, embedding: [0.1] }]);
  });
});
