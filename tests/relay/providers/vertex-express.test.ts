// Vertex AI (channel type 41) with an API key: Vertex AI in express mode (Google's "Vertex AI in
// express mode REST API reference": https://aiplatform.googleapis.com/v1/publishers/google/models/
// {model}:generateContent and :streamGenerateContent, no project or location, the key as
// x-goog-api-key), end to end through the real relay with the official openai client. The
// imitation is checked against Google's own client: @google/genai in express mode reaches it with
// the same request line and key header as the relay. (Key-file channels: the imitation's token
// endpoint verifies the relay's assertion with google-auth-library, see google-oauth.ts.)
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { GoogleGenAI } from "@google/genai";
import { postRelay } from "../../helpers/relay-world.ts";
import {
  addGoogleChannel,
  addToken,
  balances,
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
const apiKey = "AQ.Ab8RN6-express-key_0123456789";

beforeAll(async () => {
  world = await startGoogleWorld();
  world.google.acceptExpressKey(apiKey);
  channelId = await addGoogleChannel(world, {
    name: "vertex-express",
    type: ChannelType.Vertex,
    key: apiKey,
    other: "us-central1",
    models: "gemini-2.5-flash,claude-sonnet-4-5@20250929",
  });
  await setOptions(world, {
    ModelRatio: JSON.stringify({ "gemini-2.5-flash": 1, "claude-sonnet-4-5@20250929": 1 }),
    CompletionRatio: JSON.stringify({ "gemini-2.5-flash": 4 }),
  });
  key = (await addToken(world.root)).key;
});
afterAll(() => world.stop());
beforeEach(() => world.google.reset());

const expressPath = (model: string, method: string) => `/v1/publishers/google/models/${model}:${method}`;

test("Google's @google/genai client in express mode and the relay send the same request line and key header", async () => {
  // Google's express-mode samples use the v1 surface (the client's default is v1beta1).
  const genai = new GoogleGenAI({ vertexai: true, apiKey, httpOptions: { baseUrl: world.google.url, apiVersion: "v1" } });
  const direct = await genai.models.generateContent({ model: "gemini-2.5-flash", contents: "Hi" });
  expect(direct.text).toBe("Hello from Gemini.");
  const sdk = world.google.received[0]!;
  world.google.reset();
  await openai(world, key).chat.completions.create({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "Hi" }] });
  const relay = world.google.received[0]!;
  expect([relay.method, relay.path]).toEqual([sdk.method, sdk.path]);
  expect(relay.path).toBe(expressPath("gemini-2.5-flash", "generateContent"));
  expect(relay.headers["x-goog-api-key"]).toBe(sdk.headers["x-goog-api-key"]);
  expect(relay.headers.authorization).toBeUndefined();
});

test("whole and streamed, no token exchange, billed from Google's usage", async () => {
  const before = await balances(world, channelId);
  const answer = await openai(world, key).chat.completions.create({
    model: "gemini-2.5-flash",
    messages: [{ role: "user", content: "Hi" }],
  });
  expect(answer.choices[0]!.message.content).toBe("Hello from Gemini.");
  const streamed = await readStream(openai(world, key), { model: "gemini-2.5-flash", messages: [{ role: "user", content: "Hi" }] });
  expect(streamed.content).toBe("Hello from Gemini.");
  expect(world.google.received.map((entry) => `${entry.path}?alt=${entry.query.alt ?? ""}`)).toEqual([
    `${expressPath("gemini-2.5-flash", "generateContent")}?alt=`,
    `${expressPath("gemini-2.5-flash", "streamGenerateContent")}?alt=sse`,
  ]);
  expect(world.google.tokenExchanges).toHaveLength(0);
  const after = await balances(world, channelId);
  expect(after.logs - before.logs).toBe(2);
  expect(after.channel - before.channel).toBeGreaterThan(0);
});

test("a Claude model is refused on an express-mode channel (Google's models only), nothing sent; fetch models uses the key", async () => {
  const refused = await postRelay(world, "/v1/chat/completions", key, {
    model: "claude-sonnet-4-5@20250929",
    messages: [{ role: "user", content: "Hi" }],
  });
  expect(refused.status).toBe(501);
  expect(refused.json.error.message).toContain("Vertex AI 快速模式（API Key）只提供 Google 的模型");
  expect(world.google.received).toHaveLength(0);
  const models = await world.root.get(`/api/channel/fetch_models/${channelId}`);
  expect(models.body.success).toBe(true);
  expect(models.body.data).toContain("gemini-2.5-flash");
  expect(world.google.received[0]!.headers["x-goog-api-key"]).toBe(apiKey);
});

test("a wrong API key is Google's 400 API_KEY_INVALID", async () => {
  const other = await addGoogleChannel(world, {
    name: "vertex-bad",
    type: ChannelType.Vertex,
    key: "AQ.unknown-key-000000",
    other: "us-central1",
    models: "gemini-bad",
  });
  await setOptions(world, { ModelRatio: JSON.stringify({ "gemini-2.5-flash": 1, "claude-sonnet-4-5@20250929": 1, "gemini-bad": 1 }) });
  const response = await postRelay(world, "/v1/chat/completions", key, {
    model: "gemini-bad",
    messages: [{ role: "user", content: "Hi" }],
  });
  expect(response.status).toBe(400);
  expect(world.google.received.at(-1)!.path).toBe(expressPath("gemini-bad", "generateContent"));
  expect(other).toBeGreaterThan(0);
});
