// Anthropic's Messages API (/v1/messages) through the real gateway with the official
// @anthropic-ai/sdk, over an OpenAI channel (the call reaches it as a chat request, the answer
// comes back as a Message or Anthropic's event stream): the exact upstream request, whole and
// streamed answers, tools both ways, thinking, images, count_tokens, billing to the unit, the
// log's inbound format, and errors in Anthropic's shape.
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { addToken, n, one, postRelay } from "../../helpers/relay-world.ts";
import { expectCharged, lastLog, lastReceived, priceOf, startInboundWorld, type InboundWorld } from "../../helpers/inbound-world.ts";

let world: InboundWorld;
const model = "claude-over-openai";
const channelKey = "sk-openai-ch";

beforeAll(async () => {
  world = await startInboundWorld();
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const logCount = async () => n((await one(world, "select count(*) as count from logs where type = 2")).count);

const client = (options: { apiKey?: string; authToken?: string } = {}) =>
  new Anthropic({
    baseURL: world.server.url,
    apiKey: options.authToken ? null : (options.apiKey ?? `sk-${world.key}`),
    authToken: options.authToken ?? null,
    maxRetries: 0,
    timeout: 20_000,
  });

const weatherTool = {
  name: "get_weather",
  description: "Current weather",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

describe("over an OpenAI channel (converted)", () => {
  test("a whole answer: the chat request upstream, a Message back, billed to the unit and logged as claude", async () => {
    world.upstream.behave(channelKey, { promptTokens: 40, completionTokens: 12, content: "Bonjour." });
    const { result: message, log } = await expectCharged(world, world.channels.openai, priceOf(40, 12), () =>
      client().messages.create({
        model,
        max_tokens: 256,
        system: "Answer in French.",
        messages: [{ role: "user", content: "Hello" }],
        stop_sequences: ["END"],
        metadata: { user_id: "u-1" },
      }),
    );
    const received = lastReceived(world, channelKey);
    expect(received.path).toBe("/v1/chat/completions");
    expect(received.headers.authorization).toBe(`Bearer ${channelKey}`);
    expect(received.json).toEqual({
      model,
      messages: [
        { role: "system", content: "Answer in French." },
        { role: "user", content: "Hello" },
      ],
      max_tokens: 256,
      stop: ["END"],
      user: "u-1",
    });
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "Bonjour." }],
      stop_reason: "end_turn",
      usage: { input_tokens: 40, output_tokens: 12, cache_read_input_tokens: 0 },
    });
    expect(message.id).toStartWith("msg_");
    expect(log).toMatchObject({
      prompt_tokens: 40,
      completion_tokens: 12,
      is_stream: false,
      model_name: model,
      channel_id: world.channels.openai,
    });
    expect(log.other).toMatchObject({ inbound_format: "claude", inbound_converted: true });
  });

  test("a stream: the full event sequence, the final usage equal to what was billed", async () => {
    world.upstream.behave(channelKey, { promptTokens: 30, completionTokens: 7, chunks: 3, content: "one two three " });
    const events: string[] = [];
    const { result: final, log } = await expectCharged(world, world.channels.openai, priceOf(30, 7), async () => {
      const stream = client().messages.stream({ model, max_tokens: 100, messages: [{ role: "user", content: "Count" }] });
      for await (const event of stream) events.push(event.type);
      return stream.finalMessage();
    });
    expect(events).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(final.content).toEqual([expect.objectContaining({ type: "text", text: "one two three " })]);
    expect(final.usage).toMatchObject({ input_tokens: 30, output_tokens: 7 });
    expect(final.stop_reason).toBe("end_turn");
    expect(lastReceived(world, channelKey).json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(log).toMatchObject({ is_stream: true, prompt_tokens: 30, completion_tokens: 7 });
    expect(log.other.inbound_format).toBe("claude");
  });

  test("the raw stream carries a ping and Anthropic's event names", async () => {
    const response = await postRelay(
      world,
      "/v1/messages",
      undefined,
      { model, max_tokens: 50, stream: true, messages: [{ role: "user", content: "hi" }] },
      { "x-api-key": `sk-${world.key}` },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    const names = [...response.text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(names.slice(0, 2)).toEqual(["message_start", "ping"]);
    expect(names.at(-1)).toBe("message_stop");
  });

  test("tools: the upstream's tool call is a tool_use block; the tool_result goes back as a tool message", async () => {
    world.upstream.behave(channelKey, {
      toolCalls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }],
      promptTokens: 50,
      completionTokens: 20,
    });
    const first = await client().messages.create({
      model,
      max_tokens: 200,
      tools: [weatherTool],
      tool_choice: { type: "auto" },
      messages: [{ role: "user", content: "Weather in Paris?" }],
    });
    expect(first.stop_reason).toBe("tool_use");
    const toolUse = first.content.find((block) => block.type === "tool_use")!;
    expect(toolUse).toMatchObject({ type: "tool_use", name: "get_weather", input: { city: "Paris" } });
    expect(lastReceived(world, channelKey).json).toMatchObject({
      tools: [
        { type: "function", function: { name: "get_weather", description: "Current weather", parameters: weatherTool.input_schema } },
      ],
      tool_choice: "auto",
    });

    world.upstream.behave(channelKey, { content: "It is 18C in Paris." });
    const second = await client().messages.create({
      model,
      max_tokens: 200,
      tools: [weatherTool],
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: first.content as never },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: toolUse.id, content: "18C, sunny" },
            { type: "text", text: "Summarise." },
          ],
        },
      ],
    });
    expect(second.content).toEqual([expect.objectContaining({ type: "text", text: "It is 18C in Paris." })]);
    // The imitation refuses tool messages out of order, as OpenAI does: this one was accepted.
    expect(lastReceived(world, channelKey).json.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: toolUse.id, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: toolUse.id, content: "18C, sunny" },
      { role: "user", content: "Summarise." },
    ]);
  });

  test("tools streamed: the tool_use block's input arrives as input_json_delta and parses", async () => {
    world.upstream.behave(channelKey, { chunks: 0, toolCalls: [{ name: "get_weather", arguments: '{"city":"Rome"}' }] });
    const stream = client().messages.stream({
      model,
      max_tokens: 100,
      tools: [weatherTool],
      messages: [{ role: "user", content: "Rome?" }],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe("tool_use");
    expect(final.content).toEqual([
      expect.objectContaining({ type: "tool_use", id: "call_mock0", name: "get_weather", input: { city: "Rome" } }),
    ]);
  });

  test("thinking: the budget becomes a reasoning effort, the reasoning a thinking block", async () => {
    world.upstream.behave(channelKey, { reasoning: "Let me think.", content: "42" });
    const message = await client().messages.create({
      model,
      max_tokens: 24_000,
      thinking: { type: "enabled", budget_tokens: 20_000 },
      messages: [{ role: "user", content: "Answer?" }],
    });
    expect(lastReceived(world, channelKey).json.reasoning_effort).toBe("high");
    expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
    expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "Let me think." });
    const log = await lastLog(world);
    expect(log.other.reasoning_effort).toBe("high");
  });

  test("images: base64 and URL sources become image parts", async () => {
    await client().messages.create({
      model,
      max_tokens: 50,
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
            { type: "text", text: "Describe." },
          ],
        },
      ],
    });
    expect(lastReceived(world, channelKey).json.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
          { type: "text", text: "Describe." },
        ],
      },
    ]);
  });

  test("count_tokens counts locally, reaches no upstream and costs nothing", async () => {
    const before = await logCount();
    const counted = await client().messages.countTokens({
      model,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hello there" }],
      tools: [weatherTool],
    });
    expect(counted.input_tokens).toBeGreaterThan(10);
    const bare = await client().messages.countTokens({ model, messages: [{ role: "user", content: "Hello there" }] });
    expect(bare.input_tokens).toBeLessThan(counted.input_tokens);
    expect(world.upstream.received).toHaveLength(0);
    expect(await logCount()).toBe(before);
  });

  test("a Bearer token works as well as x-api-key", async () => {
    const message = await client({ authToken: `sk-${world.key}` }).messages.create({
      model,
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message.type).toBe("message");
  });
});

describe("errors in Anthropic's shape", () => {
  test("a bad key: 401 authentication_error", async () => {
    const error = await client({ apiKey: "sk-wrong" })
      .messages.create({ model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.error).toMatchObject({
      type: "error",
      error: { type: "authentication_error", message: expect.stringContaining("无效的令牌") },
    });
  });

  test("missing max_tokens: 400 invalid_request_error, nothing charged", async () => {
    const response = await postRelay(
      world,
      "/v1/messages",
      undefined,
      { model, messages: [{ role: "user", content: "hi" }] },
      { "x-api-key": `sk-${world.key}` },
    );
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringContaining("max_tokens") },
    });
    expect(world.upstream.received).toHaveLength(0);
  });

  test("the hold covers max_tokens: a token that cannot pay for it is refused before any upstream call", async () => {
    const small = await addToken(world.root, { name: "small", unlimited_quota: false, remain_quota: 1000 });
    const error = await client({ apiKey: `sk-${small.key}` })
      .messages.create({ model, max_tokens: 5000, messages: [{ role: "user", content: "hi" }] })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(error.error.error.type).toBe("permission_error");
    expect(world.upstream.received).toHaveLength(0);
  });

  test("a model the token may not use: 403 permission_error", async () => {
    const limited = await addToken(world.root, { name: "limited-models", model_limits_enabled: true, model_limits: "gpt-pass" });
    const error = await client({ apiKey: `sk-${limited.key}` })
      .messages.create({ model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught) => caught);
    expect(error.status).toBe(403);
    expect(error.error.error.type).toBe("permission_error");
  });

  test("an upstream 429: rate_limit_error; a 500: api_error; nothing charged", async () => {
    const before = await logCount();
    world.upstream.behave(channelKey, { status: 429 });
    const limited = await client()
      .messages.create({ model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught) => caught);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(limited.error.error.type).toBe("rate_limit_error");
    world.upstream.behave(channelKey, { status: 500 });
    const failed = await client()
      .messages.create({ model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught) => caught);
    expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
    expect(failed.error.error).toEqual({ type: "api_error", message: expect.stringContaining("mock failure 500") });
    expect(await logCount()).toBe(before);
  });

  test("a server tool the channel has no equivalent for is left out, and the log says so; a tool_choice naming it is refused", async () => {
    const tools = [
      { type: "web_search_20250305", name: "web_search", max_uses: 3 },
      { name: "weather", input_schema: { type: "object", properties: {} } },
    ];
    const answered = await postRelay(
      world,
      "/v1/messages",
      undefined,
      { model, max_tokens: 10, tools, messages: [{ role: "user", content: "hi" }] },
      { "x-api-key": `sk-${world.key}` },
    );
    expect(answered.status).toBe(200);
    expect(lastReceived(world, channelKey).json.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
      "weather",
    ]);
    expect((await lastLog(world)).other.tools_left_out).toEqual(["web_search"]);

    world.upstream.reset();
    const refused = await postRelay(
      world,
      "/v1/messages",
      undefined,
      { model, max_tokens: 10, tools, tool_choice: { type: "tool", name: "web_search" }, messages: [{ role: "user", content: "hi" }] },
      { "x-api-key": `sk-${world.key}`, cookie: "lang=en" },
    );
    expect(refused.status).toBe(400);
    expect(refused.json.error.type).toBe("invalid_request_error");
    expect(refused.json.error.message).toContain("web_search");
    expect(world.upstream.received).toHaveLength(0);
  });

  test("a stream cut half-way ends with an error event the SDK raises", async () => {
    world.upstream.behave(channelKey, { chunks: 4, cutAfterChunks: 2 });
    const stream = client().messages.stream({ model, max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    const error = await stream.finalMessage().catch((caught) => caught);
    expect(String(error?.message ?? error)).toContain("api_error");
    const log = await lastLog(world);
    expect(log.other.inbound_format).toBe("claude");
  });
});
