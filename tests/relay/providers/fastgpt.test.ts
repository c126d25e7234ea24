// FastGPT (22) through the real relay and the official openai client, against an imitation of
// FastGPT's OpenAPI chat endpoint: the APIKey-AppId key split into the Bearer key and the body's
// appId, answers whole and streamed, usage counted locally (FastGPT reports none), and its
// failures with their verdicts (an invalid key whole and streamed, no balance, a rate limit).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startFastgptUpstream, type FastgptUpstream } from "../../fixtures/fastgpt-upstream.ts";
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
let fastgpt: FastgptUpstream;
let key: string;

const appId = "64f335d84283f05518e9e041";

beforeAll(async () => {
  world = await startRelayWorld();
  fastgpt = await startFastgptUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d"]) fastgpt.addKey(`fastgpt-general${name}`, appId, "general");
  fastgpt.addKey("fastgpt-appkey", appId, "app");
  const ratios: Record<string, number> = {};
  for (let index = 1; index <= 9; index++) ratios[`kb-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios) });
});
afterAll(async () => {
  await world.stop();
  await fastgpt.stop();
});
beforeEach(async () => {
  fastgpt.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const fastgptChannel = (channelKey: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, { type: ChannelType.FastGPT, key: channelKey, base_url: fastgpt.url, models: model, ...extra });

describe("FastGPT (22)", () => {
  test("APIKey-AppId: the key as Bearer, the app id in the body; FastGPT's placeholder usage replaced by local counts", async () => {
    await fastgptChannel(`fastgpt-generala-${appId}`, "kb-1");
    const answer = await openai(world, key).chat.completions.create({
      model: "kb-1",
      messages: [{ role: "user", content: "导演是谁？请详细介绍一下这部电影的导演。" }],
    });
    expect(answer.choices[0]!.message.content).toBe("这是知识库里的答案。");
    // FastGPT sends no object and an empty model: the client gets a complete chat.completion.
    expect([answer.object, answer.model]).toEqual(["chat.completion", "kb-1"]);
    expect(answer.usage).toBeUndefined();
    const request = fastgpt.received[0]!;
    expect(request.path).toBe("/api/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer fastgpt-generala");
    expect(request.json).toEqual({
      model: "kb-1",
      messages: [{ role: "user", content: "导演是谁？请详细介绍一下这部电影的导演。" }],
      appId,
    });
    const log = await lastLog();
    expect(n(log.prompt_tokens)).toBeGreaterThan(5);
    expect(n(log.completion_tokens)).toBeGreaterThan(1);
    expect(n(log.quota)).toBe(n(log.prompt_tokens) + n(log.completion_tokens));
  });

  test("a stream: the usage chunk the client asked for is the relay's own count, the one billed", async () => {
    await fastgptChannel(`fastgpt-generalb-${appId}`, "kb-2");
    const stream = await openai(world, key).chat.completions.create({
      model: "kb-2",
      messages: [{ role: "user", content: "导演是谁？" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("这是知识库里的答案。");
    expect(fastgpt.received[0]!.json.stream_options).toBeUndefined();
    const log = await lastLog();
    expect(usage).toMatchObject({ prompt_tokens: n(log.prompt_tokens), completion_tokens: n(log.completion_tokens) });
    expect(usage!.completion_tokens).toBeGreaterThan(1);
  });

  test("an app-specific key without the suffix goes as it is, with no appId", async () => {
    await fastgptChannel("fastgpt-appkey", "kb-3");
    await openai(world, key).chat.completions.create({ model: "kb-3", messages: [{ role: "user", content: "hi" }] });
    expect(fastgpt.received[0]!.headers.authorization).toBe("Bearer fastgpt-appkey");
    expect(fastgpt.received[0]!.json.appId).toBeUndefined();
  });

  test("an invalid key disables the channel, whole (HTTP 500) and streamed (an error event)", async () => {
    const whole = await fastgptChannel(`fastgpt-unknown-${appId}`, "kb-4");
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "kb-4", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(500);
    expect(withoutRequestId(refused.json).error).toMatchObject({ message: "Api Key 不合法", type: "authentication_error", code: 514 });
    expect(await channelStatus(whole)).toBe(3);

    const streamed = await fastgptChannel(`fastgpt-unknown2-${appId}`, "kb-5");
    const failed = await postRelay(world, "/v1/chat/completions", key, {
      model: "kb-5",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    expect(failed.status).toBe(401);
    expect(withoutRequestId(failed.json).error).toMatchObject({ type: "authentication_error", code: 514 });
    expect(await channelStatus(streamed)).toBe(3);
  });

  test("a rate limit from FastGPT's proxy is retried elsewhere and disables nothing; no balance disables", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await fastgptChannel(`fastgpt-generalc-${appId}`, "kb-6", { priority: 5 });
    const spare = await fastgptChannel(`fastgpt-generald-${appId}`, "kb-6", { priority: 1 });
    fastgpt.behave("fastgpt-generalc", { rateLimited: true });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "kb-6", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(fastgpt.received.map((entry) => entry.who)).toEqual(["fastgpt-generalc", "fastgpt-generald"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);

    await setOptions(world, { RetryTimes: 0 });
    const owing = await fastgptChannel(`fastgpt-generala-${appId}`, "kb-7");
    fastgpt.behave("fastgpt-generala", { statusText: "insufficientQuota" });
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "kb-7", messages: [{ role: "user", content: "hi" }] });
    expect(withoutRequestId(refused.json).error).toMatchObject({ message: "账号余额不足", type: "insufficient_quota" });
    expect(await channelStatus(owing)).toBe(3);
  });

  test("the channel test reaches the app", async () => {
    const id = await fastgptChannel(`fastgpt-generalb-${appId}`, "my-knowledge-base");
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(fastgpt.received.at(-1)!.json).toMatchObject({ appId, messages: [{ role: "user", content: "hi" }] });
  });
});
