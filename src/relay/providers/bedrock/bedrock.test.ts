import { describe, expect, test } from "bun:test";
import { EventStreamCodec } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";
import { AppError } from "../../../errors/app-error.ts";
import type { UpstreamTarget } from "../adaptor.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { bedrockAdaptor, bedrockBody } from "./bedrock.ts";
import { parseBedrockError } from "./bedrock-errors.ts";
import { createEventStreamDecoder } from "./bedrock-event-stream.ts";
import { parseBedrockKey } from "./bedrock-key.ts";
import { bedrockModelId, claudeNameOf } from "./bedrock-models.ts";

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const text = (value: string) => ({ type: "string" as const, value });
const chunk = (event: unknown) =>
  codec.encode({
    headers: { ":event-type": text("chunk"), ":content-type": text("application/json"), ":message-type": text("event") },
    body: fromUtf8(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString("base64") })),
  });
const exception = (type: string, message: string) =>
  codec.encode({
    headers: { ":exception-type": text(type), ":content-type": text("application/json"), ":message-type": text("exception") },
    body: fromUtf8(JSON.stringify({ message })),
  });

const target = (key: string, baseUrl = ""): UpstreamTarget => ({ id: 1, type: 33, key, baseUrl, other: "", organization: "", setting: {} });

describe("Bedrock key and model ids", () => {
  test("the key is AK|SK|Region or ApiKey|Region; anything else is a clear channel error", () => {
    expect(parseBedrockKey("AKIA1|secret/x+y|eu-west-1")).toEqual({
      credentials: { accessKeyId: "AKIA1", secretAccessKey: "secret/x+y" },
      region: "eu-west-1",
    });
    expect(parseBedrockKey("ABSKQmVkcm9ja0FQSUtleQ==|ap-northeast-1")).toEqual({
      apiKey: "ABSKQmVkcm9ja0FQSUtleQ==",
      region: "ap-northeast-1",
    });
    for (const bad of [
      "AKIA1",
      "AKIA1|secret",
      "AKIA1|secret|us-east-1|extra",
      "AKIA1||us-east-1",
      "AKIA1|secret|Virginia",
      "|us-east-1",
    ]) {
      expect(() => parseBedrockKey(bad)).toThrow(AppError);
    }
  });

  test("model names map to Bedrock ids; newer models through the first inference profile of the region the model has", () => {
    expect(bedrockModelId("claude-3-5-sonnet-20241022", "us-west-2")).toBe("anthropic.claude-3-5-sonnet-20241022-v2:0");
    expect(bedrockModelId("claude-3-7-sonnet-20250219", "us-east-1")).toBe("us.anthropic.claude-3-7-sonnet-20250219-v1:0");
    expect(bedrockModelId("claude-sonnet-4-20250514", "eu-central-1")).toBe("eu.anthropic.claude-sonnet-4-20250514-v1:0");
    expect(bedrockModelId("claude-3-7-sonnet-20250219", "us-gov-west-1")).toBe("us-gov.anthropic.claude-3-7-sonnet-20250219-v1:0");
    // Tokyo and Osaka call jp. profiles, Sydney and Melbourne au.; models without them, apac.
    expect(bedrockModelId("claude-sonnet-4-5-20250929", "ap-northeast-1")).toBe("jp.anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(bedrockModelId("claude-haiku-4-5", "ap-northeast-3")).toBe("jp.anthropic.claude-haiku-4-5-20251001-v1:0");
    expect(bedrockModelId("claude-sonnet-4-6", "ap-southeast-2")).toBe("au.anthropic.claude-sonnet-4-6");
    expect(bedrockModelId("claude-sonnet-4-20250514", "ap-northeast-1")).toBe("apac.anthropic.claude-sonnet-4-20250514-v1:0");
    expect(bedrockModelId("claude-3-7-sonnet-20250219", "ap-southeast-2")).toBe("apac.anthropic.claude-3-7-sonnet-20250219-v1:0");
    expect(bedrockModelId("claude-sonnet-4-5-20250929", "ap-south-1")).toBe("global.anthropic.claude-sonnet-4-5-20250929-v1:0");
    // After Opus 4.5: undated names, ids without ":0"; a geography the model lacks falls back to global.
    expect(bedrockModelId("claude-opus-4-6", "us-east-1")).toBe("us.anthropic.claude-opus-4-6-v1");
    expect(bedrockModelId("claude-opus-4-7", "eu-west-1")).toBe("eu.anthropic.claude-opus-4-7");
    expect(bedrockModelId("claude-opus-4-7", "ap-northeast-1")).toBe("global.anthropic.claude-opus-4-7");
    expect(bedrockModelId("claude-opus-4-5-20251101", "sa-east-1")).toBe("global.anthropic.claude-opus-4-5-20251101-v1:0");
    // Ids and ARNs set by a model mapping go as they are.
    expect(bedrockModelId("us.anthropic.claude-opus-4-20250514-v1:0", "eu-west-1")).toBe("us.anthropic.claude-opus-4-20250514-v1:0");
    expect(bedrockModelId("arn:aws:bedrock:us-east-1:123:application-inference-profile/abc", "us-east-1")).toBe(
      "arn:aws:bedrock:us-east-1:123:application-inference-profile/abc",
    );
    expect(claudeNameOf("anthropic.claude-3-5-sonnet-20241022-v2:0")).toBe("claude-3-5-sonnet-20241022");
    expect(claudeNameOf("anthropic.claude-opus-4-6-v1")).toBe("claude-opus-4-6");
    expect(claudeNameOf("anthropic.claude-future-1-v3:0")).toBe("claude-future-1");
  });
});

describe("the Bedrock request", () => {
  test("Claude's body without model and stream, with anthropic_version; the model in the URL; signed", async () => {
    const call = testCall({
      model: "claude-3-5-sonnet-20241022",
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "hi" },
      ],
      stream: true,
      max_tokens: 50,
    });
    const request = await bedrockAdaptor.buildRequest(call, target("AKIAX|sk|us-west-2"));
    expect(request.url).toBe(
      "https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke-with-response-stream",
    );
    expect(JSON.parse(request.body as string)).toEqual({
      anthropic_version: "bedrock-2023-05-31",
      max_tokens: 50,
      system: "s",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAX\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(request.headers.host).toBeUndefined();
  });

  test("a Claude-format call keeps its body; beta flags move into it", () => {
    const call = testCall(
      { model: "claude-3-5-haiku-20241022", max_tokens: 9, stream: true, messages: [{ role: "user", content: "x" }] },
      { format: "claude", vendorHeaders: { "anthropic-beta": "a-1, b-2" } },
    );
    expect(bedrockBody(call)).toEqual({
      model: "claude-3-5-haiku-20241022",
      body: {
        max_tokens: 9,
        messages: [{ role: "user", content: "x" }],
        anthropic_version: "bedrock-2023-05-31",
        anthropic_beta: ["a-1", "b-2"],
      },
    });
  });

  test("a Bedrock API key goes as the Bearer token, unsigned", async () => {
    const call = testCall({ model: "claude-sonnet-4-6", messages: [{ role: "user", content: "hi" }], max_tokens: 10 });
    const request = await bedrockAdaptor.buildRequest(call, target("ABSK-api-key|ap-southeast-2"));
    expect(request.url).toBe("https://bedrock-runtime.ap-southeast-2.amazonaws.com/model/au.anthropic.claude-sonnet-4-6/invoke");
    expect(request.headers).toEqual({
      authorization: "Bearer ABSK-api-key",
      "content-type": "application/json",
      accept: "application/json",
    });
  });
});

describe("the AWS event stream", () => {
  test("messages split anywhere become Claude's server-sent events; exceptions become error events", () => {
    const start = { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 5, output_tokens: 1 } } };
    const delta = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "héllo" } };
    const bytes = Buffer.concat([chunk(start), chunk(delta), exception("modelStreamErrorException", "model failed")]);
    for (const size of [1, 7, 64, bytes.length]) {
      const decoder = createEventStreamDecoder();
      const events = [];
      for (let at = 0; at < bytes.length; at += size) events.push(...decoder.push(new Uint8Array(bytes.subarray(at, at + size))));
      expect(decoder.pending()).toBe(false);
      expect(events.map((event) => [event.event, JSON.parse(event.data)])).toEqual([
        ["message_start", start],
        ["content_block_delta", delta],
        ["error", { type: "error", error: { type: "modelStreamErrorException", message: "model failed" } }],
      ]);
      expect(events[0]!.raw).toBe(`event: message_start\ndata: ${JSON.stringify(start)}\n\n`);
    }
  });

  test("a corrupted message is refused by the codec's checksum", () => {
    const bytes = chunk({ type: "ping" });
    bytes[bytes.length - 6] ^= 0xff;
    expect(() => createEventStreamDecoder().push(bytes)).toThrow();
  });
});

describe("Bedrock errors", () => {
  test("the status decides the class the relay's rules read", () => {
    expect(parseBedrockError(403, JSON.stringify({ message: "The security token included in the request is invalid." }))).toEqual({
      message: "The security token included in the request is invalid.",
      type: "permission_error",
      code: 403,
      param: null,
    });
    expect(parseBedrockError(429, JSON.stringify({ message: "Too many requests" })).type).toBe("rate_limit_error");
    expect(parseBedrockError(400, JSON.stringify({ __type: "com.amazon#ValidationException", message: "bad" }))).toMatchObject({
      type: "invalid_request_error",
      code: "ValidationException",
    });
    expect(parseBedrockError(503, "")).toMatchObject({ type: "overloaded_error", message: "bad response status code 503" });
  });
});
