import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertErnieResponse, readErnieEvent } from "./baidu-answer.ts";
import { chatEndpointOf, embeddingEndpointOf } from "./baidu-endpoints.ts";
import { parseBaiduError } from "./baidu-errors.ts";
import { ernieChatBody } from "./baidu-request.ts";
import { baiduAccessToken, baiduAdaptor } from "./baidu.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const target = { id: 1, type: 15, key: "ak-1|sk-1", baseUrl: "", other: "", organization: "", setting: {}, credential: "24.token" };

describe("ERNIE endpoints", () => {
  test("public names map to Baidu's endpoint names; others are lower-cased", () => {
    expect(chatEndpointOf("ERNIE-4.0-8K")).toBe("completions_pro");
    expect(chatEndpointOf("ERNIE-3.5-8K")).toBe("completions");
    expect(chatEndpointOf("ERNIE-Speed-8K")).toBe("ernie_speed");
    expect(chatEndpointOf("ERNIE-4.0-Turbo-8K")).toBe("ernie-4.0-turbo-8k");
    expect(embeddingEndpointOf("Embedding-V1")).toBe("embedding-v1");
  });

  test("the URL carries the exchanged access token", async () => {
    const request = await baiduAdaptor.buildRequest(
      testCall({ model: "ERNIE-4.0-8K", messages: [{ role: "user", content: "hi" }] }),
      target,
    );
    expect(request.url).toBe("https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro?access_token=24.token");
    const token = await baiduAccessToken.request(target, 0);
    expect(token.url).toBe("https://aip.baidubce.com/oauth/2.0/token?grant_type=client_credentials&client_id=ak-1&client_secret=sk-1");
    expect(baiduAccessToken.parse('{"access_token":"24.x","expires_in":2592000}', 100)).toEqual({ value: "24.x", expiresAt: 2592100 });
    expect(() => baiduAccessToken.parse('{"error":"invalid_client"}', 100)).toThrow();
  });
});

describe("ERNIE request body", () => {
  test("system moves out, same-side turns join, tools become functions, ranges respected", () => {
    const call = testCall({
      model: "ERNIE-4.0-8K",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "first" },
        { role: "user", content: [{ type: "text", text: "second" }] },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Beijing"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "sunny" },
      ],
      temperature: 0,
      top_p: 0.5,
      max_tokens: 64,
      stop: "END",
      user: "u1",
      tools: [{ type: "function", function: { name: "weather", description: "weather", parameters: { type: "object" } } }],
      tool_choice: { type: "function", function: { name: "weather" } },
    });
    expect(ernieChatBody(call)).toEqual({
      messages: [
        { role: "user", content: "first\nsecond" },
        { role: "assistant", content: "", function_call: { name: "weather", arguments: '{"city":"Beijing"}' } },
        { role: "function", name: "weather", content: "sunny" },
      ],
      system: "be brief",
      temperature: 0.01,
      top_p: 0.5,
      max_output_tokens: 64,
      stop: ["END"],
      user_id: "u1",
      functions: [{ name: "weather", description: "weather", parameters: { type: "object" } }],
      tool_choice: { type: "function", function: { name: "weather" } },
    });
  });
});

describe("ERNIE answers", () => {
  test("a whole answer with a function call becomes a tool call", () => {
    const converted = convertErnieResponse(
      testCall({ model: "ERNIE-4.0-8K", messages: [] }),
      bytes({
        id: "as-1",
        object: "chat.completion",
        created: 1,
        result: "",
        is_truncated: false,
        need_clear_history: false,
        finish_reason: "function_call",
        function_call: { name: "weather", arguments: '{"city":"Beijing"}', thoughts: "look it up" },
        usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
      }),
    );
    const body = JSON.parse(converted.body as string);
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_as-1", type: "function", function: { name: "weather", arguments: '{"city":"Beijing"}' } }],
      },
      finish_reason: "tool_calls",
    });
    expect(body.model).toBe("ERNIE-4.0-8K");
    expect(converted.usage).toEqual({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 });
  });

  test("a stream's sentences and its last event's usage", () => {
    const converter = createChunkStream(
      testCall({ model: "ERNIE-3.5-8K", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
      readErnieEvent,
    );
    const push = (value: unknown) => converter.push({ raw: "", event: "", data: JSON.stringify(value) });
    push({ id: "as-2", sentence_id: 0, is_end: false, result: "Hel", usage: { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 } });
    const last = push({
      id: "as-2",
      sentence_id: 1,
      is_end: true,
      result: "lo",
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(last.at(-1)).toBe("data: [DONE]\n\n");
    expect(converter.usage()).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    expect(converter.output().text).toBe("Hello");
  });

  test("error codes: token rejected, rate limit, quota, auth, bad request", () => {
    const failed = (code: number) => parseBaiduError(200, JSON.stringify({ error_code: code, error_msg: `m${code}` }));
    expect(failed(110)).toMatchObject({ status: 502, type: "upstream_error", code: 110 });
    expect(baiduAccessToken.rejected!(failed(111))).toBe(true);
    expect(baiduAccessToken.rejected!(failed(18))).toBe(false);
    expect(failed(18)).toMatchObject({ status: 429, type: "rate_limit_error" });
    expect(failed(336501)).toMatchObject({ status: 429 });
    expect(failed(17)).toMatchObject({ status: 429, type: "insufficient_quota" });
    expect(failed(14)).toMatchObject({ status: 401, type: "authentication_error" });
    expect(failed(336003)).toMatchObject({ status: 400 });
    expect(parseBaiduError(401, '{"error":"invalid_client","error_description":"unknown client id"}')).toMatchObject({
      type: "authentication_error",
      message: "unknown client id",
    });
  });
});
