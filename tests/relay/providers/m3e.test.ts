// MokaAI M3E (44) through the real relay and the official openai client, against an imitation of
// the self-hosted M3E API: OpenAI's embeddings with the deployment key, floats encoded for the
// SDK's base64, usage and quota, a wrong key (disabled) and an overloaded deployment (retried).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startM3eUpstream, type M3eUpstream } from "../../fixtures/m3e-upstream.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  openai,
  postRelay,
  setOptions,
  startRelayWorld,
  type RelayWorld,
} from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let m3e: M3eUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  m3e = await startM3eUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c"]) m3e.addKey(`sk-m3e-${name}`);
  await setOptions(world, { ModelRatio: JSON.stringify({ "m3e-base": 1, "m3e-1": 1 }) });
});
afterAll(async () => {
  await world.stop();
  await m3e.stop();
});
beforeEach(async () => {
  m3e.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);

describe("MokaAI M3E (44)", () => {
  test("embeddings: /v1/embeddings with the deployment key, no encoding_format, base64 for the SDK, usage and quota", async () => {
    await addChannel(world, { type: ChannelType.MokaAI, key: "sk-m3e-a", base_url: m3e.url, models: "m3e-base" });
    const result = await openai(world, key).embeddings.create({ model: "m3e-base", input: ["什么是 laf", "知识库"] });
    expect(result.data.map((item) => Array.from(item.embedding))).toEqual([
      [0.5, 0.25, 0],
      [0.5, 0.25, 1],
    ]);
    expect(m3e.received[0]!.path).toBe("/v1/embeddings");
    expect(m3e.received[0]!.headers.authorization).toBe("Bearer sk-m3e-a");
    expect(m3e.received[0]!.json).toEqual({ model: "m3e-base", input: ["什么是 laf", "知识库"] });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([10, 10]);
  });

  test("a wrong key disables the channel; an overloaded deployment (429) is retried elsewhere", async () => {
    const dead = await addChannel(world, {
      type: ChannelType.MokaAI,
      key: "sk-wrong",
      base_url: m3e.url,
      models: "m3e-1",
      model_mapping: '{"m3e-1":"m3e-base"}',
    });
    const refused = await postRelay(world, "/v1/embeddings", key, { model: "m3e-1", input: "x" });
    expect(refused.status).toBe(401);
    expect(await channelStatus(dead)).toBe(3);

    await setOptions(world, { RetryTimes: 1 });
    m3e.reset();
    const busy = await addChannel(world, {
      type: ChannelType.MokaAI,
      key: "sk-m3e-b",
      base_url: m3e.url,
      models: "m3e-1",
      model_mapping: '{"m3e-1":"m3e-base"}',
      priority: 5,
    });
    const spare = await addChannel(world, {
      type: ChannelType.MokaAI,
      key: "sk-m3e-c",
      base_url: m3e.url,
      models: "m3e-1",
      model_mapping: '{"m3e-1":"m3e-base"}',
      priority: 1,
    });
    m3e.behave("sk-m3e-b", { rateLimited: true });
    const answered = await postRelay(world, "/v1/embeddings", key, { model: "m3e-1", input: "x", encoding_format: "float" });
    expect(answered.status).toBe(200);
    expect(answered.json.data[0].embedding).toEqual([0.5, 0.25, 0]);
    expect(m3e.received.map((entry) => entry.who)).toEqual(["sk-m3e-b", "sk-m3e-c"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);
  });

  test("the channel test reaches embeddings", async () => {
    const id = await addChannel(world, { type: ChannelType.MokaAI, key: "sk-m3e-a", base_url: m3e.url, models: "m3e-large" });
    expect((await world.root.get(`/api/channel/test/${id}`)).body.success).toBe(true);
    expect(m3e.received.at(-1)!.json).toEqual({ model: "m3e-large", input: ["hello world"] });
  });
});
