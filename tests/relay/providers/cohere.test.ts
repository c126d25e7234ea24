// Cohere (34) through the real relay and the official openai client, against an imitation of
// Cohere's v2 API: the chat body (Cohere's field names only), answers whole and streamed, tools
// and the tool plan, billed units as usage and quota, rerank in the relay's Jina-style format,
// fetch models, and the failures with their verdicts (an invalid key, a trial-key rate limit).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startCohereUpstream, type CohereUpstream } from "../../fixtures/cohere-upstream.ts";
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
let cohere: CohereUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  cohere = await startCohereUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d"]) cohere.addKey(`co-${name}`);
  const ratios: Record<string, number> = { "rerank-v3.5": 1000 };
  for (let index = 1; index <= 9; index++) ratios[`co-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "co-1": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await cohere.stop();
});
beforeEach(async () => {
  cohere.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const cohereChannel = (apiKey: string, alias: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.Cohere,
    key: apiKey,
    base_url: cohere.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: "command-r" }),
    ...extra,
  });

describe("Cohere (34)", () => {
  test("a whole answer: /v2/chat with Cohere's field names, billed units as usage, the quota", async () => {
    await cohereChannel("co-a", "co-1");
    const answer = await openai(world, key).chat.completions.create({
      model: "co-1",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      top_p: 0.75,
      stop: ["END"],
      max_tokens: 40,
      user: "someone",
      n: 1,
    });
    expect(answer.choices[0]!.message.content).toBe("Hello from Command R.");
    expect(answer.usage).toEqual({ prompt_tokens: 14, completion_tokens: 5, total_tokens: 19 });
    const request = cohere.received[0]!;
    expect(request.path).toBe("/v2/chat");
    expect(request.headers.authorization).toBe("Bearer co-a");
    expect(request.json).toEqual({
      model: "command-r",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      stream: false,
      max_tokens: 40,
      p: 0.75,
      stop_sequences: ["END"],
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([14, 5, 14 + 5 * 2]);
  });

  test("a stream: content deltas, message-end's usage in the usage chunk", async () => {
    await cohereChannel("co-b", "co-2");
    const stream = await openai(world, key).chat.completions.create({
      model: "co-2",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Hello from Command R.");
    expect(usage).toEqual({ prompt_tokens: 14, completion_tokens: 5, total_tokens: 19 });
    expect(cohere.received[0]!.json.stream).toBe(true);
  });

  test("cached prompt tokens: shown as prompt_tokens_details, whole and streamed, and priced by CacheRatio", async () => {
    cohere.addKey("co-cache");
    const options = (await world.root.get("/api/option/")).body.data as { key: string; value: string }[];
    const cacheRatios = options.find((option) => option.key === "CacheRatio")!.value;
    await setOptions(world, { CacheRatio: JSON.stringify({ "co-6": 0.25 }), CompletionRatio: JSON.stringify({ "co-1": 2, "co-6": 1 }) });
    try {
      await cohereChannel("co-cache", "co-6");
      cohere.behave("co-cache", { cachedTokens: 8 });
      const answer = await openai(world, key).chat.completions.create({ model: "co-6", messages: [{ role: "user", content: "Hi" }] });
      expect(answer.usage).toEqual({
        prompt_tokens: 14,
        completion_tokens: 5,
        total_tokens: 19,
        prompt_tokens_details: { cached_tokens: 8 },
      });
      // 6 fresh prompt tokens, 8 cached at a quarter, 5 completion tokens.
      expect(n((await lastLog()).quota)).toBe(6 + 8 * 0.25 + 5);

      const stream = await openai(world, key).chat.completions.create({
        model: "co-6",
        messages: [{ role: "user", content: "Hi" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let usage: unknown;
      for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
      expect(usage).toEqual({ prompt_tokens: 14, completion_tokens: 5, total_tokens: 19, prompt_tokens_details: { cached_tokens: 8 } });
      expect(n((await lastLog()).quota)).toBe(13);
    } finally {
      await setOptions(world, { CacheRatio: cacheRatios, CompletionRatio: JSON.stringify({ "co-1": 2 }) });
    }
  });

  test("finish reasons: MAX_TOKENS is length; ERROR is a failed generation, retried on another channel and not billed", async () => {
    cohere.addKey("co-long");
    await cohereChannel("co-long", "co-7");
    cohere.behave("co-long", { finishReason: "MAX_TOKENS" });
    const cut = await openai(world, key).chat.completions.create({ model: "co-7", messages: [{ role: "user", content: "Hi" }] });
    expect(cut.choices[0]!.finish_reason).toBe("length");

    await setOptions(world, { RetryTimes: 1 });
    cohere.addKey("co-broken");
    cohere.addKey("co-fine");
    const broken = await cohereChannel("co-broken", "co-8", { priority: 5 });
    await cohereChannel("co-fine", "co-8", { priority: 1 });
    cohere.behave("co-broken", { finishReason: "ERROR" });
    const logsBefore = n((await one(world, "select count(*) as count from logs where type = 2")).count);
    const answer = await postRelay(world, "/v1/chat/completions", key, { model: "co-8", messages: [{ role: "user", content: "Hi" }] });
    expect(answer.status).toBe(200);
    expect(answer.json.choices[0].message.content).toBe("Hello from Command R.");
    expect(cohere.received.slice(-2).map((entry) => entry.headers.authorization)).toEqual(["Bearer co-broken", "Bearer co-fine"]);
    expect(n((await one(world, "select count(*) as count from logs where type = 2")).count)).toBe(logsBefore + 1);
    expect(n((await lastLog()).channel_id)).not.toBe(broken);

    // Streamed, ERROR comes with message-end, after the text was delivered: the client gets an error event.
    const streamed = await postRelay(world, "/v1/chat/completions", key, {
      model: "co-8",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
    });
    expect(streamed.text).toContain("Hello");
    expect(streamed.text).toContain("generation failed");
    expect(streamed.text).not.toContain('"finish_reason":"stop"');
  });

  test("tools: whole and streamed tool calls, the tool plan as reasoning, tool results sent back", async () => {
    await cohereChannel("co-c", "co-3");
    cohere.behave("co-c", { toolCall: { name: "weather", arguments: '{"city":"Toronto"}' } });
    const tools = [
      {
        type: "function" as const,
        function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
    ];
    const client = openai(world, key);
    const answer = await client.chat.completions.create({
      model: "co-3",
      messages: [{ role: "user", content: "Weather in Toronto?" }],
      tools,
      tool_choice: "required",
    });
    expect(answer.choices[0]!.finish_reason).toBe("tool_calls");
    expect(answer.choices[0]!.message.tool_calls).toEqual([
      { id: "weather_abc", type: "function", function: { name: "weather", arguments: '{"city":"Toronto"}' } },
    ] as never);
    expect((answer.choices[0]!.message as unknown as { reasoning_content: string }).reasoning_content).toBe("I will look up the weather.");
    expect(cohere.received[0]!.json).toMatchObject({
      tool_choice: "REQUIRED",
      tools: [{ type: "function", function: { name: "weather", description: "" } }],
    });

    const stream = await client.chat.completions.create({
      model: "co-3",
      messages: [{ role: "user", content: "Weather?" }],
      tools,
      stream: true,
    });
    let argumentsText = "";
    let id: string | undefined;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
        id ??= call.id;
        argumentsText += call.function?.arguments ?? "";
      }
    }
    expect([id, argumentsText]).toEqual(["weather_abc", '{"city":"Toronto"}']);

    cohere.behave("co-c", {});
    await client.chat.completions.create({
      model: "co-3",
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "weather_abc", type: "function", function: { name: "weather", arguments: '{"city":"Toronto"}' } }],
        },
        { role: "tool", tool_call_id: "weather_abc", content: "-5C, snow" },
      ],
      tools,
    });
    expect(cohere.received.at(-1)!.json.messages.slice(1)).toEqual([
      {
        role: "assistant",
        tool_calls: [{ id: "weather_abc", type: "function", function: { name: "weather", arguments: '{"city":"Toronto"}' } }],
      },
      { role: "tool", tool_call_id: "weather_abc", content: "-5C, snow" },
    ]);
  });

  test("rerank through the openai client: Jina-style answer with documents, billed per search unit", async () => {
    await addChannel(world, { type: ChannelType.Cohere, key: "co-d", base_url: cohere.url, models: "rerank-v3.5" });
    const result = (await openai(world, key).post("/rerank", {
      body: {
        model: "rerank-v3.5",
        query: "capital of the United States",
        documents: ["Carson City is the capital of Nevada.", "Washington, D.C. is the capital."],
        top_n: 1,
        return_documents: true,
      },
    })) as { results: unknown[]; usage: unknown; model: string };
    expect(result.model).toBe("rerank-v3.5");
    expect(result.results).toEqual([{ index: 1, relevance_score: 0.03, document: { text: "Washington, D.C. is the capital." } }]);
    expect(result.usage).toEqual({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 });
    expect(cohere.received[0]!.path).toBe("/v2/rerank");
    expect(cohere.received[0]!.json).toEqual({
      model: "rerank-v3.5",
      query: "capital of the United States",
      documents: ["Carson City is the capital of Nevada.", "Washington, D.C. is the capital."],
      top_n: 1,
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([1, 1000]);
  });

  test("an invalid key: 401, disabled; a trial key's limit (429) is retried elsewhere and disables nothing", async () => {
    const dead = await cohereChannel("co-zz", "co-4");
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "co-4", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(401);
    expect(withoutRequestId(refused.json).error).toMatchObject({ message: "invalid api token", type: "authentication_error" });
    expect(await channelStatus(dead)).toBe(3);

    await setOptions(world, { RetryTimes: 1 });
    const busy = await cohereChannel("co-a", "co-5", { priority: 5 });
    const spare = await cohereChannel("co-b", "co-5", { priority: 1 });
    cohere.behave("co-a", { status: 429 });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "co-5", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(cohere.received.slice(-2).map((entry) => entry.who)).toEqual(["co-a", "co-b"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);
  });

  test("fetch models lists chat and rerank models; channel tests reach /v2/chat and /v2/rerank", async () => {
    const id = await addChannel(world, { type: ChannelType.Cohere, key: "co-b", base_url: cohere.url, models: "command-r,rerank-v3.5" });
    const models = await world.root.get(`/api/channel/fetch_models/${id}`);
    expect(models.body.data).toEqual(["command-r", "rerank-v3.5"]);
    expect(cohere.received[0]!.path).toBe("/v1/models");
    const chat = await world.root.get(`/api/channel/test/${id}`);
    expect(chat.body.success).toBe(true);
    expect(cohere.received.at(-1)!.path).toBe("/v2/chat");
    const rerank = await world.root.get(`/api/channel/test/${id}?model=rerank-v3.5`);
    expect(rerank.body.success).toBe(true);
    expect(cohere.received.at(-1)!.json).toEqual({ model: "rerank-v3.5", query: "hi", documents: ["hello world"] });
  });
});
