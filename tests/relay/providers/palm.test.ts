// PaLM 2 (channel type 11) through the real relay with the official openai client: the
// generateMessage request, whole answers, streamed answers synthesised from the whole one, usage
// counted locally and billed, refusals, errors with their verdicts, fetch models, channel test.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { countTextTokens } from "../../../src/services/billing/token-counter.ts";
import { n, postRelay } from "../../helpers/relay-world.ts";
import {
  addGoogleChannel,
  addToken,
  balances,
  channelStatus,
  lastLog,
  openai,
  readStream,
  setOptions,
  startGoogleWorld,
  type GoogleWorld,
} from "../../helpers/google-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: GoogleWorld;
let key: string;
let channelId: number;

beforeAll(async () => {
  world = await startGoogleWorld();
  world.google.acceptKey("AIza-palm");
  channelId = await addGoogleChannel(world, { type: ChannelType.PaLM, key: "AIza-palm", models: "PaLM-2" });
  await setOptions(world, {
    ModelRatio: JSON.stringify({ "PaLM-2": 1, "palm-dead": 1 }),
    CompletionRatio: JSON.stringify({ "PaLM-2": 1 }),
  });
  key = (await addToken(world.root)).key;
});
afterAll(() => world.stop());
beforeEach(() => world.google.reset());

const messages = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Say hi" },
];

test("whole answer: generateMessage of chat-bison-001 with the key header; usage counted locally and billed", async () => {
  const before = await balances(world, channelId);
  const answer = await openai(world, key).chat.completions.create({ model: "PaLM-2", messages: messages as never, temperature: 0.1 });
  const [received] = world.google.received;
  expect(received!.path).toBe("/v1beta2/models/chat-bison-001:generateMessage");
  expect(received!.headers["x-goog-api-key"]).toBe("AIza-palm");
  expect(received!.json).toEqual({
    prompt: { context: "You are terse.", messages: [{ author: "0", content: "Say hi" }] },
    temperature: 0.1,
  });
  expect(answer.choices[0]!.message.content).toBe("PaLM heard: Say hi");
  const log = await lastLog(world);
  expect(n(log.completion_tokens)).toBe(countTextTokens("PaLM heard: Say hi", "PaLM-2"));
  expect(n(log.prompt_tokens)).toBeGreaterThan(0);
  expect(n(log.quota)).toBe(n(log.prompt_tokens) + n(log.completion_tokens));
  const after = await balances(world, channelId);
  expect([after.user - before.user, after.channel - before.channel]).toEqual([n(log.quota), n(log.quota)]);
});

test("streamed: PaLM answers whole, the client gets chunks synthesised from it, with a local usage chunk", async () => {
  const result = await readStream(openai(world, key), { model: "PaLM-2", messages, stream_options: { include_usage: true } });
  expect(world.google.received[0]!.path).toBe("/v1beta2/models/chat-bison-001:generateMessage");
  expect(result.content).toBe("PaLM heard: Say hi");
  expect(result.finish).toBe("stop");
  const log = await lastLog(world);
  expect(result.usage).toEqual({
    prompt_tokens: n(log.prompt_tokens),
    completion_tokens: n(log.completion_tokens),
    total_tokens: n(log.prompt_tokens) + n(log.completion_tokens),
  });
  expect(n(log.is_stream)).toBe(1);
});

test("a filtered prompt is a 400 whole or streamed; tools are refused before any call", async () => {
  world.google.behave("AIza-palm", { blockPrompt: "SAFETY" });
  for (const stream of [false, true]) {
    const result = await postRelay(world, "/v1/chat/completions", key, { model: "PaLM-2", messages, stream });
    expect([result.status, result.json.error.code]).toEqual([400, "prompt_blocked"]);
  }
  world.google.behave("AIza-palm", {});
  const tools = await postRelay(world, "/v1/chat/completions", key, {
    model: "PaLM-2",
    messages,
    tools: [{ type: "function", function: { name: "f" } }],
  });
  expect([tools.status, tools.json.error.message]).toEqual([400, expect.stringContaining("PaLM 2 不支持工具调用")]);
  expect(world.google.received).toHaveLength(2);
});

test("errors: 429 and 500 retried on another channel; an invalid key disables the channel", async () => {
  await setOptions(world, { RetryTimes: 1, AutomaticDisableChannelEnabled: true });
  try {
    world.google.acceptKey("AIza-palm-spare");
    await addGoogleChannel(world, { type: ChannelType.PaLM, key: "AIza-palm-spare", models: "PaLM-2", priority: -1 });
    for (const status of [429, 500]) {
      world.google.reset();
      world.google.behave("AIza-palm", { status });
      const answer = await openai(world, key).chat.completions.create({ model: "PaLM-2", messages: messages as never });
      expect(answer.choices[0]!.message.content).toBe("PaLM heard: Say hi");
      expect(world.google.received.map((entry) => entry.key)).toEqual(["AIza-palm", "AIza-palm-spare"]);
    }
    world.google.behave("AIza-palm", {});
    const dead = await addGoogleChannel(world, { type: ChannelType.PaLM, key: "AIza-palm-dead", models: "palm-dead" });
    const result = await postRelay(world, "/v1/chat/completions", key, { model: "palm-dead", messages });
    expect([result.status, result.json.error.type]).toEqual([400, "authentication_error"]);
    expect(await channelStatus(world, dead)).toBe(3);
    expect(await channelStatus(world, channelId)).toBe(1);
  } finally {
    await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: false });
  }
});

test("fetch models lists the message models; the channel test passes", async () => {
  const models = await world.root.post("/api/channel/fetch_models", {
    type: ChannelType.PaLM,
    key: "AIza-palm",
    base_url: world.google.url,
  });
  expect(models.body).toMatchObject({ success: true, data: ["chat-bison-001"] });
  world.google.reset();
  const tested = await world.root.get(`/api/channel/test/${channelId}`);
  expect(tested.body.success).toBe(true);
  expect(world.google.received[0]!.path).toBe("/v1beta2/models/chat-bison-001:generateMessage");
});

test("errors: INVALID_ARGUMENT is the client's (not retried although a spare channel exists, nothing disabled or billed); PERMISSION_DENIED disables", async () => {
  await setOptions(world, { RetryTimes: 1, AutomaticDisableChannelEnabled: true });
  try {
    const before = await balances(world, channelId);
    world.google.behave("AIza-palm", { status: 400, message: "Invalid value at 'prompt.messages[0]'" });
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "PaLM-2", messages });
    expect([refused.status, refused.json.error.code]).toEqual([400, "INVALID_ARGUMENT"]);
    expect(refused.json.error.message).toStartWith("Invalid value at 'prompt.messages[0]'");
    expect(world.google.received.map((entry) => entry.key)).toEqual(["AIza-palm"]);
    expect(await channelStatus(world, channelId)).toBe(1);
    expect(await balances(world, channelId)).toEqual(before);

    world.google.behave("AIza-palm", {});

    // PERMISSION_DENIED is the key's: the channel is taken out of service.
    await setOptions(world, { ModelRatio: JSON.stringify({ "PaLM-2": 1, "palm-dead": 1, "palm-denied": 1 }) });
    world.google.acceptKey("AIza-palm-denied");
    const denied = await addGoogleChannel(world, { type: ChannelType.PaLM, key: "AIza-palm-denied", models: "palm-denied" });
    world.google.behave("AIza-palm-denied", { status: 403, message: "The caller does not have permission" });
    const answer = await postRelay(world, "/v1/chat/completions", key, { model: "palm-denied", messages });
    expect([answer.status, answer.json.error.code]).toEqual([403, "PERMISSION_DENIED"]);
    expect(await channelStatus(world, denied)).toBe(3);
    expect(await channelStatus(world, channelId)).toBe(1);
  } finally {
    world.google.behave("AIza-palm", {});
    await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: false });
  }
});
