// The vendors' formats over a Claude channel (type 14, the imitation of Anthropic's API): the
// Anthropic SDK's calls pass through untouched apart from the model mapping (headers and all),
// answers come back as Anthropic sent them, cache reads and writes priced; the AI SDK's Responses
// calls and @google/genai's calls reach the same channel converted (their format → OpenAI chat →
// the Claude adaptor's Messages request) and come back in their own format.
import Anthropic from "@anthropic-ai/sdk";
import { createOpenAI } from "@ai-sdk/openai";
import { GoogleGenAI } from "@google/genai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startClaudeUpstream, type ClaudeUpstream } from "../../fixtures/claude-upstream.ts";
import { wireEvent, type ClaudeEvent } from "../../fixtures/claude-wire.ts";
import { addChannel, addToken, n, one, setOptions, startRelayWorld, type RelayWorld } from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let claude: ClaudeUpstream;
let key: string;
let tokenId: number;
let channelId: number;
const upstreamModel = "claude-sonnet-4-20250514";
const channelKey = "sk-ant-inbound";

beforeAll(async () => {
  world = await startRelayWorld();
  claude = await startClaudeUpstream();
  channelId = await addChannel(world, {
    type: ChannelType.Claude,
    key: channelKey,
    base_url: claude.url,
    models: "claude-alias",
    model_mapping: JSON.stringify({ "claude-alias": upstreamModel }),
  });
  await setOptions(world, {
    ModelRatio: JSON.stringify({ "claude-alias": 2 }),
    CompletionRatio: JSON.stringify({ "claude-alias": 3 }),
    CacheRatio: JSON.stringify({ "claude-alias": 0.1 }),
    CreateCacheRatio: JSON.stringify({ "claude-alias": 1.25 }),
  });
  const token = await addToken(world.root, { name: "over-claude", unlimited_quota: false, remain_quota: 10_000_000 });
  key = token.key;
  tokenId = token.id;
});
afterAll(async () => {
  await world.stop();
  await claude.stop();
});
beforeEach(() => claude.reset());

const anthropic = () => new Anthropic({ baseURL: world.server.url, apiKey: `sk-${key}`, maxRetries: 0, timeout: 20_000 });

async function moved() {
  const token = await one(world, "select remain_quota from tokens where id = ?", tokenId);
  const channel = await one(world, "select used_quota from channels where id = ?", channelId);
  return { token: n(token.remain_quota), channel: n(channel.used_quota) };
}

async function lastLog() {
  const row = await one<Record<string, unknown>>(world, "select * from logs where type = 2 order by id desc limit 1");
  return { quota: n(row.quota), prompt: n(row.prompt_tokens), completion: n(row.completion_tokens), other: JSON.parse(String(row.other)) };
}

const weather = {
  name: "get_weather",
  description: "Weather",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

describe("Anthropic's SDK: passed through", () => {
  test("the body untouched but for the model, the client's headers forwarded, the answer as Anthropic sent it, cache tokens priced", async () => {
    claude.behave(channelKey, { content: "Direct.", inputTokens: 100, outputTokens: 20, cacheReadTokens: 50, cacheCreationTokens: 10 });
    const body = {
      model: "claude-alias",
      max_tokens: 300,
      system: [{ type: "text" as const, text: "Be brief.", cache_control: { type: "ephemeral" as const } }],
      tools: [weather],
      messages: [{ role: "user" as const, content: "Hello" }],
    };
    const before = await moved();
    const message = await anthropic().messages.create(body, {
      headers: { "anthropic-version": "2023-06-01", "anthropic-beta": "prompt-caching-2024-07-31" },
    });
    const received = claude.received[0]!;
    expect(received.path).toBe("/v1/messages");
    expect(received.headers["x-api-key"]).toBe(channelKey);
    expect(received.headers["anthropic-version"]).toBe("2023-06-01");
    expect(received.headers["anthropic-beta"]).toBe("prompt-caching-2024-07-31");
    expect(received.json).toEqual({ ...body, model: upstreamModel });
    expect(JSON.parse(JSON.stringify(message))).toEqual(claude.answers[0]);
    // (100 + 50 x 0.1 + 10 x 1.25 + 20 x 3) x 2 = 355
    const after = await moved();
    expect({ token: before.token - after.token, channel: after.channel - before.channel }).toEqual({ token: 355, channel: 355 });
    const log = await lastLog();
    expect(log).toMatchObject({ quota: 355, prompt: 160, completion: 20 });
    expect(log.other).toMatchObject({
      inbound_format: "claude",
      inbound_converted: false,
      cache_tokens: 50,
      cache_creation_tokens: 10,
      upstream_model_name: upstreamModel,
    });
  });

  test("a stream: Anthropic's events forwarded as they came, the usage billed", async () => {
    claude.behave(channelKey, { content: "one two three", inputTokens: 30, outputTokens: 6 });
    const stream = anthropic().messages.stream({ model: "claude-alias", max_tokens: 100, messages: [{ role: "user", content: "Count" }] });
    const events: unknown[] = [];
    for await (const event of stream) events.push(JSON.parse(JSON.stringify(event)));
    const upstreamEvents = (claude.answers[0] as ClaudeEvent[]).filter((event) => event.type !== "ping").map(wireEvent);
    expect(events).toEqual(upstreamEvents);
    const final = await stream.finalMessage();
    expect(final.content).toEqual([expect.objectContaining({ type: "text", text: "one two three" })]);
    expect(claude.received[0]!.json).toMatchObject({ model: upstreamModel, stream: true });
    const log = await lastLog();
    expect(log).toMatchObject({ quota: (30 + 6 * 3) * 2, prompt: 30, completion: 6 });
    expect(log.other).toMatchObject({ inbound_format: "claude", inbound_converted: false });
  });

  test("Anthropic's own errors reach the client in their shape; 529 overloaded included", async () => {
    claude.behave(channelKey, { status: 529 });
    const error = await anthropic()
      .messages.create({ model: "claude-alias", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught) => caught);
    expect(error.status).toBe(529);
    expect(error.error).toMatchObject({
      type: "error",
      error: { type: "overloaded_error", message: expect.stringContaining("Overloaded") },
    });
  });

  test("a passthrough stream cut half-way ends with Anthropic's error event", async () => {
    claude.behave(channelKey, { content: "one two three four", cutAfterDeltas: 2 });
    const response = await fetch(`${world.server.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": `sk-${key}`, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "claude-alias", max_tokens: 50, stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const events = (await response.text()).trim().split("\n\n");
    expect(events.filter((event) => event.includes("text_delta"))).toHaveLength(2);
    const last = events.at(-1)!;
    expect(last).toStartWith("event: error\n");
    expect(JSON.parse(last.split("data: ")[1]!)).toEqual({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("request id") },
    });
  });
});

describe("other formats converted for the Claude channel", () => {
  const provider = () => createOpenAI({ baseURL: `${world.server.url}/v1`, apiKey: `sk-${key}` });

  test("the AI SDK's Responses calls: Anthropic's Messages request upstream, a response object back", async () => {
    claude.behave(channelKey, { content: "From Claude.", inputTokens: 40, outputTokens: 8 });
    const result = await generateText({
      model: provider()("claude-alias"),
      system: "Be brief.",
      prompt: "Hello",
      maxOutputTokens: 200,
      maxRetries: 0,
    });
    expect(result.text).toBe("From Claude.");
    expect(result.usage).toMatchObject({ inputTokens: 40, outputTokens: 8 });
    expect(claude.received[0]!.json).toMatchObject({
      model: upstreamModel,
      system: "Be brief.",
      max_tokens: 200,
      messages: [{ role: "user", content: "Hello" }],
    });
    const log = await lastLog();
    expect(log).toMatchObject({ quota: (40 + 8 * 3) * 2 });
    expect(log.other).toMatchObject({ inbound_format: "responses", inbound_converted: true });
  });

  test("the AI SDK streamed with a tool: Claude's tool_use comes back as a function_call", async () => {
    claude.behave(channelKey, { toolInput: { city: "Nice" }, content: "" });
    const stream = streamText({
      model: provider()("claude-alias"),
      prompt: "Weather in Nice?",
      tools: {
        get_weather: tool({
          description: "Weather",
          inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
        }),
      },
      maxRetries: 0,
    });
    const calls = await stream.toolCalls;
    expect(calls).toEqual([expect.objectContaining({ toolName: "get_weather", input: { city: "Nice" } })]);
    expect(claude.received[0]!.json.tools).toEqual([
      {
        name: "get_weather",
        description: "Weather",
        input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ]);
  });

  test("@google/genai's calls: a Messages request upstream, Gemini's answer back, whole and streamed", async () => {
    const genai = new GoogleGenAI({ apiKey: `sk-${key}`, httpOptions: { baseUrl: world.server.url } });
    claude.behave(channelKey, { content: "Gemini via Claude.", inputTokens: 12, outputTokens: 5 });
    const answer = await genai.models.generateContent({
      model: "claude-alias",
      contents: "Hi",
      config: { systemInstruction: "Be brief.", maxOutputTokens: 64 },
    });
    expect(answer.text).toBe("Gemini via Claude.");
    expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 });
    expect(claude.received[0]!.json).toMatchObject({ model: upstreamModel, system: "Be brief.", max_tokens: 64 });
    let text = "";
    for await (const chunk of await genai.models.generateContentStream({ model: "claude-alias", contents: "Hi" })) text += chunk.text ?? "";
    expect(text).toBe("Gemini via Claude.");
    expect((await lastLog()).other).toMatchObject({ inbound_format: "gemini", inbound_converted: true });
  });
});
