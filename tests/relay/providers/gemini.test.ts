// Gemini (channel type 24) through the real relay with the official openai client, against the
// Google imitation: the exact upstream request, answers whole and streamed, tools with thought
// signatures, thinking, embeddings, usage and the billed quota, each error class with its retry
// and auto-disable verdict, fetch models and the channel test.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { n, postRelay, reservedFor } from "../../helpers/relay-world.ts";
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
const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "The weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  },
};

beforeAll(async () => {
  world = await startGoogleWorld();
  world.google.acceptKey("AIza-main");
  channelId = await addGoogleChannel(world, {
    type: ChannelType.Gemini,
    key: "AIza-main",
    models: "gemini-2.0-flash,gemini-2.5-flash,gemini-3-pro-preview,gemini-embedding-001,gem-alias",
    model_mapping: JSON.stringify({ "gem-alias": "gemini-2.0-flash" }),
  });
  await setOptions(world, {
    ModelRatio: JSON.stringify({
      "gemini-2.5-flash": 1,
      "gemini-3-pro-preview": 1,
      "gemini-embedding-001": 0.5,
      "gem-alias": 1,
      "gemini-retry": 1,
      "gemini-bad": 1,
    }),
    CompletionRatio: JSON.stringify({ "gemini-2.5-flash": 4, "gemini-3-pro-preview": 4 }),
  });
  key = (await addToken(world.root)).key;
});
afterAll(() => world.stop());
beforeEach(() => world.google.reset());

const client = () => openai(world, key);

describe("chat", () => {
  test("whole answer: URL, key header and converted body upstream; the answer, usage and quota back", async () => {
    const before = await balances(world, channelId);
    const answer = await client().chat.completions.create({
      model: "gemini-2.5-flash",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello?" },
      ],
      temperature: 0.3,
      max_tokens: 50,
    });
    const [received] = world.google.received;
    expect(received!.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(received!.headers["x-goog-api-key"]).toBe("AIza-main");
    expect(received!.headers.authorization).toBeUndefined();
    expect(received!.json).toEqual({
      contents: [{ role: "user", parts: [{ text: "Hello?" }] }],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      safetySettings: ["HARASSMENT", "HATE_SPEECH", "SEXUALLY_EXPLICIT", "DANGEROUS_CONTENT", "CIVIC_INTEGRITY"].map((name) => ({
        category: `HARM_CATEGORY_${name}`,
        threshold: "BLOCK_NONE",
      })),
      generationConfig: { temperature: 0.3, maxOutputTokens: 50 },
    });
    expect(answer.choices[0]!.message.content).toBe("Hello from Gemini.");
    expect(answer.choices[0]!.finish_reason).toBe("stop");
    expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    // (10 + 5 x 4) x 1 = 30
    const after = await balances(world, channelId);
    expect([after.user - before.user, after.channel - before.channel, after.logs - before.logs]).toEqual([30, 30, 1]);
    const log = await lastLog(world);
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota), log.model_name]).toEqual([10, 5, 30, "gemini-2.5-flash"]);
  });

  test("streamed: streamGenerateContent?alt=sse becomes chunks, with the usage chunk the client asked for", async () => {
    const result = await readStream(client(), {
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "Hi" }],
      stream_options: { include_usage: true },
    });
    const [received] = world.google.received;
    expect(received!.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    expect(received!.query).toEqual({ alt: "sse" });
    expect(result.content).toBe("Hello from Gemini.");
    expect(result.finish).toBe("stop");
    expect(result.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(n((await lastLog(world)).quota)).toBe(30);
    expect(n((await lastLog(world)).is_stream)).toBe(1);
  });

  test("thinking: reasoning_effort becomes a thinking budget; thoughts come back as reasoning_content and are billed as completion", async () => {
    const answer = await client().chat.completions.create({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "Think" }],
      reasoning_effort: "low",
    });
    expect(world.google.received[0]!.json.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } });
    const message = answer.choices[0]!.message as unknown as Record<string, unknown>;
    expect([message.content, message.reasoning_content]).toEqual(["Hello from Gemini.", "Thinking it over."]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 8, completion_tokens_details: { reasoning_tokens: 3 } });
    const log = await lastLog(world);
    expect([n(log.completion_tokens), n(log.quota)]).toEqual([8, 42]);
    const streamed = await readStream(client(), {
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "Think" }],
      reasoning_effort: "low",
    });
    expect([streamed.reasoning, streamed.content]).toEqual(["Thinking it over.", "Hello from Gemini."]);
  });

  test("tools, whole: a function call with its thought signature, sent back with the result, answered (Gemini 3 checks the signature)", async () => {
    const messages: any[] = [{ role: "user", content: "Weather in Paris?" }];
    const first = await client().chat.completions.create({
      model: "gemini-3-pro-preview",
      messages,
      tools: [weatherTool] as never,
      tool_choice: "auto",
    });
    expect(world.google.received[0]!.json.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "get_weather",
            description: "The weather in a city",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        ],
      },
    ]);
    expect(world.google.received[0]!.json.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    const call = choice.message.tool_calls![0] as any;
    expect([call.function.name, JSON.parse(call.function.arguments)]).toEqual(["get_weather", { city: "Paris" }]);
    expect(call.extra_content.google.thought_signature).toMatch(/^sig-/);
    messages.push(choice.message, { role: "tool", tool_call_id: call.id, content: '{"celsius":21}' });
    const second = await client().chat.completions.create({ model: "gemini-3-pro-preview", messages, tools: [weatherTool] as never });
    expect(second.choices[0]!.message.content).toBe('The tool said {"celsius":21}.');
    expect(world.google.received[1]!.json.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: call.extra_content.google.thought_signature },
        ],
      },
      { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { celsius: 21 } } }] },
    ]);
  });

  test("tools, streamed: the call arrives as a tool_calls delta and its signature survives the round trip", async () => {
    const messages: any[] = [{ role: "user", content: "Weather in Rome?" }];
    const first = await readStream(client(), { model: "gemini-3-pro-preview", messages, tools: [weatherTool] });
    expect(first.finish).toBe("tool_calls");
    expect(first.toolCalls).toHaveLength(1);
    messages.push(
      { role: "assistant", content: null, tool_calls: first.toolCalls },
      { role: "tool", tool_call_id: first.toolCalls[0]!.id, content: "sunny" },
    );
    const second = await readStream(client(), { model: "gemini-3-pro-preview", messages, tools: [weatherTool] });
    expect(second.content).toBe('The tool said {"content":"sunny"}.');
  });

  test("a model mapped by the channel is the one in the URL; the log keeps the name the client asked for", async () => {
    await client().chat.completions.create({ model: "gem-alias", messages: [{ role: "user", content: "x" }] });
    expect(world.google.received[0]!.path).toBe("/v1beta/models/gemini-2.0-flash:generateContent");
    expect((await lastLog(world)).model_name).toBe("gem-alias");
  });

  test("versions and safety come from the operator: the channel's version, else GeminiVersionSettings; GeminiSafetySettings thresholds", async () => {
    world.google.acceptKey("AIza-version");
    await addGoogleChannel(world, {
      type: ChannelType.Gemini,
      key: "AIza-version",
      models: "gemini-version-test",
      other: "v1alpha",
      model_mapping: '{"gemini-version-test":"gemini-2.0-flash"}',
    });
    await setOptions(world, {
      ModelRatio: JSON.stringify({
        "gemini-2.5-flash": 1,
        "gemini-3-pro-preview": 1,
        "gemini-embedding-001": 0.5,
        "gem-alias": 1,
        "gemini-retry": 1,
        "gemini-bad": 1,
        "gemini-version-test": 1,
      }),
      GeminiVersionSettings: JSON.stringify({ default: "v1beta", "gemini-2.5-flash": "v1" }),
      GeminiSafetySettings: JSON.stringify({ default: "BLOCK_ONLY_HIGH", HARM_CATEGORY_HARASSMENT: "OFF" }),
    });
    try {
      await client().chat.completions.create({ model: "gemini-version-test", messages: [{ role: "user", content: "x" }] });
      await client().chat.completions.create({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "x" }] });
      const [byChannel, byOption] = world.google.received;
      expect(byChannel!.path).toBe("/v1alpha/models/gemini-2.0-flash:generateContent");
      expect(byOption!.path).toBe("/v1/models/gemini-2.5-flash:generateContent");
      expect(byOption!.json.safetySettings).toEqual([
        { category: "HARM_CATEGORY_HARASSMENT", threshold: "OFF" },
        { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_ONLY_HIGH" },
        { category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", threshold: "BLOCK_ONLY_HIGH" },
        { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_ONLY_HIGH" },
      ]);
    } finally {
      await setOptions(world, {
        GeminiVersionSettings: JSON.stringify({ default: "v1beta", "gemini-1.0-pro": "v1" }),
        GeminiSafetySettings: JSON.stringify({ default: "BLOCK_NONE", HARM_CATEGORY_CIVIC_INTEGRITY: "BLOCK_NONE" }),
      });
    }
  });
});

describe("embeddings", () => {
  test("a list goes to batchEmbedContents, one text to embedContent; the official client's base64 vectors decode; prompt billed", async () => {
    const many = await client().embeddings.create({ model: "gemini-embedding-001", input: ["first text", "second text"], dimensions: 4 });
    expect(many.data.map((entry) => entry.embedding.map((value) => Math.round(value * 10) / 10))).toEqual([
      [1, 1.1, 1.2, 1.3],
      [2, 2.1, 2.2, 2.3],
    ]);
    const [batch] = world.google.received;
    expect(batch!.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    expect(batch!.json).toEqual({
      requests: ["first text", "second text"].map((text) => ({
        model: "models/gemini-embedding-001",
        content: { parts: [{ text }] },
        outputDimensionality: 4,
      })),
    });
    const log = await lastLog(world);
    expect(n(log.prompt_tokens)).toBeGreaterThan(0);
    expect(n(log.quota)).toBe(Math.max(1, Math.round(n(log.prompt_tokens) * 0.5)));
    const one = await client().embeddings.create({ model: "gemini-embedding-001", input: "only one", encoding_format: "float" });
    expect(world.google.received[1]!.path).toBe("/v1beta/models/gemini-embedding-001:embedContent");
    expect(one.data[0]!.embedding.map((value) => Math.round(value * 10) / 10)).toEqual([1, 1.1, 1.2]);
  });
});

describe("errors", () => {
  beforeAll(() => setOptions(world, { RetryTimes: 1, AutomaticDisableChannelEnabled: true }));
  afterAll(() => setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: false }));

  test("an invalid key: Google's 400 API_KEY_INVALID reaches the client, not retried, and the channel is disabled", async () => {
    const dead = await addGoogleChannel(world, {
      type: ChannelType.Gemini,
      key: "AIza-unknown",
      models: "gemini-bad",
      model_mapping: '{"gemini-bad":"gemini-2.0-flash"}',
    });
    const result = await postRelay(world, "/v1/chat/completions", key, { model: "gemini-bad", messages: [{ role: "user", content: "x" }] });
    expect(result.status).toBe(400);
    expect(result.json.error.message).toStartWith("API key not valid. Please pass a valid API key.");
    expect(result.json.error.type).toBe("authentication_error");
    expect(await channelStatus(world, dead)).toBe(3);
  });

  test("PERMISSION_DENIED disables the channel too", async () => {
    world.google.acceptKey("AIza-denied");
    const denied = await addGoogleChannel(world, {
      type: ChannelType.Gemini,
      key: "AIza-denied",
      models: "gemini-denied",
      model_mapping: '{"gemini-denied":"gemini-2.0-flash"}',
    });
    await setOptions(world, {
      ModelRatio: JSON.stringify({
        "gemini-2.5-flash": 1,
        "gemini-3-pro-preview": 1,
        "gemini-embedding-001": 0.5,
        "gem-alias": 1,
        "gemini-retry": 1,
        "gemini-denied": 1,
      }),
    });
    world.google.behave("AIza-denied", { status: 403 });
    const result = await postRelay(world, "/v1/chat/completions", key, {
      model: "gemini-denied",
      messages: [{ role: "user", content: "x" }],
    });
    expect(result.status).toBe(403);
    expect(await channelStatus(world, denied)).toBe(3);
  });

  test("RESOURCE_EXHAUSTED (429) and INTERNAL (500) are retried on the next channel, which is not disabled; the first keeps running", async () => {
    for (const name of ["AIza-busy", "AIza-spare"]) world.google.acceptKey(name);
    const busy = await addGoogleChannel(world, {
      type: ChannelType.Gemini,
      key: "AIza-busy",
      models: "gemini-retry",
      priority: 10,
      model_mapping: '{"gemini-retry":"gemini-2.0-flash"}',
    });
    await addGoogleChannel(world, {
      type: ChannelType.Gemini,
      key: "AIza-spare",
      models: "gemini-retry",
      priority: 0,
      model_mapping: '{"gemini-retry":"gemini-2.0-flash"}',
    });
    for (const status of [429, 500]) {
      world.google.reset();
      world.google.behave("AIza-busy", { status });
      const answer = await client().chat.completions.create({ model: "gemini-retry", messages: [{ role: "user", content: "x" }] });
      expect(answer.choices[0]!.message.content).toBe("Hello from Gemini.");
      expect(world.google.received.map((entry) => entry.key)).toEqual(["AIza-busy", "AIza-spare"]);
      expect(await channelStatus(world, busy)).toBe(1);
    }
  });

  test("INVALID_ARGUMENT is the client's: not retried, nothing disabled, nothing billed", async () => {
    const before = await balances(world, channelId);
    world.google.behave("AIza-main", { status: 400, message: "Invalid value at 'contents[0]'" });
    const result = await postRelay(world, "/v1/chat/completions", key, {
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "x" }],
    });
    world.google.behave("AIza-main", {});
    expect([result.status, result.json.error.code]).toEqual([400, "INVALID_ARGUMENT"]);
    expect(world.google.received).toHaveLength(1);
    expect(await channelStatus(world, channelId)).toBe(1);
    expect(await balances(world, channelId)).toEqual(before);
  });

  test("a blocked prompt is a clear 400, whole or streamed, and costs nothing", async () => {
    const before = await balances(world, channelId);
    world.google.behave("AIza-main", { blockPrompt: "PROHIBITED_CONTENT" });
    const whole = await postRelay(world, "/v1/chat/completions", key, {
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "x" }],
    });
    const streamed = await postRelay(world, "/v1/chat/completions", key, {
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    world.google.behave("AIza-main", {});
    for (const result of [whole, streamed]) {
      expect(result.status).toBe(400);
      expect(result.json.error.code).toBe("prompt_blocked");
      expect(result.json.error.message).toContain("PROHIBITED_CONTENT");
    }
    expect(world.google.received).toHaveLength(2);
    expect(await balances(world, channelId)).toEqual(before);
    expect(await channelStatus(world, channelId)).toBe(1);
  });

  test("an error event in the middle of a stream reaches the client as an error", async () => {
    world.google.behave("AIza-main", { errorAfterChunks: 1 });
    const failure = await readStream(client(), { model: "gemini-2.5-flash", messages: [{ role: "user", content: "x" }] }).catch(
      (error) => error,
    );
    world.google.behave("AIza-main", {});
    expect(failure).toBeInstanceOf(Error);
    expect(String(failure.message)).toContain("An internal error has occurred.");
  });

  test("a stream cut or stalled half-way ends with an error event, billed for what was delivered", async () => {
    for (const behaviour of [{ cutAfterChunks: 2 }, { stallAfterChunks: 2 }]) {
      world.google.behave("AIza-main", behaviour);
      const result = await postRelay(world, "/v1/chat/completions", key, {
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "x" }],
        stream: true,
      });
      world.google.behave("AIza-main", {});
      expect(result.status).toBe(200);
      expect(result.text).toContain("Hello ");
      expect(result.text).toContain(behaviour.cutAfterChunks ? "upstream_stream_broken" : "upstream_timeout");
      const log = await lastLog(world);
      expect(n(log.completion_tokens)).toBeGreaterThan(0);
      expect(n(log.quota)).toBeGreaterThan(0);
    }
  });
});

describe("channel management", () => {
  test("fetch models follows every page and keeps the models that generate or embed", async () => {
    const result = await world.root.post("/api/channel/fetch_models", {
      type: ChannelType.Gemini,
      key: "AIza-main",
      base_url: world.google.url,
    });
    expect(result.body).toMatchObject({
      success: true,
      data: ["gemini-2.0-flash", "gemini-2.5-pro", "gemini-embedding-001", "gemini-3-pro-preview"],
    });
    expect(world.google.received.map((entry) => entry.query.pageToken ?? "")).toEqual(["", "2", "4"]);
    expect(world.google.received.every((entry) => entry.path === "/v1beta/models" && entry.headers["x-goog-api-key"] === "AIza-main")).toBe(
      true,
    );
  });

  test("the channel test sends a converted chat call like the relay", async () => {
    const result = await world.root.get(`/api/channel/test/${channelId}?model=gemini-2.5-flash`);
    expect(result.body.success).toBe(true);
    const [received] = world.google.received;
    expect(received!.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(received!.json.generationConfig).toEqual({ maxOutputTokens: 10 });
  });
});

describe("the imitation refuses careless conversions", () => {
  const call = (body: unknown, apiKey = "AIza-main") =>
    fetch(`${world.google.url}/v1beta/models/gemini-2.0-flash:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

  test("the role assistant, a system message inside contents, OpenAI field names and a bad key", async () => {
    expect((await call({ contents: [{ role: "assistant", parts: [{ text: "x" }] }] })).body.error.message).toBe(
      "Please use a valid role: user, model.",
    );
    expect(
      (
        await call({
          contents: [
            { role: "system", parts: [{ text: "x" }] },
            { role: "user", parts: [{ text: "y" }] },
          ],
        })
      ).status,
    ).toBe(400);
    expect(
      (await call({ contents: [{ role: "user", parts: [{ text: "x" }] }], generationConfig: { max_tokens: 5 } })).body.error.message,
    ).toContain('Unknown name "max_tokens"');
    const bad = await call({ contents: [{ role: "user", parts: [{ text: "x" }] }] }, "AIza-nobody");
    expect([bad.status, bad.body.error.details[0].reason]).toEqual([400, "API_KEY_INVALID"]);
  });
});

test("nothing is left held", async () => {
  expect(await reservedFor(world, { userId: 1, tokenKey: key })).toBe(false);
});
