// Cloudflare Workers AI (39) through the real relay and the official openai client, against an
// imitation of Cloudflare's account-scoped API: the account id from the channel's other field in
// every path, chat whole and streamed, embeddings, usage and quota, the model catalogue, and
// Cloudflare's failures with their verdicts (a bad token, the daily allocation used up, out of
// capacity).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startCloudflareUpstream, type CloudflareUpstream } from "../../fixtures/cloudflare-upstream.ts";
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
let cloudflare: CloudflareUpstream;
let key: string;

const account = "d6b5da8hk1awo8nap34ube6gh";

beforeAll(async () => {
  world = await startRelayWorld();
  cloudflare = await startCloudflareUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d"]) cloudflare.addToken(`cf-${name}`, account);
  const ratios: Record<string, number> = { "@cf/baai/bge-m3": 0.5 };
  for (let index = 1; index <= 9; index++) ratios[`cf-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "cf-1": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await cloudflare.stop();
});
beforeEach(async () => {
  cloudflare.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const cfChannel = (token: string, alias: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.Cloudflare,
    key: token,
    base_url: cloudflare.url,
    other: account,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: "@cf/meta/llama-3.1-8b-instruct" }),
    ...extra,
  });

describe("Cloudflare Workers AI (39)", () => {
  test("a whole answer: the account's OpenAI-compatible path, Bearer token, usage and quota", async () => {
    await cfChannel("cf-a", "cf-1");
    const answer = await openai(world, key).chat.completions.create({
      model: "cf-1",
      messages: [{ role: "user", content: "Make some robot noises" }],
    });
    expect(answer.choices[0]!.message.content).toBe("Beep boop, I am a robot.");
    const request = cloudflare.received[0]!;
    expect(request.path).toBe(`/client/v4/accounts/${account}/ai/v1/chat/completions`);
    expect(request.headers.authorization).toBe("Bearer cf-a");
    expect(request.json).toEqual({
      model: "@cf/meta/llama-3.1-8b-instruct",
      messages: [{ role: "user", content: "Make some robot noises" }],
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([16, 7, 16 + 7 * 2]);
  });

  test("a stream with its usage chunk", async () => {
    await cfChannel("cf-b", "cf-2");
    const stream = await openai(world, key).chat.completions.create({
      model: "cf-2",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Beep boop, I am a robot.");
    expect(usage).toEqual({ prompt_tokens: 16, completion_tokens: 7, total_tokens: 23 });
  });

  test("embeddings on the account's path, base64 for the SDK", async () => {
    await addChannel(world, {
      type: ChannelType.Cloudflare,
      key: "cf-c",
      base_url: cloudflare.url,
      other: account,
      models: "@cf/baai/bge-m3",
    });
    const result = await openai(world, key).embeddings.create({ model: "@cf/baai/bge-m3", input: "I love matcha" });
    expect(result.data[0]!.embedding).toEqual([0.75, 0]);
    expect(cloudflare.received[0]!.path).toBe(`/client/v4/accounts/${account}/ai/v1/embeddings`);
    expect(cloudflare.received[0]!.json).toEqual({ model: "@cf/baai/bge-m3", input: "I love matcha" });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([5, 3]);
  });

  test("a bad token (10000) and a used-up daily allocation (3036) disable; out of capacity (3040) is retried", async () => {
    const dead = await cfChannel("cf-zz", "cf-3");
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "cf-3", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(401);
    expect(withoutRequestId(refused.json).error).toMatchObject({
      message: "Authentication error",
      type: "authentication_error",
      code: 10000,
    });
    expect(await channelStatus(dead)).toBe(3);

    const spent = await cfChannel("cf-d", "cf-4");
    cloudflare.behave("cf-d", { errorCode: 3036 });
    const allocation = await postRelay(world, "/v1/chat/completions", key, { model: "cf-4", messages: [{ role: "user", content: "hi" }] });
    expect(allocation.status).toBe(429);
    expect(withoutRequestId(allocation.json).error).toMatchObject({ type: "insufficient_quota", code: 3036 });
    expect(await channelStatus(spent)).toBe(3);

    await setOptions(world, { RetryTimes: 1 });
    cloudflare.reset();
    const busy = await cfChannel("cf-a", "cf-5", { priority: 5 });
    const spare = await cfChannel("cf-b", "cf-5", { priority: 1 });
    cloudflare.behave("cf-a", { errorCode: 3040 });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "cf-5", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(cloudflare.received.map((entry) => entry.who)).toEqual(["cf-a", "cf-b"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);
  });

  test("a channel without an account id fails locally, reaching nobody", async () => {
    await addChannel(world, {
      type: ChannelType.Cloudflare,
      key: "cf-a",
      base_url: cloudflare.url,
      models: "cf-6",
      model_mapping: '{"cf-6":"@cf/meta/llama-3.1-8b-instruct"}',
    });
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "cf-6", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(500);
    expect(cloudflare.received).toHaveLength(0);
  });

  test("fetch models reads the account's catalogue (chat and embedding models); the channel test reaches chat", async () => {
    const id = await addChannel(world, {
      type: ChannelType.Cloudflare,
      key: "cf-b",
      base_url: cloudflare.url,
      other: account,
      models: "@cf/meta/llama-3.1-8b-instruct",
    });
    const models = await world.root.get(`/api/channel/fetch_models/${id}`);
    expect(models.body.data).toEqual(["@cf/meta/llama-3.1-8b-instruct", "@cf/baai/bge-m3"]);
    expect(cloudflare.received[0]!.path).toBe(`/client/v4/accounts/${account}/ai/models/search`);
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(cloudflare.received.at(-1)!.path).toBe(`/client/v4/accounts/${account}/ai/v1/chat/completions`);
  });
});
