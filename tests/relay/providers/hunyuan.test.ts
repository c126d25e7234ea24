// Tencent Hunyuan (23) through the real relay and the official openai client, against an
// imitation that recomputes every request's TC3-HMAC-SHA256 signature: the ChatCompletions body,
// answers whole and streamed, tools, embeddings, usage and quota, and the failures (a bad key or
// signature, a rate limit, an account in arrears) with their retry and auto-disable verdicts. The
// imitation judges signatures with Tencent's own SDK (tencentcloud-sdk-nodejs-common). Images:
// ImageUrl.Url is documented as an http(s) link only (tencentcloud-sdk-nodejs-hunyuan v20230901),
// so links go through and base64 images are refused before anything is sent.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startHunyuanUpstream, type HunyuanUpstream } from "../../fixtures/hunyuan-upstream.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  openai,
  postRelay,
  setOptions,
  startRelayWorld,
  withoutRequestId,
  type RelayWorld,
} from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let tencent: HunyuanUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  tencent = await startHunyuanUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d", "e", "f"]) tencent.addKey(`AKID${name}`, `secret-${name}`);
  const ratios: Record<string, number> = { "hunyuan-embedding": 0.5 };
  for (let index = 1; index <= 9; index++) ratios[`hy-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "hy-1": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await tencent.stop();
});
beforeEach(async () => {
  tencent.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const hunyuanChannel = (name: string, alias: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.Hunyuan,
    key: `1250000000|AKID${name}|secret-${name}`,
    base_url: tencent.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: model }),
    ...extra,
  });

describe("Tencent Hunyuan (23)", () => {
  test("images: a link goes in Contents as ImageUrl.Url; a base64 image is refused with 400, nothing sent", async () => {
    await hunyuanChannel("a", "hy-2", "hunyuan-vision");
    const content = (url: string) => [
      { type: "text" as const, text: "这是什么？" },
      { type: "image_url" as const, image_url: { url } },
    ];
    await openai(world, key).chat.completions.create({
      model: "hy-2",
      messages: [{ role: "user", content: content("https://example.com/cat.png") }],
    });
    expect(tencent.received[0]!.json.Messages).toEqual([
      {
        Role: "user",
        Contents: [
          { Type: "text", Text: "这是什么？" },
          { Type: "image_url", ImageUrl: { Url: "https://example.com/cat.png" } },
        ],
      },
    ]);
    tencent.reset();
    const refused = await postRelay(world, "/v1/chat/completions", key, {
      model: "hy-2",
      messages: [{ role: "user", content: content("data:image/png;base64,iVBORw0KGgo=") }],
    });
    expect([refused.status, withoutRequestId(refused.json).error.message]).toEqual([
      400,
      "腾讯混元只接受 http(s) 图片链接，不接受 base64 图片",
    ]);
    expect(tencent.received).toHaveLength(0);
  });

  test("a whole answer: signed headers, the PascalCase body, OpenAI's shape, usage and quota", async () => {
    await hunyuanChannel("a", "hy-1", "hunyuan-lite");
    const answer = await openai(world, key).chat.completions.create({
      model: "hy-1",
      messages: [
        { role: "system", content: "简短" },
        { role: "user", content: "你好" },
        { role: "user", content: "介绍一下你自己" },
      ],
      temperature: 0.5,
    });
    expect(answer.choices[0]!.message.content).toBe("你好，我是腾讯混元。");
    expect(answer.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    const request = tencent.received[0]!;
    expect(request.who).toBe("AKIDa");
    expect(request.headers["x-tc-action"]).toBe("ChatCompletions");
    expect(request.headers["x-tc-version"]).toBe("2023-09-01");
    expect(Math.abs(Number(request.headers["x-tc-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    const today = new Date(Number(request.headers["x-tc-timestamp"]) * 1000).toISOString().slice(0, 10);
    expect(request.headers.authorization).toStartWith(
      `TC3-HMAC-SHA256 Credential=AKIDa/${today}/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=`,
    );
    expect(request.json).toEqual({
      Model: "hunyuan-lite",
      Messages: [
        { Role: "system", Content: "简短" },
        { Role: "user", Content: "你好\n介绍一下你自己" },
      ],
      Stream: false,
      Temperature: 0.5,
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([11, 7, 11 + 7 * 2]);
    // ChatCompletions has no output limit: a client's is refused rather than dropped.
    const limited = await postRelay(world, "/v1/chat/completions", key, {
      model: "hy-1",
      messages: [{ role: "user", content: "x" }],
      max_tokens: 64,
    });
    expect([limited.status, withoutRequestId(limited.json).error.message]).toEqual([
      400,
      "Tencent Hunyuan 不支持请求字段 max_tokens，请去掉后重试",
    ]);
  });

  test("a stream: deltas as chunks, Tencent's last usage in the usage chunk and the log", async () => {
    await hunyuanChannel("b", "hy-2", "hunyuan-standard");
    const stream = await openai(world, key).chat.completions.create({
      model: "hy-2",
      messages: [{ role: "user", content: "你好" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("你好，我是腾讯混元。");
    expect(finish).toBe("stop");
    expect(usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    expect(tencent.received[0]!.json.Stream).toBe(true);
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([11, 7, 18]);
  });

  test("tools go out as Hunyuan Tools; streamed tool calls come back merged by Id", async () => {
    await hunyuanChannel("c", "hy-3", "hunyuan-functioncall");
    tencent.behave("AKIDc", { toolCall: { name: "weather", arguments: '{"city":"深圳"}' } });
    const tools = [
      {
        type: "function" as const,
        function: { name: "weather", description: "天气", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
    ];
    const stream = await openai(world, key).chat.completions.create({
      model: "hy-3",
      messages: [{ role: "user", content: "深圳天气" }],
      tools,
      stream: true,
    });
    const calls: Record<number, { id?: string; name: string; arguments: string }> = {};
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
        const known = (calls[call.index] ??= { name: "", arguments: "" });
        if (call.id) known.id = call.id;
        known.name += call.function?.name ?? "";
        known.arguments += call.function?.arguments ?? "";
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(calls).toEqual({ 0: { id: "call_hy1", name: "weather", arguments: '{"city":"深圳"}' } });
    expect(finish).toBe("tool_calls");
    expect(tencent.received[0]!.json.Tools).toEqual([
      { Type: "function", Function: { Name: "weather", Parameters: JSON.stringify(tools[0]!.function.parameters), Description: "天气" } },
    ]);
  });

  test("embeddings through GetEmbedding, base64 for the SDK", async () => {
    await addChannel(world, {
      type: ChannelType.Hunyuan,
      key: "1250000000|AKIDd|secret-d",
      base_url: tencent.url,
      models: "hunyuan-embedding",
    });
    const result = await openai(world, key).embeddings.create({ model: "hunyuan-embedding", input: ["一", "二"] });
    expect(result.data.map((item) => item.embedding)).toEqual([
      [0.5, 0],
      [0.5, 1],
    ]);
    expect(tencent.received[0]!.headers["x-tc-action"]).toBe("GetEmbedding");
    expect(tencent.received[0]!.json).toEqual({ InputList: ["一", "二"] });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([6, 3]);
  });

  test("a wrong SecretKey fails Tencent's signature check: 401, the channel disabled, nothing retried", async () => {
    await setOptions(world, { RetryTimes: 2 });
    const id = await addChannel(world, {
      type: ChannelType.Hunyuan,
      key: "1250000000|AKIDe|not-the-secret",
      base_url: tencent.url,
      models: "hy-4",
      model_mapping: '{"hy-4":"hunyuan-lite"}',
    });
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "hy-4", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toMatchObject({
      message: "请求签名验证失败",
      type: "authentication_error",
      code: "AuthFailure.SignatureFailure",
    });
    expect(tencent.received).toHaveLength(1);
    expect(await channelStatus(id)).toBe(3);
  });

  test("a rate limit is retried on another channel and disables nothing; arrears disable", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await hunyuanChannel("e", "hy-5", "hunyuan-lite", { priority: 5 });
    const spare = await hunyuanChannel("f", "hy-5", "hunyuan-lite", { priority: 1 });
    tencent.behave("AKIDe", { errorCode: "RequestLimitExceeded" });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "hy-5", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(tencent.received.map((entry) => entry.who)).toEqual(["AKIDe", "AKIDf"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);

    await setOptions(world, { RetryTimes: 0 });
    tencent.reset();
    const owing = await hunyuanChannel("a", "hy-6", "hunyuan-lite");
    tencent.behave("AKIDa", { errorCode: "ResourceUnavailable.InArrears" });
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "hy-6", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(429);
    expect(withoutRequestId(refused.json).error).toMatchObject({ type: "insufficient_quota", code: "ResourceUnavailable.InArrears" });
    expect(await channelStatus(owing)).toBe(3);
  });

  test("an ErrorMsg in the middle of a stream ends it with an error event", async () => {
    await hunyuanChannel("b", "hy-7", "hunyuan-lite");
    tencent.behave("AKIDb", { errorMidStream: true });
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "hy-7",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain("服务内部异常");
    expect(response.text).not.toContain("[DONE]");
  });

  test("the channel test reaches ChatCompletions", async () => {
    const id = await addChannel(world, {
      type: ChannelType.Hunyuan,
      key: "1250000000|AKIDc|secret-c",
      base_url: tencent.url,
      models: "hunyuan-lite",
    });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(tencent.received.at(-1)!.json).toEqual({ Model: "hunyuan-lite", Messages: [{ Role: "user", Content: "hi" }], Stream: false });
  });
});
