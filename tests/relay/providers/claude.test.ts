// Anthropic Claude channels (type 14) through the real gateway, called with the official openai
// client, against an imitation of Anthropic's API that refuses what Anthropic refuses: the exact
// upstream request, whole and streamed answers with thinking and tools, usage with cache tokens
// and the billed quota, each class of error with its retry and auto-disable verdict, the hold
// covering the max_tokens the gateway sends, fetch models and the channel test.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startClaudeUpstream, type ClaudeUpstream } from "../../fixtures/claude-upstream.ts";
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
  reservedFor,
} from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let claude: ClaudeUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  claude = await startClaudeUpstream();
  key = (await addToken(world.root)).key;
  // Aliases for the error tests, each with channels of its own.
  const aliases = ["t-overloaded", "t-stream-error", "t-dead-key", "t-forbidden", "t-rate", "t-invalid", "t-mid-stream", "t-refused"];
  await setOptions(world, { ModelRatio: JSON.stringify(Object.fromEntries(aliases.map((alias) => [alias, 1]))) });
});
afterAll(async () => {
  await world.stop();
  await claude.stop();
});
beforeEach(async () => {
  claude.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: false });
});

const claudeChannel = (channelKey: string, models: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, { type: ChannelType.Claude, key: channelKey, base_url: claude.url, models, ...extra });
const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const weatherTool = {
  type: "function" as const,
  function: {
    name: "weather",
    description: "Weather by city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("requests and answers", () => {
  test("the upstream request: /v1/messages, x-api-key, anthropic-version, the converted body with the default max_tokens", async () => {
    await claudeChannel("sk-ant-basic", "claude-3-5-sonnet-20241022");
    const answer = await openai(world, key).chat.completions.create({
      model: "claude-3-5-sonnet-20241022",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello" },
        { role: "user", content: "Anyone there?" },
      ],
      temperature: 0.5,
      stop: ["\n\n", "END"],
    });
    const received = claude.received[0]!;
    expect([received.method, received.path]).toEqual(["POST", "/v1/messages"]);
    expect(received.headers["x-api-key"]).toBe("sk-ant-basic");
    expect(received.headers["anthropic-version"]).toBe("2023-06-01");
    expect(received.headers.authorization).toBeUndefined();
    expect(received.json).toEqual({
      model: "claude-3-5-sonnet-20241022",
      max_tokens: 8192,
      system: "Be brief.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Hello" },
            { type: "text", text: "Anyone there?" },
          ],
        },
      ],
      // Anthropic refuses whitespace-only stop sequences; they cannot be honoured, so they go.
      stop_sequences: ["END"],
      temperature: 0.5,
    });
    expect(answer.object).toBe("chat.completion");
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    expect(answer.choices[0]!.finish_reason).toBe("stop");
    expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    // (10 + 5 x 5) x 1.5 = 52.5
    const log = await lastLog();
    expect([n(log.quota), n(log.prompt_tokens), n(log.completion_tokens), log.model_name]).toEqual([
      53,
      10,
      5,
      "claude-3-5-sonnet-20241022",
    ]);
  });

  test("streamed, with thinking from the -thinking suffix: reasoning_content, content, finish reason, usage chunk", async () => {
    await claudeChannel("sk-ant-think", "claude-3-7-sonnet-20250219-thinking");
    const stream = await openai(world, key).chat.completions.create({
      model: "claude-3-7-sonnet-20250219-thinking",
      messages: [{ role: "user", content: "Think first." }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let reasoning = "";
    let content = "";
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? "";
      content += delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(claude.received[0]!.json).toMatchObject({
      model: "claude-3-7-sonnet-20250219",
      max_tokens: 16384,
      stream: true,
      thinking: { type: "enabled", budget_tokens: 13107 },
    });
    expect(reasoning).toBe("Let me think about it.");
    expect(content).toBe("Hello from the mock Claude.");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    const log = await lastLog();
    expect([n(log.quota), n(log.completion_tokens), Boolean(log.is_stream)]).toEqual([53, 5, true]);
  });

  test("tools with the openai client: a tool call, then the tool result answered (whole)", async () => {
    await claudeChannel("sk-ant-tools", "claude-sonnet-4-20250514");
    const client = openai(world, key);
    const messages: any[] = [{ role: "user", content: "Weather in Paris?" }];
    const first = await client.chat.completions.create({ model: "claude-sonnet-4-20250514", messages, tools: [weatherTool] });
    const call = first.choices[0]!.message.tool_calls![0]! as { id: string; function: { name: string; arguments: string } };
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect([call.function.name, JSON.parse(call.function.arguments)]).toEqual(["weather", { city: "Paris" }]);
    expect(claude.received[0]!.json.tools).toEqual([
      { name: "weather", description: "Weather by city", input_schema: weatherTool.function.parameters },
    ]);

    messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "18C and sunny" });
    const second = await client.chat.completions.create({ model: "claude-sonnet-4-20250514", messages, tools: [weatherTool] });
    expect(second.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    expect(claude.received[1]!.json.messages).toEqual([
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: [{ type: "tool_use", id: call.id, name: "weather", input: { city: "Paris" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "18C and sunny" }] },
    ]);
  });

  test("tools, streamed: tool-call deltas add up to the call's JSON arguments", async () => {
    await claudeChannel("sk-ant-tools-stream", "claude-opus-4-1-20250805");
    claude.behave("sk-ant-tools-stream", { toolInput: { city: "Lyon", unit: "celsius" } });
    const stream = await openai(world, key).chat.completions.create({
      model: "claude-opus-4-1-20250805",
      messages: [{ role: "user", content: "Weather in Lyon?" }],
      tools: [weatherTool],
      tool_choice: { type: "function", function: { name: "weather" } },
      stream: true,
    });
    const calls: { id?: string; name: string; arguments: string }[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta?.tool_calls ?? []) {
        const entry = (calls[delta.index] ??= { name: "", arguments: "" });
        if (delta.id) entry.id = delta.id;
        entry.name += delta.function?.name ?? "";
        entry.arguments += delta.function?.arguments ?? "";
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(claude.received[0]!.json.tool_choice).toEqual({ type: "tool", name: "weather" });
    expect(calls.map((entry) => [entry.id?.startsWith("toolu_"), entry.name, JSON.parse(entry.arguments)])).toEqual([
      [true, "weather", { city: "Lyon", unit: "celsius" }],
    ]);
    expect(finish).toBe("tool_calls");
  });

  test("images: base64 data as a base64 source, a link as a url source (the gateway fetches nothing)", async () => {
    await claudeChannel("sk-ant-vision", "claude-3-haiku-20240307");
    await openai(world, key).chat.completions.create({
      model: "claude-3-haiku-20240307",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Same cat?" },
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AAQ" } },
            { type: "image_url", image_url: { url: "https://images.example/cat.png" } },
          ],
        },
      ],
    });
    expect(claude.received[0]!.json.messages[0].content).toEqual([
      { type: "text", text: "Same cat?" },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
      { type: "image", source: { type: "url", url: "https://images.example/cat.png" } },
    ]);
  });
});

describe("usage and money", () => {
  test("cache writes and reads are priced by their ratios and shown in the log", async () => {
    await claudeChannel("sk-ant-cache", "claude-opus-4-20250514");
    claude.behave("sk-ant-cache", { inputTokens: 20, cacheCreationTokens: 100, cacheReadTokens: 300, outputTokens: 42 });
    const answer = await openai(world, key).chat.completions.create({
      model: "claude-opus-4-20250514",
      messages: [{ role: "user", content: "long context" }],
    });
    expect(answer.usage).toMatchObject({ prompt_tokens: 420, completion_tokens: 42, prompt_tokens_details: { cached_tokens: 300 } });
    const log = await lastLog();
    // (20 + 300 x 0.1 + 100 x 1.25 + 42 x 5) x 7.5 = 2887.5
    expect([n(log.quota), n(log.prompt_tokens), n(log.completion_tokens)]).toEqual([2888, 420, 42]);
    expect(JSON.parse(log.other)).toMatchObject({
      model_ratio: 7.5,
      completion_ratio: 5,
      cache_tokens: 300,
      cache_ratio: 0.1,
      cache_creation_tokens: 100,
      cache_creation_ratio: 1.25,
    });
  });

  test("the hold covers the max_tokens the gateway sends when the client names none", async () => {
    await claudeChannel("sk-ant-hold", "claude-3-5-haiku-20241022");
    // claude-3-5-haiku: ratio 0.5, completion ratio 5. The default 8,192 output tokens hold at
    // least 8,192 x 5 x 0.5 = 20,480; PreConsumedQuota's 500 tokens would hold only 1,250.
    const small = await addToken(world.root, { name: "small", unlimited_quota: false, remain_quota: 5_000 });
    const refused = await postRelay(world, "/v1/chat/completions", small.key, {
      model: "claude-3-5-haiku-20241022",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(refused.status).toBe(403);
    expect(claude.received).toHaveLength(0);
    const allowed = await postRelay(world, "/v1/chat/completions", small.key, {
      model: "claude-3-5-haiku-20241022",
      max_tokens: 300,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(allowed.status).toBe(200);
    expect(claude.received[0]!.json.max_tokens).toBe(300);
    expect(await reservedFor(world, { userId: 1, tokenKey: key })).toBe(false);
  });
});

describe("errors and their verdicts", () => {
  test("529 overloaded_error is retried on another channel", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await claudeChannel("sk-ant-529", "t-overloaded", {
      priority: 10,
      model_mapping: '{"t-overloaded":"claude-3-5-haiku-20241022"}',
    });
    const spare = await claudeChannel("sk-ant-529-spare", "t-overloaded", {
      priority: 0,
      model_mapping: '{"t-overloaded":"claude-3-5-haiku-20241022"}',
    });
    claude.behave("sk-ant-529", { status: 529 });
    const answer = await openai(world, key).chat.completions.create({ model: "t-overloaded", messages: [{ role: "user", content: "hi" }] });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    expect(claude.received.map((entry) => entry.key)).toEqual(["sk-ant-529", "sk-ant-529-spare"]);
    expect(JSON.parse((await lastLog()).other).admin_info.use_channel).toEqual([String(busy), String(spare)]);
    expect(await channelStatus(busy)).toBe(1);
  });

  test("an error event opening a stream is retried before the client sees anything", async () => {
    await setOptions(world, { RetryTimes: 1 });
    await claudeChannel("sk-ant-stream-err", "t-stream-error", {
      priority: 10,
      model_mapping: '{"t-stream-error":"claude-3-5-haiku-20241022"}',
    });
    await claudeChannel("sk-ant-stream-ok", "t-stream-error", {
      priority: 0,
      model_mapping: '{"t-stream-error":"claude-3-5-haiku-20241022"}',
    });
    claude.behave("sk-ant-stream-err", { errorInStream: true });
    const stream = await openai(world, key).chat.completions.create({
      model: "t-stream-error",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let content = "";
    for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? "";
    expect(content).toBe("Hello from the mock Claude.");
    expect(claude.received.map((entry) => entry.key)).toEqual(["sk-ant-stream-err", "sk-ant-stream-ok"]);
  });

  test("authentication_error (401) and permission_error (403) take the channel out of service, without a retry", async () => {
    await setOptions(world, { RetryTimes: 2, AutomaticDisableChannelEnabled: true });
    const dead = await claudeChannel("sk-ant-dead", "t-dead-key", { priority: 10 });
    await claudeChannel("sk-ant-alive", "t-dead-key", { priority: 0 });
    claude.behave("sk-ant-dead", { status: 401 });
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "t-dead-key",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toEqual({
      message: "invalid x-api-key",
      type: "authentication_error",
      param: "",
      code: "authentication_error",
    });
    expect(claude.received.map((entry) => entry.key)).toEqual(["sk-ant-dead"]);
    expect(await channelStatus(dead)).toBe(3);

    const forbidden = await claudeChannel("sk-ant-forbidden", "t-forbidden");
    claude.behave("sk-ant-forbidden", { status: 403 });
    expect(
      (await postRelay(world, "/v1/chat/completions", key, { model: "t-forbidden", messages: [{ role: "user", content: "hi" }] })).status,
    ).toBe(403);
    expect(await channelStatus(forbidden)).toBe(3);
  });

  test("rate_limit_error (429) is retried and disables nothing", async () => {
    await setOptions(world, { RetryTimes: 1, AutomaticDisableChannelEnabled: true });
    const limited = await claudeChannel("sk-ant-429", "t-rate", { priority: 10 });
    await claudeChannel("sk-ant-429-spare", "t-rate", { priority: 0 });
    claude.behave("sk-ant-429", { status: 429 });
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "t-rate", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(200);
    expect(claude.received.map((entry) => entry.key)).toEqual(["sk-ant-429", "sk-ant-429-spare"]);
    expect(await channelStatus(limited)).toBe(1);
  });

  test("invalid_request_error (400) is the request's fault: not retried, nothing disabled", async () => {
    await setOptions(world, { RetryTimes: 2, AutomaticDisableChannelEnabled: true });
    const channel = await claudeChannel("sk-ant-400", "t-invalid", { priority: 10 });
    await claudeChannel("sk-ant-400-spare", "t-invalid", { priority: 0 });
    claude.behave("sk-ant-400", { status: 400, errorMessage: "prompt is too long: 210000 tokens > 200000 maximum" });
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "t-invalid",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.status).toBe(400);
    expect(withoutRequestId(response.json).error).toMatchObject({
      message: "prompt is too long: 210000 tokens > 200000 maximum",
      type: "invalid_request_error",
    });
    expect(claude.received).toHaveLength(1);
    expect(await channelStatus(channel)).toBe(1);
  });

  test("an error event mid-stream reaches the client as an error; what was delivered is billed", async () => {
    await claudeChannel("sk-ant-mid", "t-mid-stream", { model_mapping: '{"t-mid-stream":"claude-3-5-haiku-20241022"}' });
    claude.behave("sk-ant-mid", { errorAfterDeltas: 2 });
    const stream = await openai(world, key).chat.completions.create({
      model: "t-mid-stream",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let content = "";
    const failure = await (async () => {
      try {
        for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? "";
      } catch (error) {
        return error as Error;
      }
    })();
    expect(content).toBe("Hello from ");
    expect(failure?.message).toContain("Overloaded");
    const log = await lastLog();
    expect([log.model_name, n(log.prompt_tokens), n(log.completion_tokens) > 0]).toEqual(["t-mid-stream", 10, true]);
  });

  test("a call Claude cannot take is refused by the gateway before anything is sent", async () => {
    await claudeChannel("sk-ant-refuse", "t-refused");
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "t-refused",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "ftp://files.example/a.png" } }] }],
    });
    expect(response.status).toBe(400);
    expect(withoutRequestId(response.json).error).toEqual({
      message: "图片地址无效，请使用 http(s) 链接或 base64 data URL",
      type: "invalid_request_error",
      param: "",
      code: "convert_request_failed",
    });
    expect(claude.received).toHaveLength(0);
    expect(await reservedFor(world, { userId: 1, tokenKey: key })).toBe(false);
  });
});

describe("channel management", () => {
  test("fetch models lists Anthropic's models with the channel's key", async () => {
    const result = await world.root.post("/api/channel/fetch_models", {
      type: ChannelType.Claude,
      key: "sk-ant-list",
      base_url: claude.url,
    });
    expect(result.body).toEqual({
      success: true,
      message: "",
      data: ["claude-sonnet-4-20250514", "claude-3-5-haiku-20241022", "claude-3-haiku-20240307"],
    });
    expect([claude.received[0]!.path, claude.received[0]!.query.limit, claude.received[0]!.headers["x-api-key"]]).toEqual([
      "/v1/models",
      "1000",
      "sk-ant-list",
    ]);
  });

  test("the channel test goes through the conversion like a client's call", async () => {
    const id = await claudeChannel("sk-ant-test", "claude-3-5-sonnet-20240620");
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(claude.received[0]!.json).toEqual({
      model: "claude-3-5-sonnet-20240620",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
  });

  test("the imitation refuses what Anthropic refuses (so a passing suite means something)", async () => {
    const post = (body: unknown, headers: Record<string, string> = { "x-api-key": "k", "anthropic-version": "2023-06-01" }) =>
      fetch(`${claude.url}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }).then(async (response) => [response.status, (await response.json()).error.message]);
    const messages = [{ role: "user", content: "hi" }];
    expect(await post({ model: "m", messages })).toEqual([400, "max_tokens: Field required"]);
    expect(await post({ model: "m", max_tokens: 5, messages: [{ role: "system", content: "s" }, ...messages] })).toEqual([
      400,
      expect.stringContaining('Unexpected role "system"'),
    ]);
    expect(await post({ model: "m", max_tokens: 5, messages: [...messages, ...messages] })).toEqual([
      400,
      expect.stringContaining("roles must alternate"),
    ]);
    expect(await post({ model: "m", max_tokens: 5, messages, stream_options: {} })).toEqual([
      400,
      "stream_options: Extra inputs are not permitted",
    ]);
    expect(await post({ model: "m", max_tokens: 5, messages }, { "x-api-key": "k" })).toEqual([
      400,
      "anthropic-version: header is required",
    ]);
  });
});
