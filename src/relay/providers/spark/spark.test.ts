import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { parseSparkError, sparkStreamReader } from "./spark-answer.ts";
import { signedSparkUrl, sparkAuthorization, sparkKeyParts, sparkSignature } from "./spark-auth.ts";
import { sparkFrame, sparkRouteOf, sparkVersionOf } from "./spark-request.ts";

// iFlytek's published example ("WebSocket协议通用鉴权URL生成说明").
const example = {
  apiKey: "addd2272b6d8b7c8abdd79531420ca3b",
  apiSecret: "MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi",
  date: "Fri, 05 May 2023 10:43:39 GMT",
  signature: "z5gHdu3pxVV4ADMyk467wOWDQ9q6BQzR3nfMTjc/DaQ=",
  authorization:
    "YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBkYXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i",
};

const event = (frame: unknown) => ({ raw: "", event: "", data: JSON.stringify(frame) });
const frame = (content: string, status: number, usage?: unknown) => ({
  header: { code: 0, message: "Success", sid: "cht000", status },
  payload: { choices: { status, seq: 0, text: [{ content, role: "assistant", index: 0 }] }, ...(usage ? { usage: { text: usage } } : {}) },
});

describe("Spark URL signing", () => {
  test("iFlytek's published example: signature, authorization and the final URL", () => {
    expect(sparkSignature(example.apiSecret, "spark-api.xf-yun.com", example.date, "/v1.1/chat")).toBe(example.signature);
    expect(sparkAuthorization(example.apiKey, example.signature)).toBe(example.authorization);
    const url = signedSparkUrl("wss://spark-api.xf-yun.com/v1.1/chat", example, new Date(example.date));
    expect(url).toBe(
      `wss://spark-api.xf-yun.com/v1.1/chat?authorization=${encodeURIComponent(example.authorization)}&date=Fri%2C+05+May+2023+10%3A43%3A39+GMT&host=spark-api.xf-yun.com`,
    );
  });

  test("the key is APPID|APISecret|APIKey", () => {
    expect(sparkKeyParts(" app1 | secret2 | key3 ")).toEqual({ appId: "app1", apiSecret: "secret2", apiKey: "key3" });
  });
});

describe("Spark versions", () => {
  test("model suffix first, then the channel's version, then v2.1", () => {
    expect(sparkVersionOf("SparkDesk-v3.5", "v1.1")).toBe("v3.5");
    expect(sparkVersionOf("SparkDesk-max-32k", "")).toBe("max-32k");
    expect(sparkVersionOf("SparkDesk", "v3.1")).toBe("v3.1");
    expect(sparkVersionOf("SparkDesk", "")).toBe("v2.1");
  });

  test("paths and domains of xfyun's document", () => {
    expect(sparkRouteOf("v1.1")).toEqual({ path: "/v1.1/chat", domain: "lite" });
    expect(sparkRouteOf("v2.1")).toEqual({ path: "/v2.1/chat", domain: "generalv2" });
    expect(sparkRouteOf("v3.5")).toEqual({ path: "/v3.5/chat", domain: "generalv3.5" });
    expect(sparkRouteOf("v4.0")).toEqual({ path: "/v4.0/chat", domain: "4.0Ultra" });
    expect(sparkRouteOf("pro-128k")).toEqual({ path: "/chat/pro-128k", domain: "pro-128k" });
  });

  test("the request frame: app_id, domain, bounded sampling, roles", () => {
    const call = testCall({
      model: "SparkDesk-v3.5",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hi" }] },
      ],
      temperature: 1.7,
      top_k: 9,
      max_tokens: 100,
      user: "u-1",
    });
    expect(sparkFrame(call, "app1", "generalv3.5")).toEqual({
      header: { app_id: "app1", uid: "u-1" },
      parameter: { chat: { domain: "generalv3.5", temperature: 1, max_tokens: 100, top_k: 6 } },
      payload: {
        message: {
          text: [
            { role: "system", content: "be brief" },
            { role: "user", content: "hi" },
          ],
        },
      },
    });
  });
});

describe("Spark answers", () => {
  test("frames become OpenAI chunks; the last frame's usage is reported", () => {
    const converter = createChunkStream(
      testCall(
        { model: "SparkDesk-v3.5", messages: [], stream: true, stream_options: { include_usage: true } },
        { countPromptTokens: () => 3 },
      ),
      () => 0,
      sparkStreamReader(),
    );
    const out = [
      ...converter.push(event(frame("Hel", 0))),
      ...converter.push(event(frame("lo", 2, { question_tokens: 2, prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 }))),
    ];
    const chunks = out.filter((text) => text !== "data: [DONE]\n\n").map((text) => JSON.parse(text.slice(6)));
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "Hel" });
    expect(chunks[1].choices[0].delta).toEqual({ content: "lo" });
    expect(chunks[2].choices[0].finish_reason).toBe("stop");
    expect(chunks[3].usage).toEqual({ prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 });
    expect(out.at(-1)).toBe("data: [DONE]\n\n");
    expect(converter.finished()).toBe(true);
    expect(converter.output()).toEqual({ text: "Hello", toolCalls: 0 });
  });

  test("error codes carry their verdicts", () => {
    const failed = (code: number) => parseSparkError(200, JSON.stringify({ header: { code, message: `m${code}`, status: 2 } }));
    expect(failed(11202)).toMatchObject({ status: 429, type: "rate_limit_error", code: 11202 });
    expect(failed(11200)).toMatchObject({ status: 403, type: "insufficient_quota" });
    expect(failed(10013)).toMatchObject({ status: 400, type: "content_filter" });
    expect(parseSparkError(401, '{"message":"HMAC signature cannot be verified"}')).toMatchObject({
      type: "authentication_error",
      message: "HMAC signature cannot be verified",
    });
    expect(parseSparkError(403, '{"message":"HMAC signature does not match"}').type).toBe("authentication_error");
  });
});
