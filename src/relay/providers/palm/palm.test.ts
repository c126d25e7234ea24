// PaLM 2 generateMessage: the request, the answer whole and as synthesised chunks, refusals.
import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { palmAdaptor, palmModelOf } from "./palm.ts";
import { palmMessageBody } from "./palm-request.ts";
import { convertPalmResponse, createPalmStreamConverter, palmStreamError } from "./palm-response.ts";
import { wholeBodyDecoder } from "./palm-whole-body.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const answer = { candidates: [{ author: "1", content: "Hello!" }], messages: [{ author: "0", content: "hi" }], filters: [] };
const target = { id: 1, type: 11, key: "palm-key", baseUrl: "", other: "", organization: "", setting: {} };

describe("request", () => {
  test("generateMessage URL, key header, context from system messages, authors alternating", async () => {
    const call = testCall({
      model: "PaLM-2",
      temperature: 0.5,
      messages: [
        { role: "system", content: "Be nice." },
        { role: "user", content: "hi" },
        { role: "user", content: [{ type: "text", text: "again" }] },
        { role: "assistant", content: "hello" },
        { role: "user", content: "bye" },
      ],
    });
    const request = await palmAdaptor.buildRequest(call, target);
    expect(request.url).toBe("https://generativelanguage.googleapis.com/v1beta2/models/chat-bison-001:generateMessage");
    expect(request.headers["x-goog-api-key"]).toBe("palm-key");
    expect(JSON.parse(String(request.body))).toEqual({
      prompt: {
        context: "Be nice.",
        messages: [
          { author: "0", content: "hi\n\nagain" },
          { author: "1", content: "hello" },
          { author: "0", content: "bye" },
        ],
      },
      temperature: 0.5,
    });
    expect(palmModelOf("models/chat-bison-002")).toBe("chat-bison-002");
  });

  test("tools and images are refused with a 400, not dropped; other endpoints are not served (501)", async () => {
    expect(() =>
      palmMessageBody({ messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "f" } }] }),
    ).toThrow("PaLM 2 不支持工具调用");
    expect(() =>
      palmMessageBody({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] }] }),
    ).toThrow("PaLM 2 只支持文本消息");
    expect(() => palmAdaptor.buildRequest(testCall({ model: "PaLM-2", input: "x" }, { endpoint: "embeddings" }), target)).toThrow(
      "尚未实现",
    );
  });
});

describe("answers", () => {
  test("a whole answer without usage (counted locally)", () => {
    const converted = convertPalmResponse(testCall({ model: "PaLM-2", messages: [] }), bytes(answer));
    expect(converted.usage).toBeNull();
    expect(JSON.parse(String(converted.body)).choices).toEqual([
      { index: 0, message: { role: "assistant", content: "Hello!" }, finish_reason: "stop" },
    ]);
    expect(converted.output()).toEqual({ text: "Hello!", toolCalls: 0 });
  });

  test("a prompt answered only by filters is the client's 400", () => {
    const blocked = { filters: [{ reason: "SAFETY", message: "unsafe" }], messages: [] };
    expect(convertPalmResponse(testCall({ model: "PaLM-2", messages: [] }), bytes(blocked)).error).toMatchObject({
      code: "prompt_blocked",
      status: 400,
    });
    expect(palmStreamError({ raw: "", event: "", data: JSON.stringify(blocked) })).toMatchObject({ status: 400 });
    expect(palmStreamError({ raw: "", event: "", data: JSON.stringify(answer) })).toBeUndefined();
  });

  test("a streamed call: the whole body is one event at its end, synthesised into role+text, finish, usage and [DONE]", () => {
    const call = testCall({ model: "PaLM-2", messages: [], stream: true, stream_options: { include_usage: true } });
    expect(wholeBodyDecoder("application/json", { ...call, stream: false })).toBeNull();
    const decoder = wholeBodyDecoder("application/json; charset=UTF-8", call)!;
    const raw = bytes(answer);
    expect(decoder.push(raw.slice(0, 10))).toEqual([]);
    expect(decoder.push(raw.slice(10))).toEqual([]);
    expect(decoder.pending()).toBe(true);
    const [event] = decoder.flush();
    const converter = createPalmStreamConverter({ ...call, countPromptTokens: () => 5 }, (output) => output.text.length);
    const out = converter.push(event!);
    expect(converter.finished()).toBe(true);
    expect(out[out.length - 1]).toBe("data: [DONE]\n\n");
    const chunks = out.slice(0, -1).map((text) => JSON.parse(text.slice(6)));
    expect(chunks.map((chunk) => chunk.choices)).toEqual([
      [{ index: 0, delta: { role: "assistant", content: "Hello!" }, finish_reason: null }],
      [{ index: 0, delta: {}, finish_reason: "stop" }],
      [],
    ]);
    expect(chunks[2].usage).toEqual({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(converter.finish()).toEqual([]);
  });
});
