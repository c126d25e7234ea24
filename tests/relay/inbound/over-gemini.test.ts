// The vendors' formats over a Gemini channel (type 24, the imitation of Google's API):
// @google/genai's calls pass through untouched apart from the model in the URL (the body as the
// SDK sent it, function calls with their thought signatures echoed back, Google's stream events
// as sent), billed from Gemini's usageMetadata; Anthropic's and the AI SDK's calls reach the same
// channel converted and come back in their own format.
import Anthropic from "@anthropic-ai/sdk";
import { createOpenAI } from "@ai-sdk/openai";
import { ApiError, GoogleGenAI, Type } from "@google/genai";
import { streamText } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startGoogleUpstream, type GoogleUpstream } from "../../fixtures/google-upstream.ts";
import { addChannel, addToken, n, one, setOptions, startRelayWorld, type RelayWorld } from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let google: GoogleUpstream;
let key: string;
let channelId: number;
/** What the SDK sent, per call. */
let sent: string[] = [];
const channelKey = "AIza-inbound";

beforeAll(async () => {
  world = await startRelayWorld();
  google = await startGoogleUpstream();
  google.acceptKey(channelKey);
  channelId = await addChannel(world, {
    type: ChannelType.Gemini,
    key: channelKey,
    base_url: google.url,
    models: "gem-alias",
    model_mapping: JSON.stringify({ "gem-alias": "gemini-2.0-flash" }),
  });
  await setOptions(world, { ModelRatio: JSON.stringify({ "gem-alias": 2 }), CompletionRatio: JSON.stringify({ "gem-alias": 3 }) });
  key = (await addToken(world.root)).key;
});
afterAll(async () => {
  await world.stop();
  await google.stop();
});
beforeEach(() => {
  google.reset();
  sent = [];
});

const genai = () =>
  new GoogleGenAI({
    apiKey: `sk-${key}`,
    httpOptions: {
      baseUrl: world.server.url,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (typeof init?.body === "string") sent.push(init.body);
        return fetch(input, init);
      }) as typeof fetch,
    } as never,
  });

async function lastLog() {
  const row = await one<Record<string, unknown>>(world, "select * from logs where type = 2 order by id desc limit 1");
  return {
    quota: n(row.quota),
    prompt: n(row.prompt_tokens),
    completion: n(row.completion_tokens),
    channel: n(row.channel_id),
    stream: Boolean(n(row.is_stream)),
    other: JSON.parse(String(row.other)),
  };
}

const weather = {
  name: "get_weather",
  description: "Weather",
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] },
};

describe("@google/genai: passed through", () => {
  test("generateContent: the SDK's body untouched, the model of the URL mapped, Gemini's answer as sent, its usage billed", async () => {
    google.behave(channelKey, { content: "Straight from Gemini.", promptTokens: 30, completionTokens: 7 });
    const answer = await genai().models.generateContent({
      model: "gem-alias",
      contents: "Hello",
      config: { systemInstruction: "Be brief.", temperature: 0.2 },
    });
    const received = google.received[0]!;
    expect(received.path).toBe("/v1beta/models/gemini-2.0-flash:generateContent");
    expect(received.headers["x-goog-api-key"]).toBe(channelKey);
    expect(received.rawBody).toBe(sent[0]!);
    expect(answer.text).toBe("Straight from Gemini.");
    expect(answer.usageMetadata).toEqual({ promptTokenCount: 30, candidatesTokenCount: 7, totalTokenCount: 37 });
    expect(answer.modelVersion).toBe("gemini-2.0-flash");
    const log = await lastLog();
    expect(log).toMatchObject({ quota: (30 + 7 * 3) * 2, prompt: 30, completion: 7, channel: channelId, stream: false });
    expect(log.other).toMatchObject({ inbound_format: "gemini", inbound_converted: false, upstream_model_name: "gemini-2.0-flash" });
  });

  test("generateContentStream: Google's events forwarded, usage from the last one", async () => {
    google.behave(channelKey, { content: "abcdefghi", chunks: 3, promptTokens: 12, completionTokens: 4 });
    const texts: string[] = [];
    for await (const chunk of await genai().models.generateContentStream({ model: "gem-alias", contents: "Letters" }))
      texts.push(chunk.text ?? "");
    expect(texts).toEqual(["abc", "def", "ghi"]);
    const received = google.received[0]!;
    expect(received.path).toBe("/v1beta/models/gemini-2.0-flash:streamGenerateContent");
    expect(received.query.alt).toBe("sse");
    const log = await lastLog();
    expect(log).toMatchObject({ quota: (12 + 4 * 3) * 2, stream: true });
    expect(log.other).toMatchObject({ inbound_format: "gemini", inbound_converted: false });
  });

  test("function calling: the call's thought signature survives the round trip untouched", async () => {
    const config = { tools: [{ functionDeclarations: [weather] }] };
    google.behave(channelKey, { args: { city: "Bern" } });
    const first = await genai().models.generateContent({ model: "gem-alias", contents: "Weather in Bern?", config });
    const part = first.candidates![0]!.content!.parts![0]!;
    expect(part.functionCall).toMatchObject({ name: "get_weather", args: { city: "Bern" } });
    expect(part.thoughtSignature).toStartWith("sig-");
    const second = await genai().models.generateContent({
      model: "gem-alias",
      contents: [
        { role: "user", parts: [{ text: "Weather in Bern?" }] },
        { role: "model", parts: [part] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temperature: 9 } } }] },
      ],
      config,
    });
    // The imitation refuses a function call sent back without the signature it issued.
    expect(second.text).toBe('The tool said {"temperature":9}.');
    expect(google.received[1]!.json.contents[1].parts[0].thoughtSignature).toBe(part.thoughtSignature);
  });

  test("a passthrough stream cut half-way ends with Google's error object, which the SDK raises", async () => {
    google.behave(channelKey, { content: "abcdef", chunks: 3, cutAfterChunks: 1 });
    const texts: string[] = [];
    const error = await (async () => {
      for await (const chunk of await genai().models.generateContentStream({ model: "gem-alias", contents: "hi" }))
        texts.push(chunk.text ?? "");
    })().catch((caught) => caught);
    expect(texts).toEqual(["ab"]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.message).toContain("INTERNAL");
  });

  test("Google's errors reach the client in Google's shape", async () => {
    google.behave(channelKey, [{ status: 429, message: "Resource has been exhausted (e.g. check quota)." }, {}]);
    const error = await genai()
      .models.generateContent({ model: "gem-alias", contents: "hi" })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    const raw = await fetch(`${world.server.url}/v1beta/models/gem-alias:generateContent?key=sk-${key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "system", parts: [{ text: "wrong role" }] }] }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: { code: 400, message: expect.any(String), status: "INVALID_ARGUMENT" } });
  });
});

describe("other formats converted for the Gemini channel", () => {
  test("Anthropic's SDK: a generateContent request upstream, a Message back", async () => {
    google.behave(channelKey, { content: "Gemini says hi.", promptTokens: 20, completionTokens: 6 });
    const anthropic = new Anthropic({ baseURL: world.server.url, apiKey: `sk-${key}`, maxRetries: 0 });
    const message = await anthropic.messages.create({
      model: "gem-alias",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "Gemini says hi." })]);
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 6 });
    const received = google.received[0]!;
    expect(received.path).toBe("/v1beta/models/gemini-2.0-flash:generateContent");
    expect(received.json).toMatchObject({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [{ role: "user", parts: [{ text: "Hi" }] }],
      generationConfig: { maxOutputTokens: 100 },
    });
    expect((await lastLog()).other).toMatchObject({ inbound_format: "claude", inbound_converted: true });
  });

  test("the AI SDK's Responses calls, streamed: streamGenerateContent upstream, the typed events back", async () => {
    google.behave(channelKey, { content: "streamed text", chunks: 2, promptTokens: 9, completionTokens: 3 });
    const provider = createOpenAI({ baseURL: `${world.server.url}/v1`, apiKey: `sk-${key}` });
    const result = streamText({ model: provider("gem-alias"), prompt: "Hi", maxRetries: 0 });
    expect(await result.text).toBe("streamed text");
    expect(await result.usage).toMatchObject({ inputTokens: 9, outputTokens: 3 });
    expect(google.received[0]!.path).toBe("/v1beta/models/gemini-2.0-flash:streamGenerateContent");
    expect((await lastLog()).other).toMatchObject({ inbound_format: "responses", inbound_converted: true });
  });
});
