// MiniMax (35) through the real relay and the official openai client, against an imitation of
// chat completion v2: the request (sampling kept inside MiniMax's ranges), answers whole and
// streamed (the closing chat.completion event not repeated to the client), usage and quota, and
// base_resp failures with their verdicts (an unknown key, a rate limit, no balance).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startMinimaxUpstream, type MinimaxUpstream } from "../../fixtures/minimax-upstream.ts";
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
let minimax: MinimaxUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  minimax = await startMinimaxUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d"]) minimax.addKey(`mm-${name}`);
  const ratios: Record<string, number> = {};
  for (let index = 1; index <= 9; index++) ratios[`mm-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "mm-1": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await minimax.stop();
});
beforeEach(async () => {
  minimax.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const minimaxChannel = (apiKey: string, alias: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.MiniMax,
    key: apiKey,
    base_url: minimax.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: "abab6.5s-chat" }),
    ...extra,
  });

describe("MiniMax (35)", () => {
  test("a whole answer: chatcompletion_v2, temperature 0 moved inside (0, 1], usage and quota", async () => {
    await minimaxChannel("mm-a", "mm-1");
    const answer = await openai(world, key).chat.completions.create({
      model: "mm-1",
      messages: [{ role: "user", content: "你好" }],
      temperature: 0,
      max_tokens: 100,
    });
    expect(answer.choices[0]!.message.content).toBe("你好，我是 MiniMax 的模型。");
    const request = minimax.received[0]!;
    expect(request.path).toBe("/v1/text/chatcompletion_v2");
    expect(request.headers.authorization).toBe("Bearer mm-a");
    expect(request.json).toEqual({
      model: "abab6.5s-chat",
      messages: [{ role: "user", content: "你好" }],
      temperature: 0.01,
      max_tokens: 100,
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([12, 9, 12 + 9 * 2]);
  });

  test("a stream: deltas once, the closing whole message not repeated, its usage in the usage chunk", async () => {
    await minimaxChannel("mm-b", "mm-2");
    const stream = await openai(world, key).chat.completions.create({
      model: "mm-2",
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
    expect(text).toBe("你好，我是 MiniMax 的模型。");
    expect(finish).toBe("stop");
    expect(usage).toEqual({ prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 });
    expect(minimax.received[0]!.json.stream_options).toBeUndefined();
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens)]).toEqual([12, 9]);
  });

  test("a key MiniMax does not know (1004 in a 200 answer): 401, the channel disabled", async () => {
    const id = await minimaxChannel("mm-zz", "mm-3");
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "mm-3", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toMatchObject({ type: "authentication_error", code: 1004 });
    expect(await channelStatus(id)).toBe(3);
  });

  test("a rate limit (1002) is retried elsewhere and disables nothing; no balance (1008) disables", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await minimaxChannel("mm-c", "mm-4", { priority: 5 });
    const spare = await minimaxChannel("mm-d", "mm-4", { priority: 1 });
    minimax.behave("mm-c", { errorCode: 1002 });
    const answered = await postRelay(world, "/v1/chat/completions", key, {
      model: "mm-4",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    expect(answered.status).toBe(200);
    expect(answered.text).toContain("[DONE]");
    expect(minimax.received.map((entry) => entry.who)).toEqual(["mm-c", "mm-d"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);

    await setOptions(world, { RetryTimes: 0 });
    const owing = await minimaxChannel("mm-a", "mm-5");
    minimax.behave("mm-a", { errorCode: 1008 });
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "mm-5", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(429);
    expect(withoutRequestId(refused.json).error.type).toBe("insufficient_quota");
    expect(await channelStatus(owing)).toBe(3);
  });

  test("the channel test reaches chatcompletion_v2", async () => {
    const id = await addChannel(world, { type: ChannelType.MiniMax, key: "mm-b", base_url: minimax.url, models: "abab6.5s-chat" });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(minimax.received.at(-1)!.path).toBe("/v1/text/chatcompletion_v2");
  });
});
