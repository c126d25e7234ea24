import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertHunyuanResponse, hunyuanStreamReader } from "./hunyuan-answer.ts";
import { hunyuanError, parseHunyuanError } from "./hunyuan-errors.ts";
import { hunyuanChatBody } from "./hunyuan-request.ts";
import { buildHunyuanRequest, hunyuanCredentials } from "./hunyuan.ts";
import { signTc3 } from "./hunyuan-sign.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const target = { id: 1, type: 23, key: "1250000000|AKIDtest|secret-key", baseUrl: "", other: "", organization: "", setting: {} };

describe("Hunyuan requests", () => {
  test("system prompts first, same-side turns merged, tools as JSON-text parameters, custom tool choice", () => {
    const call = testCall({
      model: "hunyuan-pro",
      messages: [
        { role: "system", content: "简短" },
        { role: "user", content: "你好" },
        { role: "user", content: [{ type: "text", text: "再说一次" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "晴" },
        { role: "system", content: "用中文" },
      ],
      temperature: 0.3,
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
      tool_choice: { type: "function", function: { name: "f" } },
    });
    expect(hunyuanChatBody(call)).toEqual({
      Model: "hunyuan-pro",
      Messages: [
        { Role: "system", Content: "简短\n用中文" },
        { Role: "user", Content: "你好\n再说一次" },
        { Role: "assistant", ToolCalls: [{ Id: "c1", Type: "function", Function: { Name: "f", Arguments: "{}" } }] },
        { Role: "tool", Content: "晴", ToolCallId: "c1" },
      ],
      Stream: false,
      Temperature: 0.3,
      Tools: [{ Type: "function", Function: { Name: "f", Parameters: '{"type":"object"}' } }],
      ToolChoice: "custom",
      CustomTool: { Type: "function", Function: { Name: "f", Parameters: '{"type":"object"}' } },
    });
  });

  test("images go in Contents", () => {
    const call = testCall({
      model: "hunyuan-vision",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "这是什么" },
            { type: "image_url", image_url: { url: "https://x/y.png" } },
          ],
        },
      ],
    });
    expect((hunyuanChatBody(call).Messages as unknown[])[0]).toEqual({
      Role: "user",
      Contents: [
        { Type: "text", Text: "这是什么" },
        { Type: "image_url", ImageUrl: { Url: "https://x/y.png" } },
      ],
    });
  });

  test("the request is signed over its exact body with the action and version in headers", () => {
    const request = buildHunyuanRequest(
      testCall({ model: "hunyuan-lite", messages: [{ role: "user", content: "hi" }] }),
      target,
      1_700_000_000,
    );
    const expected = signTc3({
      secretId: "AKIDtest",
      secretKey: "secret-key",
      service: "hunyuan",
      host: "hunyuan.tencentcloudapi.com",
      timestamp: 1_700_000_000,
      contentType: "application/json",
      payload: request.body as string,
    });
    expect(request.url).toBe("https://hunyuan.tencentcloudapi.com/");
    expect(request.headers).toMatchObject({
      authorization: expected.authorization,
      "x-tc-action": "ChatCompletions",
      "x-tc-version": "2023-09-01",
      "x-tc-timestamp": "1700000000",
    });
    expect(hunyuanCredentials("AKIDx|sk")).toEqual({ secretId: "AKIDx", secretKey: "sk" });
    expect(() => hunyuanCredentials("only-one")).toThrow();
  });
});

describe("Hunyuan answers", () => {
  test("a whole answer with usage, reasoning and tool calls", () => {
    const converted = convertHunyuanResponse(
      testCall({ model: "m", messages: [] }),
      bytes({
        Response: {
          Id: "h1",
          Choices: [
            {
              FinishReason: "tool_calls",
              Message: {
                Role: "assistant",
                Content: "",
                ReasoningContent: "想",
                ToolCalls: [{ Id: "t1", Type: "function", Function: { Name: "f", Arguments: "{}" } }],
              },
            },
          ],
          Usage: { PromptTokens: 5, CompletionTokens: 3, TotalTokens: 8 },
          RequestId: "r",
        },
      }),
    );
    const body = JSON.parse(converted.body as string);
    expect(body.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { content: null, reasoning_content: "想", tool_calls: [{ id: "t1", function: { name: "f", arguments: "{}" } }] },
    });
    expect(converted.usage).toEqual({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
  });

  test("an error envelope in a 200 answer carries its verdict", () => {
    const converted = convertHunyuanResponse(
      testCall({ model: "m", messages: [] }),
      bytes({ Response: { Error: { Code: "AuthFailure.SignatureFailure", Message: "bad" }, RequestId: "r" } }),
    );
    expect(converted.error).toMatchObject({ status: 401, type: "authentication_error", code: "AuthFailure.SignatureFailure" });
    expect(hunyuanError("RequestLimitExceeded", "")).toMatchObject({ status: 429, type: "rate_limit_error" });
    expect(hunyuanError("ResourceInsufficient.ChargeResourceExhaust", "")).toMatchObject({ status: 429, type: "insufficient_quota" });
    expect(hunyuanError("AuthFailure.SignatureExpire", "")).toMatchObject({ status: 500, type: "upstream_error" });
    expect(parseHunyuanError(502, "<html>")).toMatchObject({ code: "bad_response_status_code" });
  });

  test("a stream: deltas, tool calls merged by Id, the last usage, sensitive as content_filter", () => {
    const stream = createChunkStream(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
      hunyuanStreamReader(),
    );
    const event = (value: unknown) => ({ raw: "", event: "", data: JSON.stringify(value) });
    stream.push(
      event({
        Choices: [{ Delta: { Role: "assistant", Content: "你" }, FinishReason: "" }],
        Usage: { PromptTokens: 4, CompletionTokens: 1 },
      }),
    );
    const tool = stream.push(
      event({
        Choices: [{ Delta: { ToolCalls: [{ Id: "t1", Type: "function", Function: { Name: "f", Arguments: '{"a"' } }] }, FinishReason: "" }],
      }),
    );
    const more = stream.push(
      event({ Choices: [{ Delta: { ToolCalls: [{ Id: "t1", Function: { Arguments: ":1}" } }] }, FinishReason: "" }] }),
    );
    stream.push(
      event({
        Choices: [{ Delta: { Content: "好" }, FinishReason: "sensitive" }],
        Usage: { PromptTokens: 4, CompletionTokens: 2, TotalTokens: 6 },
      }),
    );
    expect(JSON.parse(tool[0]!.slice(6)).choices[0].delta.tool_calls).toEqual([
      { index: 0, id: "t1", type: "function", function: { name: "f", arguments: '{"a"' } },
    ]);
    expect(JSON.parse(more[0]!.slice(6)).choices[0].delta.tool_calls).toEqual([{ index: 0, function: { arguments: ":1}" } }]);
    const closing = stream.finish();
    expect(closing).toEqual(["data: [DONE]\n\n"]);
    expect(stream.usage()).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });
    expect(stream.output().text).toBe('你f{"a":1}好');
  });
});
