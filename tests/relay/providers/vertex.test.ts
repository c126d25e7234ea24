// Vertex AI (channel type 41) through the real relay with the official openai client: the
// service-account assertion checked by the imitation's token endpoint (signature and claims), the
// token cached and renewed after a 401, regions, Gemini answers whole and streamed with tools,
// usage and quota, dead keys disabling the channel, fetch models and the channel test.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { n, postRelay } from "../../helpers/relay-world.ts";
import { catBase64, startImageHost, type ImageHost } from "../../fixtures/image-host.ts";
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
let keyFile: string;
let images: ImageHost;
const email = "relay@proj-vertex.iam.gserviceaccount.com";
const regions = JSON.stringify({ default: "us-central1", "gemini-eu": "europe-west1", "claude-3-5-sonnet-20240620": "europe-west1" });
const tool = { type: "function", function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } } };

beforeAll(async () => {
  images = startImageHost();
  // The image host stands for a public web server: the gateway is told to trust it by name.
  world = await startGoogleWorld({ OUTBOUND_ALLOWED_HOSTS: "localhost" });
  keyFile = (await world.google.createServiceAccount(email, "proj-vertex")).keyFile;
  channelId = await addGoogleChannel(world, {
    name: "vertex",
    type: ChannelType.Vertex,
    key: keyFile,
    other: regions,
    models: "gemini-2.5-flash,gemini-eu,claude-3-5-sonnet-20240620,claude-3-5-sonnet-20241022",
    model_mapping: JSON.stringify({ "gemini-eu": "gemini-2.0-flash-001" }),
  });
  await setOptions(world, {
    ModelRatio: JSON.stringify({
      "gemini-2.5-flash": 1,
      "gemini-eu": 2,
      "vertex-dead": 1,
      "vertex-broken": 1,
      "claude-3-5-sonnet-20240620": 1,
      "claude-3-5-sonnet-20241022": 1,
    }),
    CompletionRatio: JSON.stringify({
      "gemini-2.5-flash": 4,
      "gemini-eu": 4,
      "claude-3-5-sonnet-20240620": 5,
      "claude-3-5-sonnet-20241022": 5,
    }),
  });
  key = (await addToken(world.root)).key;
});
afterAll(async () => {
  await world.stop();
  await images.stop();
});
beforeEach(() => world.google.reset());

const client = () => openai(world, key);
const vertexPath = (region: string, model: string, method: string) =>
  `/v1/projects/proj-vertex/locations/${region}/publishers/google/models/${model}:${method}`;

test("first call: one token exchange with a valid signed assertion, then generateContent with the bearer token; usage billed", async () => {
  const before = await balances(world, channelId);
  const answer = await client().chat.completions.create({
    model: "gemini-2.5-flash",
    messages: [
      { role: "system", content: "Short." },
      { role: "user", content: "Hi" },
    ],
  });
  expect(answer.choices[0]!.message.content).toBe("Hello from Gemini.");
  expect(world.google.tokenExchanges).toHaveLength(1);
  const [exchange] = world.google.tokenExchanges;
  expect(exchange!.granted).toBe(true);
  expect(exchange!.header).toMatchObject({ alg: "RS256", typ: "JWT", kid: "key-1" });
  expect(exchange!.claims).toMatchObject({
    iss: email,
    scope: "https://www.googleapis.com/auth/cloud-platform",
    aud: `${world.google.url}/token`,
  });
  expect(exchange!.claims!.exp! - exchange!.claims!.iat!).toBe(3600);
  const call = world.google.received.find((entry) => entry.path !== "/token")!;
  expect(call.path).toBe(vertexPath("us-central1", "gemini-2.5-flash", "generateContent"));
  expect(call.headers.authorization).toMatch(/^Bearer ya29\.mock-\d+$/);
  expect(call.json.systemInstruction).toEqual({ parts: [{ text: "Short." }] });
  expect(call.json.contents).toEqual([{ role: "user", parts: [{ text: "Hi" }] }]);
  const after = await balances(world, channelId);
  expect([after.user - before.user, after.channel - before.channel]).toEqual([30, 30]);
});

test("the token is cached: later calls exchange nothing", async () => {
  await client().chat.completions.create({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "again" }] });
  await readStream(client(), { model: "gemini-2.5-flash", messages: [{ role: "user", content: "and again" }] });
  expect(world.google.tokenExchanges).toHaveLength(0);
  expect(world.google.received.map((entry) => entry.path)).toEqual([
    vertexPath("us-central1", "gemini-2.5-flash", "generateContent"),
    vertexPath("us-central1", "gemini-2.5-flash", "streamGenerateContent"),
  ]);
});

test("the per-model region map and the channel's model mapping", async () => {
  await client().chat.completions.create({ model: "gemini-eu", messages: [{ role: "user", content: "x" }] });
  expect(world.google.received[0]!.path).toBe(vertexPath("europe-west1", "gemini-2.0-flash-001", "generateContent"));
  // (10 + 5 x 4) x 2
  expect(n((await lastLog(world)).quota)).toBe(60);
});

test("streamed with tools, then the tool result: tool_calls deltas and the final text", async () => {
  const messages: any[] = [{ role: "user", content: "Look it up" }];
  const first = await readStream(client(), { model: "gemini-2.5-flash", messages, tools: [tool], stream_options: { include_usage: true } });
  expect(first.finish).toBe("tool_calls");
  expect(first.toolCalls.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([["lookup", { city: "Paris" }]]);
  expect(first.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  messages.push(
    { role: "assistant", content: null, tool_calls: first.toolCalls },
    { role: "tool", tool_call_id: first.toolCalls[0]!.id, content: '{"answer":42}' },
  );
  const whole = await client().chat.completions.create({ model: "gemini-2.5-flash", messages, tools: [tool] as never });
  expect(whole.choices[0]!.message.content).toBe('The tool said {"answer":42}.');
  expect(world.google.received[0]!.query).toEqual({ alt: "sse" });
});

test("a revoked token: the 401 reaches the client, the token is dropped, the next call exchanges a new one", async () => {
  world.google.revokeTokens();
  const failed = await postRelay(world, "/v1/chat/completions", key, {
    model: "gemini-2.5-flash",
    messages: [{ role: "user", content: "x" }],
  });
  expect([failed.status, failed.json.error.type]).toEqual([401, "authentication_error"]);
  expect(world.google.tokenExchanges).toHaveLength(0);
  const answer = await client().chat.completions.create({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "x" }] });
  expect(answer.choices[0]!.message.content).toBe("Hello from Gemini.");
  expect(world.google.tokenExchanges.map((exchange) => exchange.granted)).toEqual([true]);
});

test("a key the token endpoint refuses disables the channel; one that is no service-account key fails before any call and is tried elsewhere", async () => {
  await setOptions(world, { AutomaticDisableChannelEnabled: true });
  try {
    // Same email, another private key: the signature does not verify.
    const other = await world.google.createServiceAccount("other@proj-vertex.iam.gserviceaccount.com", "proj-vertex");
    const forged = JSON.stringify({ ...JSON.parse(other.keyFile), client_email: email, private_key_id: "key-1" });
    const refused = await addGoogleChannel(world, {
      type: ChannelType.Vertex,
      key: forged,
      other: "us-central1",
      models: "vertex-dead",
      model_mapping: '{"vertex-dead":"gemini-2.5-flash"}',
    });
    const result = await postRelay(world, "/v1/chat/completions", key, {
      model: "vertex-dead",
      messages: [{ role: "user", content: "x" }],
    });
    expect(result.status).toBe(400);
    expect(result.json.error.message).toContain("Invalid JWT Signature.");
    expect(world.google.tokenExchanges.map((exchange) => exchange.granted)).toEqual([false]);
    expect(await channelStatus(world, refused)).toBe(3);

    world.google.reset();
    const broken = await addGoogleChannel(world, {
      type: ChannelType.Vertex,
      key: '{"type":"service_account"}',
      other: "us-central1",
      models: "vertex-broken",
      model_mapping: '{"vertex-broken":"gemini-2.5-flash"}',
    });
    const local = await postRelay(world, "/v1/chat/completions", key, {
      model: "vertex-broken",
      messages: [{ role: "user", content: "x" }],
    });
    expect(local.status).toBe(500);
    expect(local.json.error.message).toContain("Vertex AI 渠道密钥不是可用的服务账号 JSON");
    expect(world.google.received).toHaveLength(0);
    expect(await channelStatus(world, broken)).toBe(1);
    expect(await channelStatus(world, channelId)).toBe(1);
  } finally {
    await setOptions(world, { AutomaticDisableChannelEnabled: false });
  }
});

test("quota exhaustion (429) is retried on another channel", async () => {
  await setOptions(world, { RetryTimes: 1 });
  try {
    const spareFile = (await world.google.createServiceAccount("spare@proj-spare.iam.gserviceaccount.com", "proj-spare")).keyFile;
    await addGoogleChannel(world, {
      type: ChannelType.Vertex,
      key: spareFile,
      other: "us-east5",
      models: "gemini-2.5-flash",
      priority: -1,
    });
    world.google.behave(email, { status: 429 });
    const answer = await client().chat.completions.create({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "x" }] });
    expect(answer.choices[0]!.message.content).toBe("Hello from Gemini.");
    const calls = world.google.received.filter((entry) => entry.path !== "/token");
    expect(calls.map((entry) => entry.key)).toEqual([email, "spare@proj-spare.iam.gserviceaccount.com"]);
    expect(calls[1]!.path).toBe("/v1/projects/proj-spare/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent");
  } finally {
    world.google.behave(email, {});
    await setOptions(world, { RetryTimes: 0 });
  }
});

test("fetch models pages through the publisher's models with a token; the channel test passes", async () => {
  const models = await world.root.get(`/api/channel/fetch_models/${channelId}`);
  expect(models.body).toMatchObject({ success: true, data: ["gemini-2.0-flash-001", "gemini-2.5-pro", "gemini-2.5-flash"] });
  const lists = world.google.received.filter((entry) => entry.path === "/v1beta1/publishers/google/models");
  expect(lists.map((entry) => entry.query.pageToken ?? "")).toEqual(["", "2"]);
  expect(lists.every((entry) => entry.headers.authorization?.startsWith("Bearer ya29.mock-"))).toBe(true);
  world.google.reset();
  const tested = await world.root.get(`/api/channel/test/${channelId}?model=gemini-2.5-flash`);
  expect(tested.body.success).toBe(true);
  expect(world.google.received.find((entry) => entry.path !== "/token")!.path).toBe(
    vertexPath("us-central1", "gemini-2.5-flash", "generateContent"),
  );
});

const claudePath = (region: string, model: string, method: string) =>
  `/v1/projects/proj-vertex/locations/${region}/publishers/anthropic/models/${model}:${method}`;

test("Claude, whole: rawPredict under Vertex's id in the model's region, Claude's body with anthropic_version; answer and quota", async () => {
  const before = await balances(world, channelId);
  const answer = await client().chat.completions.create({
    model: "claude-3-5-sonnet-20240620",
    messages: [
      { role: "system", content: "Short." },
      { role: "user", content: "Hi" },
    ],
    max_tokens: 100,
  });
  expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
  const call = world.google.received.find((entry) => entry.path !== "/token")!;
  expect(call.path).toBe(claudePath("europe-west1", "claude-3-5-sonnet@20240620", "rawPredict"));
  expect(call.headers.authorization).toMatch(/^Bearer ya29\.mock-\d+$/);
  expect(call.json).toEqual({
    anthropic_version: "vertex-2023-10-16",
    max_tokens: 100,
    system: "Short.",
    messages: [{ role: "user", content: "Hi" }],
  });
  // (10 + 5 x 5) x 1
  const after = await balances(world, channelId);
  expect([after.user - before.user, after.channel - before.channel]).toEqual([35, 35]);
  expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
});

test("Claude, streamed with tools: streamRawPredict, tool_calls deltas, then the tool result answered", async () => {
  const messages: any[] = [{ role: "user", content: "Look it up" }];
  const first = await readStream(client(), {
    model: "claude-3-5-sonnet-20241022",
    messages,
    tools: [tool],
    stream_options: { include_usage: true },
  });
  const call = world.google.received.find((entry) => entry.path !== "/token")!;
  expect(call.path).toBe(claudePath("us-central1", "claude-3-5-sonnet-v2@20241022", "streamRawPredict"));
  expect(call.json).toMatchObject({ anthropic_version: "vertex-2023-10-16", stream: true });
  expect(call.json.model).toBeUndefined();
  expect(first.finish).toBe("tool_calls");
  expect(first.toolCalls.map((toolCall) => [toolCall.function.name, JSON.parse(toolCall.function.arguments)])).toEqual([
    ["lookup", { city: "Paris" }],
  ]);
  messages.push(
    { role: "assistant", content: null, tool_calls: first.toolCalls },
    { role: "tool", tool_call_id: first.toolCalls[0]!.id, content: "42" },
  );
  const second = await readStream(client(), { model: "claude-3-5-sonnet-20241022", messages, tools: [tool] });
  expect(second.content).toBe("Hello from the mock Claude.");
  const answered = world.google.received.filter((entry) => entry.path.includes("anthropic"))[1]!;
  expect(answered.json.messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: first.toolCalls[0]!.id });
});

test("Claude: an image link is downloaded and sent inline (Vertex takes base64 only), a private one refused; overloaded keeps its type", async () => {
  const answer = await client().chat.completions.create({
    model: "claude-3-5-sonnet-20241022",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "what?" },
          { type: "image_url", image_url: { url: `${images.url}/cat.png` } },
        ],
      },
    ],
  });
  expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
  const sent = world.google.received.find((entry) => entry.path.includes("anthropic"))!;
  expect(sent.json.messages[0].content).toEqual([
    { type: "text", text: "what?" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: catBase64 } },
  ]);
  world.google.reset();
  const linked = await postRelay(world, "/v1/chat/completions", key, {
    model: "claude-3-5-sonnet-20241022",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "what?" },
          { type: "image_url", image_url: { url: `${images.privateUrl}/cat.png` } },
        ],
      },
    ],
  });
  expect(linked.status).toBe(400);
  expect(linked.json.error.message).toContain("图片地址指向不允许访问的地址");
  expect(world.google.received.filter((entry) => entry.path !== "/token")).toHaveLength(0);
  world.google.behave(email, { claude: { status: 529 } });
  const overloaded = await postRelay(world, "/v1/chat/completions", key, {
    model: "claude-3-5-sonnet-20241022",
    messages: [{ role: "user", content: "x" }],
  });
  world.google.behave(email, {});
  expect([overloaded.status, overloaded.json.error.type]).toEqual([529, "overloaded_error"]);
  expect(await channelStatus(world, channelId)).toBe(1);
});
