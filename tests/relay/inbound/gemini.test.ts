// Gemini's API (/v1beta) through the real gateway with the official @google/genai SDK, over an
// OpenAI channel (converted to chat and back): generateContent and streamGenerateContent, the
// exact upstream request, function calling both ways, model listing, countTokens, the key in
// x-goog-api-key or ?key=, billing to the unit, the log's inbound format, and Google's errors.
import { ApiError, FinishReason, FunctionCallingConfigMode, GoogleGenAI, Type } from "@google/genai";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { addToken, n, one } from "../../helpers/relay-world.ts";
import { expectCharged, lastLog, lastReceived, priceOf, startInboundWorld, type InboundWorld } from "../../helpers/inbound-world.ts";

let world: InboundWorld;
const model = "gemini-over-openai";
const channelKey = "sk-openai-ch";

beforeAll(async () => {
  world = await startInboundWorld();
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const genai = (apiKey = `sk-${world.key}`) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: world.server.url, timeout: 20_000 } });
const consumeLogs = async () => n((await one(world, "select count(*) as count from logs where type = 2")).count);

const weather = {
  name: "get_weather",
  description: "Current weather",
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] },
};

describe("over an OpenAI channel (converted)", () => {
  test("generateContent: the chat request upstream, Gemini's answer back, billed and logged as gemini", async () => {
    world.upstream.behave(channelKey, { promptTokens: 25, completionTokens: 9, content: "Hallo." });
    const { result: answer, log } = await expectCharged(world, world.channels.openai, priceOf(25, 9), () =>
      genai().models.generateContent({
        model,
        contents: [{ role: "user", parts: [{ text: "Hello" }] }],
        config: { systemInstruction: "Answer in German.", temperature: 0.4, maxOutputTokens: 128, stopSequences: ["END"] },
      }),
    );
    const received = lastReceived(world, channelKey);
    expect(received.path).toBe("/v1/chat/completions");
    expect(received.json).toEqual({
      model,
      messages: [
        { role: "system", content: "Answer in German." },
        { role: "user", content: "Hello" },
      ],
      temperature: 0.4,
      max_tokens: 128,
      stop: ["END"],
    });
    expect(answer.text).toBe("Hallo.");
    expect(answer.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    expect(answer.usageMetadata).toEqual({ promptTokenCount: 25, candidatesTokenCount: 9, totalTokenCount: 34 });
    expect(log).toMatchObject({ prompt_tokens: 25, completion_tokens: 9, is_stream: false, model_name: model });
    expect(log.other).toMatchObject({ inbound_format: "gemini", inbound_converted: true });
  });

  test("generateContentStream (alt=sse): the text in pieces, usage in the last response equal to the bill", async () => {
    world.upstream.behave(channelKey, { promptTokens: 18, completionTokens: 4, chunks: 3, content: "a b c " });
    const { result: chunks, log } = await expectCharged(world, world.channels.openai, priceOf(18, 4), async () => {
      const list = [];
      for await (const chunk of await genai().models.generateContentStream({ model, contents: "Letters" })) list.push(chunk);
      return list;
    });
    expect(world.upstream.received[0]!.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(chunks.map((chunk) => chunk.text ?? "").join("")).toBe("a b c ");
    expect(chunks.at(-1)?.usageMetadata).toEqual({ promptTokenCount: 18, candidatesTokenCount: 4, totalTokenCount: 22 });
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    expect(log).toMatchObject({ is_stream: true, prompt_tokens: 18, completion_tokens: 4 });
    expect(log.other.inbound_format).toBe("gemini");
  });

  test("function calling: declarations become tools, the call comes back as functionCall, its response as a tool message", async () => {
    world.upstream.behave(channelKey, { toolCalls: [{ name: "get_weather", arguments: '{"city":"Oslo"}' }] });
    const config = {
      tools: [{ functionDeclarations: [weather] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
    };
    const first = await genai().models.generateContent({ model, contents: "Weather in Oslo?", config });
    expect(first.functionCalls).toEqual([{ id: "call_mock0", name: "get_weather", args: { city: "Oslo" } }]);
    expect(lastReceived(world, channelKey).json).toMatchObject({
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Current weather",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ],
      tool_choice: "required",
    });

    world.upstream.behave(channelKey, { content: "Cold." });
    const second = await genai().models.generateContent({
      model,
      contents: [
        { role: "user", parts: [{ text: "Weather in Oslo?" }] },
        { role: "model", parts: [{ functionCall: first.functionCalls![0] }] },
        { role: "user", parts: [{ functionResponse: { id: "call_mock0", name: "get_weather", response: { temperature: -3 } } }] },
      ],
      config: { tools: [{ functionDeclarations: [weather] }] },
    });
    expect(second.text).toBe("Cold.");
    expect(lastReceived(world, channelKey).json.messages).toEqual([
      { role: "user", content: "Weather in Oslo?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_mock0", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }],
      },
      { role: "tool", tool_call_id: "call_mock0", content: '{"temperature":-3}' },
    ]);
  });

  test("function calls in a stream arrive whole in the last response", async () => {
    world.upstream.behave(channelKey, { chunks: 0, toolCalls: [{ name: "get_weather", arguments: '{"city":"Lima"}' }] });
    const calls = [];
    for await (const chunk of await genai().models.generateContentStream({
      model,
      contents: "Lima?",
      config: { tools: [{ functionDeclarations: [weather] }] },
    })) {
      calls.push(...(chunk.functionCalls ?? []));
    }
    expect(calls).toEqual([{ id: "call_mock0", name: "get_weather", args: { city: "Lima" } }]);
  });

  test("thoughts are shown only when asked for", async () => {
    world.upstream.behave(channelKey, { reasoning: "Hmm.", content: "Yes." });
    const plain = await genai().models.generateContent({ model, contents: "?" });
    expect(plain.candidates?.[0]?.content?.parts).toEqual([{ text: "Yes." }]);
    const shown = await genai().models.generateContent({
      model,
      contents: "?",
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 20_000 } },
    });
    expect(shown.candidates?.[0]?.content?.parts).toEqual([{ text: "Hmm.", thought: true }, { text: "Yes." }]);
    expect(lastReceived(world, channelKey).json.reasoning_effort).toBe("high");
  });

  test("models: the caller's models in Google's shape, one by name", async () => {
    const listed = [];
    for await (const entry of await genai().models.list()) listed.push(entry.name);
    // (The reservation probe of the other tests adds its own channel's model.)
    expect(listed.filter((name) => !name?.includes("reservation-probe") && !name?.includes("gizmo")).sort()).toEqual(
      ["chat-only", "claude-over-openai", "gemini-over-openai", "gpt-4.1-azure", "gpt-pass"].map((id) => `models/${id}`),
    );
    const one = await genai().models.get({ model });
    expect(one).toMatchObject({ name: `models/${model}`, supportedActions: expect.arrayContaining(["generateContent"]) });
    const missing = await genai()
      .models.get({ model: "no-such-model" })
      .catch((caught) => caught);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing.status).toBe(404);
  });

  test("countTokens counts locally, costs nothing", async () => {
    const before = await consumeLogs();
    const counted = await genai().models.countTokens({ model, contents: "How many tokens is this sentence?" });
    expect(counted.totalTokens).toBeGreaterThan(5);
    expect(world.upstream.received).toHaveLength(0);
    expect(await consumeLogs()).toBe(before);
  });

  test("the key as ?key= works too", async () => {
    const response = await fetch(`${world.server.url}/v1beta/models/${model}:generateContent?key=sk-${world.key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).candidates[0].content.parts[0].text).toBe("Hello from the mock upstream.");
  });
});

describe("errors in Google's shape", () => {
  test("a bad key: 401 UNAUTHENTICATED", async () => {
    const error = await genai("sk-nope")
      .models.generateContent({ model, contents: "hi" })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    const raw = await fetch(`${world.server.url}/v1beta/models/${model}:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "sk-nope" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    });
    expect(await raw.json()).toEqual({ error: { code: 401, message: expect.stringContaining("无效的令牌"), status: "UNAUTHENTICATED" } });
  });

  test("an upstream 429 is RESOURCE_EXHAUSTED; a missing contents INVALID_ARGUMENT; a stream without alt=sse is refused", async () => {
    world.upstream.behave(channelKey, { status: 429 });
    const limited = await genai()
      .models.generateContent({ model, contents: "hi" })
      .catch((caught) => caught);
    expect(limited.status).toBe(429);
    expect(limited.message).toContain("RESOURCE_EXHAUSTED");
    const post = (path: string, body: unknown) =>
      fetch(`${world.server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-goog-api-key": `sk-${world.key}` },
        body: JSON.stringify(body),
      });
    const empty = await post(`/v1beta/models/${model}:generateContent`, { contents: [] });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    const noAlt = await post(`/v1beta/models/${model}:streamGenerateContent`, { contents: [{ parts: [{ text: "hi" }] }] });
    expect(noAlt.status).toBe(400);
    expect((await noAlt.json()).error.message).toContain("alt=sse");
    const unknown = await post(`/v1beta/models/${model}:embedContent`, {});
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.status).toBe("NOT_FOUND");
  });

  test("a model outside the token's limits: 403 PERMISSION_DENIED", async () => {
    const limited = await addToken(world.root, { name: "gpt-only", model_limits_enabled: true, model_limits: "gpt-pass" });
    const error = await genai(`sk-${limited.key}`)
      .models.generateContent({ model, contents: "hi" })
      .catch((caught) => caught);
    expect(error.status).toBe(403);
    expect(error.message).toContain("PERMISSION_DENIED");
  });

  test("a stream cut half-way ends with Google's error object, which the SDK raises", async () => {
    world.upstream.behave(channelKey, { chunks: 4, cutAfterChunks: 2 });
    const texts: string[] = [];
    const error = await (async () => {
      for await (const chunk of await genai().models.generateContentStream({ model, contents: "hi" })) texts.push(chunk.text ?? "");
    })().catch((caught) => caught);
    expect(texts.join("")).toBe("Hello from ");
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect((await lastLog(world)).other.inbound_format).toBe("gemini");
  });
});
