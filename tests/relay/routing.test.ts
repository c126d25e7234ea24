// Channel choice when upstreams fail: retries on other channels stepping down the priority
// tiers, status_code_mapping, never a retry once the client got a byte, model_mapping, the retry
// chain in the log, and automatic disabling of channels whose key or account is dead.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { countTextTokens } from "../../src/services/billing/token-counter.ts";
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
} from "../helpers/relay-world.ts";

let world: RelayWorld;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  key = (await addToken(world.root)).key;
});
afterAll(() => world.stop());
beforeEach(async () => {
  world.upstream.reset();
  // Each test builds its own channels for a model of its own.
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: false });
});

const chat = (model: string, extra: Record<string, unknown> = {}) =>
  postRelay(world, "/v1/chat/completions", key, { model, messages: [{ role: "user", content: "hi" }], ...extra });
const keysReceived = () => world.upstream.received.map((entry) => entry.key);
const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);

describe("retries", () => {
  test("a failing top tier falls back to the next tier; the chain is logged", async () => {
    await setOptions(world, { RetryTimes: 2 });
    const high = await addChannel(world, { key: "sk-tier-high", models: "gpt-4o", priority: 10 });
    const low = await addChannel(world, { key: "sk-tier-low", models: "gpt-4o", priority: 0 });
    world.upstream.behave("sk-tier-high", { status: 500 });
    const answer = await openai(world, key).chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock upstream.");
    expect(keysReceived()).toEqual(["sk-tier-high", "sk-tier-low"]);
    const log = await lastLog();
    expect(n(log.channel_id)).toBe(low);
    expect(JSON.parse(log.other).admin_info.use_channel).toEqual([String(high), String(low)]);
  });

  test("without RetryTimes the first failure is the answer, with the upstream's status and words", async () => {
    await addChannel(world, { key: "sk-once-a", models: "gpt-4-turbo", priority: 5 });
    await addChannel(world, { key: "sk-once-b", models: "gpt-4-turbo", priority: 0 });
    world.upstream.behave("sk-once-a", { status: 500 });
    const response = await chat("gpt-4-turbo");
    expect(response.status).toBe(500);
    expect(withoutRequestId(response.json).error).toEqual({ message: "mock failure 500", type: "server_error", param: "", code: null });
    expect(keysReceived()).toEqual(["sk-once-a"]);
  });

  test("network errors and 429 are retried; a final 429 says the group is saturated, with the upstream's reason", async () => {
    await setOptions(world, { RetryTimes: 3 });
    await addChannel(world, { key: "sk-dead-port", models: "gpt-4.1", priority: 9, base_url: "http://127.0.0.1:9" });
    await addChannel(world, { key: "sk-busy", models: "gpt-4.1", priority: 1 });
    world.upstream.behave("sk-busy", { status: 429 });
    const response = await chat("gpt-4.1");
    expect(response.status).toBe(429);
    expect(withoutRequestId(response.json).error.message).toBe("当前分组上游负载已饱和，请稍后再试（上游原因：mock failure 429）");
    expect(keysReceived().every((received) => received === "sk-busy")).toBe(true);
    expect(keysReceived().length).toBe(3);
    // It says when to come back (issue 15 §5): a short wait when the upstream named none...
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    // ...and the upstream's own when it did.
    world.upstream.behave("sk-busy", { status: 429, retryAfter: "17" });
    const told = await chat("gpt-4.1");
    expect(told.status).toBe(429);
    expect(told.headers.get("retry-after")).toBe("17");
  });

  test("4xx answers are not retried; the upstream's message is scrubbed of keys", async () => {
    await setOptions(world, { RetryTimes: 3 });
    await addChannel(world, { key: "sk-revoked", models: "gpt-4.1-mini", priority: 9 });
    await addChannel(world, { key: "sk-fine", models: "gpt-4.1-mini", priority: 1 });
    world.upstream.behave("sk-revoked", { status: 401 });
    const response = await chat("gpt-4.1-mini");
    expect(response.status).toBe(401);
    expect(response.json.error.message).toContain("Incorrect API key provided: sk-***");
    expect(response.json.error.message).not.toContain("wxyz");
    expect(keysReceived()).toEqual(["sk-revoked"]);
  });

  test("status_code_mapping makes a status retryable (and is what the client sees)", async () => {
    await setOptions(world, { RetryTimes: 1 });
    await addChannel(world, { key: "sk-mapped-400", models: "gpt-4.1-nano", priority: 9, status_code_mapping: '{"400":"500"}' });
    await addChannel(world, { key: "sk-after-400", models: "gpt-4.1-nano", priority: 1 });
    world.upstream.behave("sk-mapped-400", { status: 400 });
    world.upstream.behave("sk-after-400", { status: 400 });
    const response = await chat("gpt-4.1-nano");
    expect(keysReceived()).toEqual(["sk-mapped-400", "sk-after-400"]);
    expect(response.status).toBe(400);
  });

  test("a stream that stays silent before its first event is retried elsewhere", async () => {
    await setOptions(world, { RetryTimes: 1 });
    await addChannel(world, { key: "sk-silent", models: "o1-mini", priority: 9 });
    await addChannel(world, { key: "sk-speaks", models: "o1-mini", priority: 1 });
    world.upstream.behave("sk-silent", { stall: true });
    const response = await chat("o1-mini", { stream: true });
    expect(response.status).toBe(200);
    expect(response.text).toContain("data: [DONE]");
    expect(keysReceived()).toEqual(["sk-silent", "sk-speaks"]);
  }, 20_000);

  test("an error object instead of the first chunk, or inside a 200 answer, is a failure retried elsewhere", async () => {
    await setOptions(world, { RetryTimes: 1 });
    await addChannel(world, { key: "sk-bad-stream", models: "o3-mini", priority: 9 });
    await addChannel(world, { key: "sk-good-stream", models: "o3-mini", priority: 1 });
    world.upstream.behave("sk-bad-stream", { errorInStream: true });
    const streamed = await chat("o3-mini", { stream: true });
    expect(streamed.status).toBe(200);
    expect(keysReceived()).toEqual(["sk-bad-stream", "sk-good-stream"]);
    world.upstream.reset();
    world.upstream.behave("sk-bad-stream", { errorWith200: true });
    const whole = await chat("o3-mini");
    expect(whole.status).toBe(200);
    expect(whole.json.choices).toHaveLength(1);
    expect(keysReceived()).toEqual(["sk-bad-stream", "sk-good-stream"]);
  });
});

describe("no retry once the client got a byte", () => {
  test("a stream cut mid-way: one upstream call, the chunks already sent, then an error event", async () => {
    await setOptions(world, { RetryTimes: 3 });
    await addChannel(world, { key: "sk-cut", models: "gpt-4o-2024-08-06", priority: 9 });
    await addChannel(world, { key: "sk-never", models: "gpt-4o-2024-08-06", priority: 1 });
    world.upstream.behave("sk-cut", { chunks: 5, cutAfterChunks: 2, content: "alpha beta gamma delta epsilon " });
    const response = await chat("gpt-4o-2024-08-06", { stream: true });
    expect(response.status).toBe(200);
    expect(response.text).toContain('"content":"alpha "');
    expect(response.text).toContain('"content":"beta "');
    expect(response.text).not.toContain("gamma");
    expect(response.text).toContain('"code":"upstream_stream_broken"');
    expect(response.text).not.toContain("[DONE]");
    expect(keysReceived()).toEqual(["sk-cut"]);
    // Billed for what was delivered, counted locally.
    const log = await lastLog();
    expect(n(log.completion_tokens)).toBe(countTextTokens("alpha beta ", "gpt-4o"));
    expect(log.content).toContain("上游中断");
  });

  test("a stream that stalls mid-way ends with a timeout event after STREAMING_TIMEOUT", async () => {
    await addChannel(world, { key: "sk-stall-mid", models: "gpt-4o-2024-11-20" });
    world.upstream.behave("sk-stall-mid", { chunks: 4, stallAfterChunks: 1 });
    const response = await chat("gpt-4o-2024-11-20", { stream: true });
    expect(response.text).toContain('"code":"upstream_timeout"');
    expect(keysReceived()).toEqual(["sk-stall-mid"]);
    expect((await lastLog()).content).toContain("上游响应超时");
  }, 20_000);
});

describe("model mapping", () => {
  test("the upstream gets the mapped name; price and logs keep the asked one", async () => {
    await addChannel(world, { key: "sk-map", models: "chatgpt-4o-latest", model_mapping: '{"chatgpt-4o-latest":"gpt-4o-2024-11-20"}' });
    const response = await chat("chatgpt-4o-latest");
    expect(response.status).toBe(200);
    expect(world.upstream.received[0]!.json.model).toBe("gpt-4o-2024-11-20");
    const log = await lastLog();
    expect(log.model_name).toBe("chatgpt-4o-latest");
    expect(JSON.parse(log.other)).toMatchObject({ is_model_mapped: true, upstream_model_name: "gpt-4o-2024-11-20", model_ratio: 2.5 });
  });
});

describe("automatic disabling", () => {
  test("a dead key disables the channel (reason and time kept) and traffic moves on", async () => {
    await setOptions(world, { AutomaticDisableChannelEnabled: true, RetryTimes: 1 });
    const dead = await addChannel(world, { key: "sk-dead-key", models: "gpt-3.5-turbo", priority: 9 });
    const alive = await addChannel(world, { key: "sk-alive-key", models: "gpt-3.5-turbo", priority: 1 });
    world.upstream.behave("sk-dead-key", { status: 401 });
    expect((await chat("gpt-3.5-turbo")).status).toBe(401);
    expect(await channelStatus(dead)).toBe(3);
    const info = JSON.parse((await one(world, "select other_info from channels where id = ?", dead)).other_info);
    expect(info.status_reason).toContain("status 401");
    expect(info.status_time).toBeGreaterThan(0);
    const abilities = await world.server.store.query<{ enabled: unknown }>("select enabled from abilities where channel_id = ?", dead);
    expect(abilities.length).toBeGreaterThan(0);
    expect(abilities.every((ability) => Number(ability.enabled) === 0)).toBe(true);
    world.upstream.reset();
    expect((await chat("gpt-3.5-turbo")).status).toBe(200);
    expect(keysReceived()).toEqual(["sk-alive-key"]);
    expect(await channelStatus(alive)).toBe(1);
  });

  test("a disable keyword in the message disables; a plain rate limit does not", async () => {
    await setOptions(world, { AutomaticDisableChannelEnabled: true });
    const broke = await addChannel(world, { key: "sk-broke", models: "gpt-4" });
    world.upstream.behave("sk-broke", {
      status: 429,
      errorBody: { error: { message: "You exceeded your current quota, please check your plan", type: "requests" } },
    });
    await chat("gpt-4");
    expect(await channelStatus(broke)).toBe(3);
    const busy = await addChannel(world, { key: "sk-just-busy", models: "gpt-4-32k" });
    world.upstream.behave("sk-just-busy", { status: 429 });
    await chat("gpt-4-32k");
    expect(await channelStatus(busy)).toBe(1);
  });

  test("a channel the relay disabled is enabled again by a passing test (GET /api/channel/test/{id})", async () => {
    await setOptions(world, { AutomaticDisableChannelEnabled: true, AutomaticEnableChannelEnabled: true });
    const flaky = await addChannel(world, { key: "sk-comes-back", models: "gpt-3.5-turbo-0125" });
    world.upstream.behave("sk-comes-back", [{ status: 401 }, {}]);
    expect((await chat("gpt-3.5-turbo-0125")).status).toBe(401);
    expect(await channelStatus(flaky)).toBe(3);
    expect((await chat("gpt-3.5-turbo-0125")).status).toBe(503);
    const tested = await world.root.get(`/api/channel/test/${flaky}`);
    expect(tested.body.success).toBe(true);
    expect(await channelStatus(flaky)).toBe(1);
    expect((await chat("gpt-3.5-turbo-0125")).status).toBe(200);
    await setOptions(world, { AutomaticEnableChannelEnabled: false });
  });

  test("nothing is disabled when the option is off or the channel's auto_ban is 0", async () => {
    const keep = await addChannel(world, { key: "sk-keep-off", models: "davinci-002" });
    world.upstream.behave("sk-keep-off", { status: 401 });
    await chat("davinci-002");
    expect(await channelStatus(keep)).toBe(1);
    await setOptions(world, { AutomaticDisableChannelEnabled: true });
    const noBan = await addChannel(world, { key: "sk-no-ban", models: "babbage-002", auto_ban: 0 });
    world.upstream.behave("sk-no-ban", { status: 401 });
    await chat("babbage-002");
    expect(await channelStatus(noBan)).toBe(1);
  });
});
