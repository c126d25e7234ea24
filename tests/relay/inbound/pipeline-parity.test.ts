// The vendors' formats go through the same relay as /v1/chat/completions: retries across
// channels (a passthrough channel failing, a converting one answering), the token's group and
// its ratio, the sensitive-word check (on the system prompt too), no channel for the model, and
// a model without a price, each refusal in the caller's format.
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { addChannel, addToken, n, one, postRelay, setOptions, startRelayWorld, type RelayWorld } from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let key: string;
let failing: number;
let answering: number;

beforeAll(async () => {
  world = await startRelayWorld();
  failing = await addChannel(world, {
    type: ChannelType.OpenAI,
    key: "sk-first",
    models: "parity-model",
    priority: 10,
    group: "default,vip",
  });
  answering = await addChannel(world, {
    type: ChannelType.DeepSeek,
    key: "sk-second",
    models: "parity-model",
    priority: 0,
    group: "default,vip",
  });
  await setOptions(world, {
    RetryTimes: 1,
    ModelRatio: JSON.stringify({ "parity-model": 1 }),
    CompletionRatio: JSON.stringify({ "parity-model": 2 }),
    GroupRatio: JSON.stringify({ default: 1, vip: 1.5 }),
  });
  key = (await addToken(world.root)).key;
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const lastLog = async () => {
  const row = await one<Record<string, unknown>>(world, "select * from logs where type = 2 order by id desc limit 1");
  return { group: String(row.group), quota: n(row.quota), other: JSON.parse(String(row.other)) };
};

test("a failing passthrough channel is retried on a converting one; the answer stays in the client's format", async () => {
  world.upstream.behave("sk-first", { status: 500 });
  world.upstream.behave("sk-second", { promptTokens: 10, completionTokens: 5, content: "Second." });
  const response = await postRelay(world, "/v1/responses", key, { model: "parity-model", input: "hi" });
  expect(response.status).toBe(200);
  expect(response.json).toMatchObject({
    object: "response",
    status: "completed",
    output: [{ type: "message", content: [{ type: "output_text", text: "Second." }] }],
  });
  expect(world.upstream.receivedBy("sk-first")[0]!.path).toBe("/v1/responses");
  expect(world.upstream.receivedBy("sk-second")[0]!.path).toBe("/v1/chat/completions");
  const log = await lastLog();
  expect(log.other.admin_info.use_channel).toEqual([String(failing), String(answering)]);
  expect(log.other).toMatchObject({ inbound_format: "responses", inbound_converted: true });
  expect(log.quota).toBe(20);
});

test("the token's group picks the channels and its ratio prices the call", async () => {
  const vip = await addToken(world.root, { name: "vip", group: "vip" });
  world.upstream.behave("sk-first", { promptTokens: 100, completionTokens: 50 });
  const anthropic = new Anthropic({ baseURL: world.server.url, apiKey: `sk-${vip.key}`, maxRetries: 0 });
  await anthropic.messages.create({ model: "parity-model", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
  const log = await lastLog();
  expect(log.group).toBe("vip");
  expect(log.quota).toBe(300);
  expect(log.other.group_ratio).toBe(1.5);
});

test("sensitive words are found in the system prompt and refused in Anthropic's shape", async () => {
  const response = await postRelay(
    world,
    "/v1/messages",
    undefined,
    { model: "parity-model", max_tokens: 10, system: "say test_sensitive", messages: [{ role: "user", content: "hi" }] },
    { "x-api-key": `sk-${key}` },
  );
  expect(response.status).toBe(400);
  expect(response.json).toMatchObject({
    type: "error",
    error: { type: "invalid_request_error", message: expect.stringContaining("test_sensitive") },
  });
  expect(world.upstream.received).toHaveLength(0);
});

test("a model no channel serves: 404 in Google's shape; no channel in the group: 503; no price: the operator's 503", async () => {
  const post = (model: string) =>
    fetch(`${world.server.url}/v1beta/models/${model}:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": `sk-${key}` },
      body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    });
  const none = await post("nowhere-model");
  expect(none.status).toBe(404);
  expect(await none.json()).toEqual({ error: { code: 404, message: expect.stringContaining("nowhere-model"), status: "NOT_FOUND" } });
  await addChannel(world, { type: ChannelType.OpenAI, key: "sk-other-group", models: "elsewhere-model", group: "vip" });
  await setOptions(world, { ModelRatio: JSON.stringify({ "parity-model": 1, "elsewhere-model": 1 }) });
  const elsewhere = await post("elsewhere-model");
  expect(elsewhere.status).toBe(503);
  expect(await elsewhere.json()).toEqual({
    error: { code: 503, message: expect.stringContaining("elsewhere-model"), status: "UNAVAILABLE" },
  });
  await addChannel(world, { type: ChannelType.OpenAI, key: "sk-unpriced", models: "unpriced-model" });
  const unpriced = await post("unpriced-model");
  expect(unpriced.status).toBe(503);
  expect((await unpriced.json()).error).toMatchObject({ status: "UNAVAILABLE", message: expect.stringContaining("unpriced-model") });
});
