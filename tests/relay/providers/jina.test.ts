// Jina (38) through the real relay and the official openai client, against an imitation of
// Jina's API: embeddings (Jina's options passed through, floats encoded for the SDK's base64),
// rerank in the relay's format, usage and quota, and the failures with their verdicts (an invalid
// key, no balance, a rate limit).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startJinaUpstream, type JinaUpstream } from "../../fixtures/jina-upstream.ts";
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
let jina: JinaUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  jina = await startJinaUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d"]) jina.addKey(`jina_${name}`);
  await setOptions(world, {
    ModelRatio: JSON.stringify({ "jina-embeddings-v3": 1, "jina-reranker-v2-base-multilingual": 1, "jina-e-1": 1, "jina-e-2": 1 }),
  });
});
afterAll(async () => {
  await world.stop();
  await jina.stop();
});
beforeEach(async () => {
  jina.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);

describe("Jina (38)", () => {
  test("embeddings: Bearer key, Jina's options passed on, encoding_format not sent, base64 for the SDK, usage and quota", async () => {
    await addChannel(world, { type: ChannelType.Jina, key: "jina_a", base_url: jina.url, models: "jina-embeddings-v3" });
    const result = await openai(world, key).embeddings.create({
      model: "jina-embeddings-v3",
      input: ["Organic skincare", "Bio-Hautpflege"],
      dimensions: 256,
      task: "retrieval.passage",
    } as never);
    expect(result.data.map((item) => item.embedding)).toEqual([
      [0.125, 0],
      [0.125, 1],
    ]);
    const request = jina.received[0]!;
    expect(request.path).toBe("/v1/embeddings");
    expect(request.headers.authorization).toBe("Bearer jina_a");
    expect(request.json).toEqual({
      model: "jina-embeddings-v3",
      input: ["Organic skincare", "Bio-Hautpflege"],
      dimensions: 256,
      task: "retrieval.passage",
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([9, 9]);
  });

  test("rerank through the openai client: the request passes as it is, usage billed", async () => {
    await addChannel(world, { type: ChannelType.Jina, key: "jina_b", base_url: jina.url, models: "jina-reranker-v2-base-multilingual" });
    const body = {
      model: "jina-reranker-v2-base-multilingual",
      query: "skin",
      documents: ["Organic skincare for sensitive skin", "New makeup trends"],
      top_n: 1,
    };
    const result = (await openai(world, key).post("/rerank", { body })) as { results: unknown[]; usage: unknown };
    expect(result.results).toEqual([{ index: 0, relevance_score: 0.9, document: { text: "Organic skincare for sensitive skin" } }]);
    expect(jina.received[0]!.path).toBe("/v1/rerank");
    expect(jina.received[0]!.json).toEqual(body);
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([9, 9]);
  });

  test("an invalid key (401) and an empty balance (402) disable; a rate limit (429) is retried elsewhere", async () => {
    const dead = await addChannel(world, {
      type: ChannelType.Jina,
      key: "jina_zz",
      base_url: jina.url,
      models: "jina-e-1",
      model_mapping: '{"jina-e-1":"jina-embeddings-v3"}',
    });
    const refused = await postRelay(world, "/v1/embeddings", key, { model: "jina-e-1", input: "x" });
    expect(refused.status).toBe(401);
    expect(withoutRequestId(refused.json).error).toMatchObject({ type: "authentication_error" });
    expect(await channelStatus(dead)).toBe(3);

    const poor = await addChannel(world, {
      type: ChannelType.Jina,
      key: "jina_c",
      base_url: jina.url,
      models: "jina-e-1",
      model_mapping: '{"jina-e-1":"jina-embeddings-v3"}',
    });
    jina.behave("jina_c", { status: 402 });
    const unpaid = await postRelay(world, "/v1/embeddings", key, { model: "jina-e-1", input: "x" });
    expect(unpaid.status).toBe(402);
    expect(withoutRequestId(unpaid.json).error).toMatchObject({
      message: "Insufficient balance: please top up at [upstream]",
      type: "insufficient_quota",
    });
    expect(await channelStatus(poor)).toBe(3);

    await setOptions(world, { RetryTimes: 1 });
    jina.reset();
    const busy = await addChannel(world, {
      type: ChannelType.Jina,
      key: "jina_d",
      base_url: jina.url,
      models: "jina-e-2",
      model_mapping: '{"jina-e-2":"jina-embeddings-v3"}',
      priority: 5,
    });
    const spare = await addChannel(world, {
      type: ChannelType.Jina,
      key: "jina_a",
      base_url: jina.url,
      models: "jina-e-2",
      model_mapping: '{"jina-e-2":"jina-embeddings-v3"}',
      priority: 1,
    });
    jina.behave("jina_d", { status: 429 });
    const answered = await postRelay(world, "/v1/embeddings", key, { model: "jina-e-2", input: "x" });
    expect(answered.status).toBe(200);
    expect(jina.received.map((entry) => entry.who)).toEqual(["jina_d", "jina_a"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);
  });

  test("channel tests reach embeddings and rerank; chat fails locally (501), reaching nobody", async () => {
    const id = await addChannel(world, {
      type: ChannelType.Jina,
      key: "jina_b",
      base_url: jina.url,
      models: "jina-embeddings-v3,jina-reranker-v2-base-multilingual",
    });
    expect((await world.root.get(`/api/channel/test/${id}`)).body.success).toBe(true);
    expect(jina.received.at(-1)!.path).toBe("/v1/embeddings");
    expect((await world.root.get(`/api/channel/test/${id}?model=jina-reranker-v2-base-multilingual`)).body.success).toBe(true);
    expect(jina.received.at(-1)!.path).toBe("/v1/rerank");
    const chat = await postRelay(world, "/v1/chat/completions", key, {
      model: "jina-embeddings-v3",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(chat.status).toBe(501);
    expect(jina.received).toHaveLength(2);
  });
});
