import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertNativeResponse, readNativeEvent } from "./dashscope-answer.ts";
import { parseDashScopeError } from "./dashscope-errors.ts";
import { nativeChatBody, nativeEmbeddingBody, nativeImageBody } from "./dashscope-request.ts";
import { taskUrlOf } from "./dashscope-task.ts";
import { dashScopeAdaptor } from "./dashscope.ts";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const target = { id: 1, type: 17, key: "sk-ds", baseUrl: "", other: "", organization: "", setting: {} };

describe("DashScope requests", () => {
  test("chat: native body with result_format message, incremental streams, the plugin header", async () => {
    const call = testCall({
      model: "qwen-plus",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      temperature: 0.3,
      top_p: 0,
      max_tokens: 20,
      enable_search: true,
    });
    expect(nativeChatBody(call)).toEqual({
      model: "qwen-plus",
      input: { messages: [{ role: "user", content: "hi" }] },
      parameters: {
        result_format: "message",
        incremental_output: true,
        temperature: 0.3,
        top_p: 0.001,
        max_tokens: 20,
        enable_search: true,
      },
    });
    const request = await dashScopeAdaptor.buildRequest(call, { ...target, other: '{"pdf_extracter":{}}' });
    expect(request.url).toBe("https://dashscope.aliyuncs.com/api/v1/services/aigc/text-generation/generation");
    expect(request.headers).toMatchObject({
      authorization: "Bearer sk-ds",
      "x-dashscope-sse": "enable",
      "x-dashscope-plugin": '{"pdf_extracter":{}}',
    });
  });

  test("vision models: the multimodal endpoint with image and text parts", async () => {
    const call = testCall({
      model: "qwen-vl-plus",
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "https://x/cat.png" } },
            { type: "text", text: "what?" },
          ],
        },
      ],
    });
    expect((nativeChatBody(call).input as any).messages[0].content).toEqual([{ image: "https://x/cat.png" }, { text: "what?" }]);
    expect((await dashScopeAdaptor.buildRequest(call, target)).url).toEndWith("/multimodal-generation/generation");
  });

  test("embeddings and images", async () => {
    expect(nativeEmbeddingBody(testCall({ model: "text-embedding-v3", input: "a", dimensions: 512 }, { endpoint: "embeddings" }))).toEqual({
      model: "text-embedding-v3",
      input: { texts: ["a"] },
      parameters: { dimension: 512 },
    });
    const image = testCall({ model: "wanx-v1", prompt: "a cat", size: "1024x1024", n: 2 }, { endpoint: "image-generation" });
    expect(nativeImageBody(image)).toEqual({ model: "wanx-v1", input: { prompt: "a cat" }, parameters: { size: "1024*1024", n: 2 } });
    expect((await dashScopeAdaptor.buildRequest(image, target)).headers["x-dashscope-async"]).toBe("enable");
    expect(taskUrlOf("https://proxy.example/ds/api/v1/services/aigc/text2image/image-synthesis", "t-1")).toBe(
      "https://proxy.example/ds/api/v1/tasks/t-1",
    );
  });
});

describe("DashScope answers", () => {
  test("a whole chat answer with tool calls and cached tokens", () => {
    const converted = convertNativeResponse(
      testCall({ model: "qwen-plus", messages: [] }),
      bytes({
        request_id: "r-1",
        output: {
          choices: [
            {
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: "",
                tool_calls: [{ id: "call_9", type: "function", function: { name: "f", arguments: "{}" } }],
              },
            },
          ],
        },
        usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14, prompt_tokens_details: { cached_tokens: 6 } },
      }),
    );
    const body = JSON.parse(converted.body as string);
    expect(body.choices[0].message.tool_calls).toEqual([{ id: "call_9", type: "function", function: { name: "f", arguments: "{}" } }]);
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(converted.usage).toEqual({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14, cached_tokens: 6 });
  });

  test("incremental stream events; the finish reason ends it", () => {
    const converter = createChunkStream(
      testCall({ model: "qwen-plus", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
      readNativeEvent,
    );
    const push = (value: unknown) => converter.push({ raw: "", event: "result", data: JSON.stringify(value) });
    push({
      output: { choices: [{ message: { role: "assistant", content: "Hel" }, finish_reason: "null" }] },
      usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
    });
    const last = push({
      output: { choices: [{ message: { role: "assistant", content: "lo" }, finish_reason: "stop" }] },
      usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
    });
    expect(last.at(-1)).toBe("data: [DONE]\n\n");
    expect(converter.usage()).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    expect(converter.output().text).toBe("Hello");
  });

  test("embeddings in input order; finished image tasks as URLs", () => {
    const embedded = convertNativeResponse(
      testCall({ model: "text-embedding-v1", input: ["a", "b"] }, { endpoint: "embeddings" }),
      bytes({
        output: {
          embeddings: [
            { text_index: 1, embedding: [2] },
            { text_index: 0, embedding: [1] },
          ],
        },
        usage: { total_tokens: 6 },
      }),
    );
    expect(JSON.parse(embedded.body as string).data.map((item: any) => item.embedding)).toEqual([[1], [2]]);
    expect(embedded.usage).toEqual({ prompt_tokens: 6, completion_tokens: 0, total_tokens: 6 });
    const images = convertNativeResponse(
      testCall({ model: "wanx-v1", prompt: "x" }, { endpoint: "image-generation" }),
      bytes({
        output: {
          task_id: "t",
          task_status: "SUCCEEDED",
          results: [{ url: "https://img/1.png" }, { code: "DataInspectionFailed", message: "no" }],
        },
      }),
    );
    expect(JSON.parse(images.body as string).data).toEqual([{ url: "https://img/1.png" }]);
  });

  test("error codes and their verdicts", () => {
    expect(parseDashScopeError(401, '{"code":"InvalidApiKey","message":"Invalid API-key provided."}')).toMatchObject({
      type: "authentication_error",
      code: "InvalidApiKey",
    });
    expect(parseDashScopeError(400, '{"code":"Arrearage","message":"Access denied"}')).toMatchObject({ type: "insufficient_quota" });
    expect(parseDashScopeError(429, '{"code":"Throttling.RateQuota","message":"rate"}')).toMatchObject({
      type: "rate_limit_error",
      status: 429,
    });
  });
});
