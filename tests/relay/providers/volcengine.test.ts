// Volcano Ark (45) through the real relay and the official openai client, against an imitation
// of Ark's documented API: endpoint ids on /api/v3/chat/completions, bot ids on the bots path,
// embeddings (floats, base64 for the SDK), usage from the stream's usage chunk and the quota, and
// Ark's failures with their verdicts (a bad key, an account in arrears, a rate limit).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startArkUpstream, type ArkUpstream } from "../../fixtures/volcengine-upstream.ts";
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
let ark: ArkUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  ark = await startArkUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d", "e"]) ark.addKey(`ark-${name}`);
  const ratios: Record<string, number> = { "doubao-embedding": 0.5 };
  for (let index = 1; index <= 9; index++) ratios[`ark-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "ark-1": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await ark.stop();
});
beforeEach(async () => {
  ark.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const arkChannel = (apiKey: string, alias: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.Volcengine,
    key: apiKey,
    base_url: ark.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: model }),
    ...extra,
  });

describe("Volcano Ark (45)", () => {
  test("an endpoint id: /api/v3/chat/completions, Bearer key, the body with the ep- model, usage and quota", async () => {
    await arkChannel("ark-a", "ark-1", "ep-20240607092512-c5wnh");
    const answer = await openai(world, key).chat.completions.create({
      model: "ark-1",
      messages: [{ role: "user", content: "你好" }],
      temperature: 0.2,
    });
    expect(answer.choices[0]!.message.content).toBe("你好，我是豆包。");
    const request = ark.received[0]!;
    expect(request.path).toBe("/api/v3/chat/completions");
    expect(request.headers.authorization).toBe("Bearer ark-a");
    expect(request.json).toEqual({ model: "ep-20240607092512-c5wnh", messages: [{ role: "user", content: "你好" }], temperature: 0.2 });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([10, 6, 10 + 6 * 2]);
  });

  test("a stream asks Ark for its usage chunk; a client that did not ask gets none, the log has Ark's usage", async () => {
    await arkChannel("ark-b", "ark-2", "ep-stream");
    const stream = await openai(world, key).chat.completions.create({
      model: "ark-2",
      messages: [{ role: "user", content: "你好" }],
      stream: true,
    });
    let text = "";
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toBe("你好，我是豆包。");
    expect(sawUsage).toBe(false);
    expect(ark.received[0]!.json.stream_options).toEqual({ include_usage: true });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens)]).toEqual([10, 6]);
  });

  test("an application id (bot-…) goes to the bots path", async () => {
    await arkChannel("ark-c", "ark-3", "bot-20240604-abcde");
    const answer = await openai(world, key).chat.completions.create({ model: "ark-3", messages: [{ role: "user", content: "查一下" }] });
    expect(answer.choices[0]!.message.content).toBe("你好，我是豆包。");
    expect(ark.received[0]!.path).toBe("/api/v3/bots/chat/completions");
    expect(ark.received[0]!.json.model).toBe("bot-20240604-abcde");
  });

  test("embeddings: encoding_format not sent (Ark answers floats), base64 for the SDK", async () => {
    await addChannel(world, {
      type: ChannelType.Volcengine,
      key: "ark-c",
      base_url: ark.url,
      models: "doubao-embedding",
      model_mapping: '{"doubao-embedding":"ep-embedding"}',
    });
    const result = await openai(world, key).embeddings.create({ model: "doubao-embedding", input: ["天很蓝", "海很深"] });
    expect(result.data.map((item) => item.embedding)).toEqual([
      [0.25, 0],
      [0.25, 1],
    ]);
    expect(ark.received[0]!.path).toBe("/api/v3/embeddings");
    expect(ark.received[0]!.json).toEqual({ model: "ep-embedding", input: ["天很蓝", "海很深"] });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([8, 4]);
  });

  test("a key Ark refuses (401 AuthenticationError) and an account in arrears (403) disable the channel", async () => {
    const unknown = await arkChannel("ark-zz", "ark-4", "ep-x");
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "ark-4", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(401);
    expect(withoutRequestId(refused.json).error).toMatchObject({ type: "authentication_error", code: "AuthenticationError" });
    expect(await channelStatus(unknown)).toBe(3);

    const owing = await arkChannel("ark-d", "ark-5", "ep-x");
    ark.behave("ark-d", { errorCode: "AccountOverdueError" });
    const overdue = await postRelay(world, "/v1/chat/completions", key, { model: "ark-5", messages: [{ role: "user", content: "hi" }] });
    expect(overdue.status).toBe(403);
    expect(withoutRequestId(overdue.json).error).toMatchObject({ type: "insufficient_quota", code: "AccountOverdueError" });
    expect(await channelStatus(owing)).toBe(3);
  });

  test("an endpoint's RPM limit (429) is retried on another channel and disables nothing", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await arkChannel("ark-e", "ark-6", "ep-x", { priority: 5 });
    const spare = await arkChannel("ark-a", "ark-6", "ep-x", { priority: 1 });
    ark.behave("ark-e", { errorCode: "RateLimitExceeded.EndpointRPMExceeded" });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "ark-6", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(ark.received.map((entry) => entry.who)).toEqual(["ark-e", "ark-a"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);
  });

  test("the channel test reaches chat completions", async () => {
    const id = await addChannel(world, { type: ChannelType.Volcengine, key: "ark-b", base_url: ark.url, models: "ep-test" });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(ark.received.at(-1)!.json).toEqual({ model: "ep-test", messages: [{ role: "user", content: "hi" }], max_tokens: 10 });
  });
});
