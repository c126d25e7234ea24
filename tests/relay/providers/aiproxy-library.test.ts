// AI Proxy's knowledge base (21) through the real relay and the official openai client, against
// an imitation of its ask API: the last user question and the channel's library id sent with the
// Bearer key, a whole answer, a streamed answer made by the relay from the whole one (with the
// usage chunk, settled before [DONE]), local counts billed, and the failures with their verdicts.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { libraryAnswer, startAiProxyLibraryUpstream, type AskUpstream } from "../../fixtures/aiproxy-library-upstream.ts";
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
let library: AskUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  library = await startAiProxyLibraryUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d"]) library.addKey(`aip-${name}`, [123456]);
  const ratios: Record<string, number> = {};
  for (let index = 1; index <= 6; index++) ratios[`kb-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios) });
});
afterAll(async () => {
  await world.stop();
  await library.stop();
});
beforeEach(async () => {
  library.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
/** One model per test: channels of earlier tests stay in the index. */
const libraryChannel = (channelKey: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.AIProxyLibrary,
    key: channelKey,
    base_url: library.url,
    other: "123456",
    models: model,
    model_mapping: JSON.stringify({ [model]: "gpt-4o-mini" }),
    ...extra,
  });
const messages = [
  { role: "system" as const, content: "你是客服。" },
  { role: "user" as const, content: "你好" },
  { role: "assistant" as const, content: "你好，请问有什么可以帮你？" },
  { role: "user" as const, content: "退货期限是多久？" },
];

describe("AI Proxy knowledge base (21)", () => {
  test("the last question and the library id go with the Bearer key; the answer comes back whole and is billed by local counts", async () => {
    const channel = await libraryChannel("aip-a", "kb-1");
    const answer = await openai(world, key).chat.completions.create({ model: "kb-1", messages });
    expect(answer.choices[0]!.message.content).toBe(libraryAnswer);
    expect(answer.choices[0]!.finish_reason).toBe("stop");
    expect(answer.model).toBe("kb-1");
    const request = library.received[0]!;
    expect(request.path).toBe("/api/library/ask");
    expect(request.headers.authorization).toBe("Bearer aip-a");
    expect(request.json).toEqual({ libraryId: 123456, model: "gpt-4o-mini", query: "退货期限是多久？", stream: false });
    const log = await lastLog();
    expect(n(log.channel_id)).toBe(channel);
    expect(n(log.prompt_tokens)).toBeGreaterThan(10);
    expect(n(log.completion_tokens)).toBeGreaterThan(3);
    expect(n(log.quota)).toBe(n(log.prompt_tokens) + n(log.completion_tokens));
  });

  test("a streaming client gets the whole answer as chunks, with the billed usage in its usage chunk", async () => {
    await libraryChannel("aip-b", "kb-2");
    const stream = await openai(world, key).chat.completions.create({
      model: "kb-2",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let finish: string | null | undefined;
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish ??= chunk.choices[0]?.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(libraryAnswer);
    expect(finish).toBe("stop");
    expect(library.received[0]!.json.stream).toBe(false);
    const log = await lastLog();
    expect(n(log.is_stream)).toBe(1);
    expect(usage).toMatchObject({ prompt_tokens: n(log.prompt_tokens), completion_tokens: n(log.completion_tokens) });
  });

  test("an unknown library is the service's refusal, not billed; a channel without a library id fails before calling", async () => {
    await libraryChannel("aip-c", "kb-3", { other: "999" });
    const before = await one(world, "select count(*) as count from logs where type = 2");
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "kb-3", messages });
    expect(refused.status).toBe(502);
    expect(withoutRequestId(refused.json).error.message).toContain("libraryId not found");
    expect(await one(world, "select count(*) as count from logs where type = 2")).toEqual(before);

    // The operator's mistake, not the client's: a 500 that sends the call to another channel.
    library.reset();
    await libraryChannel("aip-c", "kb-6", { other: "", priority: 5 });
    const unset = await postRelay(world, "/v1/chat/completions", key, { model: "kb-6", messages });
    expect(unset.status).toBe(500);
    expect(withoutRequestId(unset.json).error).toMatchObject({ message: "渠道未设置知识库 ID", code: "channel_config_error" });
    expect(library.received).toHaveLength(0);
    await setOptions(world, { RetryTimes: 1 });
    await libraryChannel("aip-d", "kb-6", { priority: 1 });
    expect((await postRelay(world, "/v1/chat/completions", key, { model: "kb-6", messages })).status).toBe(200);
    expect(library.received.map((entry) => entry.who)).toEqual(["aip-d"]);
  });

  test("an invalid key disables the channel; a rate limit is retried elsewhere and disables nothing", async () => {
    const dead = await libraryChannel("aip-unknown", "kb-4");
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "kb-4", messages });
    expect(refused.status).toBe(401);
    expect(withoutRequestId(refused.json).error).toMatchObject({ message: "Invalid API key", type: "authentication_error" });
    expect(await channelStatus(dead)).toBe(3);

    await setOptions(world, { RetryTimes: 1 });
    const busy = await libraryChannel("aip-c", "kb-4", { priority: 5 });
    const spare = await libraryChannel("aip-d", "kb-4", { priority: 1 });
    library.behave("aip-c", { rateLimited: true });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "kb-4", messages });
    expect(answered.status).toBe(200);
    expect(library.received.slice(-2).map((entry) => entry.who)).toEqual(["aip-c", "aip-d"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);
  });

  test("the channel test reaches the library", async () => {
    const id = await libraryChannel("aip-a", "kb-5", { test_model: "kb-5" });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(library.received.at(-1)!.json).toMatchObject({ libraryId: 123456, query: "hi", stream: false });
  });
});
