import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertV3Response, parseV3Error, readV3Event, unquote } from "./zhipu-answer.ts";
import { zhipuError } from "./zhipu-errors.ts";
import { signZhipuJwt, zhipuToken } from "./zhipu-jwt.ts";
import { v3Body } from "./zhipu.ts";

const decodePart = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString());
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("Zhipu JWT", () => {
  test("header, claims in milliseconds, HS256 over the secret", async () => {
    const token = signZhipuJwt("my-id.my-secret", 1_700_000_000_000, 1_700_001_800_000);
    const [header, claims, signature] = token.split(".");
    expect(decodePart(header!)).toEqual({ alg: "HS256", sign_type: "SIGN" });
    expect(decodePart(claims!)).toEqual({ api_key: "my-id", exp: 1_700_001_800_000, timestamp: 1_700_000_000_000 });
    // Verified independently with WebCrypto.
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("my-secret"), { name: "HMAC", hash: "SHA-256" }, false, [
      "verify",
    ]);
    expect(
      await crypto.subtle.verify("HMAC", key, Buffer.from(signature!, "base64url"), new TextEncoder().encode(`${header}.${claims}`)),
    ).toBe(true);
  });

  test("a key's token is reused until it nears its expiry", () => {
    const first = zhipuToken("cache-id.cache-secret");
    expect(zhipuToken("cache-id.cache-secret")).toBe(first);
    expect(zhipuToken("other-id.cache-secret")).not.toBe(first);
  });
});

describe("ChatGLM v3", () => {
  test("the body: the system prompt opens the first user turn, sampling kept inside (0, 1)", () => {
    const call = testCall({
      model: "chatglm_turbo",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
      ],
      temperature: 0,
      top_p: 1,
      stream: true,
    });
    expect(v3Body(call)).toEqual({
      prompt: [{ role: "user", content: "be brief\nhi" }],
      temperature: 0.01,
      top_p: 0.99,
      incremental: true,
    });
  });

  test("invoke answers: the quoted content is unquoted, usage read", () => {
    const converted = convertV3Response(
      testCall({ model: "chatglm_turbo", messages: [] }),
      bytes({
        code: 200,
        msg: "操作成功",
        success: true,
        data: {
          request_id: "r1",
          task_id: "t1",
          task_status: "SUCCESS",
          choices: [{ role: "assistant", content: '" Hello\\nthere"' }],
          usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
        },
      }),
    );
    const body = JSON.parse(converted.body as string);
    expect(body.choices[0].message.content).toBe("Hello\nthere");
    expect(converted.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(unquote("plain")).toBe("plain");
  });

  test("a failed invoke is an error with its verdict", () => {
    const converted = convertV3Response(
      testCall({ model: "chatglm_turbo", messages: [] }),
      bytes({ code: 1302, msg: "并发数过高", success: false }),
    );
    expect(converted.error).toMatchObject({ status: 429, type: "rate_limit_error", code: "1302" });
    expect(parseV3Error(200, JSON.stringify({ code: 1002, msg: "Token 非法", success: false }))).toMatchObject({
      status: 401,
      type: "authentication_error",
    });
  });

  test("sse-invoke: add events, the finish event's meta line holds the usage", () => {
    const converter = createChunkStream(
      testCall({ model: "chatglm_turbo", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
      readV3Event,
    );
    converter.push({ raw: "event: add\nid: 1\ndata: Hel\n\n", event: "add", data: "Hel" });
    converter.push({ raw: "event: add\nid: 1\ndata: lo\n\n", event: "add", data: "lo" });
    const closing = converter.push({
      raw: 'event: finish\nid: 1\ndata: \nmeta: {"task_status":"SUCCESS","usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5}}\n\n',
      event: "finish",
      data: "",
    });
    expect(closing.at(-1)).toBe("data: [DONE]\n\n");
    expect(converter.usage()).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    expect(converter.output().text).toBe("Hello");
  });

  test("business codes: arrears disables, rate limits retry, bad requests do neither", () => {
    expect(zhipuError(1113, "欠费")).toMatchObject({ status: 429, type: "insufficient_quota" });
    expect(zhipuError(1303, "频率过高")).toMatchObject({ status: 429, type: "rate_limit_error" });
    expect(zhipuError(1214, "参数非法")).toMatchObject({ status: 400, type: "invalid_request_error" });
    expect(zhipuError(1003, "过期")).toMatchObject({ status: 401, type: "authentication_error" });
  });
});
