// OpenAI's Responses API (/v1/responses) through the real gateway with the Vercel AI SDK's
// default `openai(model)` provider: passed through to OpenAI and Azure channels (the body as the
// client sent it but for the model, usage read from the response or from response.completed,
// previous_response_id honoured), and converted for a chat-only channel (the typed event
// stream made from chat chunks, tools and reasoning both ways, an unknown previous_response_id
// refused clearly; the state the gateway keeps is responses-state.test.ts). Billing to the unit,
// the log's inbound format, OpenAI's error shape.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { postRelay } from "../../helpers/relay-world.ts";
import { expectCharged, lastLog, lastReceived, priceOf, startInboundWorld, type InboundWorld } from "../../helpers/inbound-world.ts";

let world: InboundWorld;
/** What the SDK sent, per call: the gateway must forward exactly this on a passthrough. */
let sent: string[] = [];

beforeAll(async () => {
  world = await startInboundWorld();
});
afterAll(() => world.stop());
beforeEach(() => {
  world.upstream.reset();
  sent = [];
});

const provider = (apiKey = `sk-${world.key}`) =>
  createOpenAI({
    baseURL: `${world.server.url}/v1`,
    apiKey,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (typeof init?.body === "string") sent.push(init.body);
      return fetch(input, init);
    }) as typeof fetch,
  });

const weather = tool({
  description: "Current weather",
  inputSchema: jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  }),
});

describe("passed through to an OpenAI channel", () => {
  test("generateText: the client's own body reaches /v1/responses, the usage it reports is billed", async () => {
    world.upstream.behave("sk-openai-ch", { promptTokens: 33, completionTokens: 11, content: "Hi from Responses." });
    const { result, log } = await expectCharged(world, world.channels.openai, priceOf(33, 11), () =>
      generateText({ model: provider()("gpt-pass"), system: "Be brief.", prompt: "Hello", maxRetries: 0 }),
    );
    const received = lastReceived(world, "sk-openai-ch");
    expect(received.path).toBe("/v1/responses");
    expect(received.headers.authorization).toBe("Bearer sk-openai-ch");
    expect(new TextDecoder().decode(received.rawBody)).toBe(sent[0]!);
    expect(result.text).toBe("Hi from Responses.");
    expect(result.usage).toMatchObject({ inputTokens: 33, outputTokens: 11 });
    expect(log).toMatchObject({ prompt_tokens: 33, completion_tokens: 11, is_stream: false });
    expect(log.other).toMatchObject({ inbound_format: "responses", inbound_converted: false });
  });

  test("streamText: the typed events pass through, usage from response.completed", async () => {
    world.upstream.behave("sk-openai-ch", { promptTokens: 21, completionTokens: 6, chunks: 3, content: "x y z " });
    const { result, log } = await expectCharged(world, world.channels.openai, priceOf(21, 6), async () => {
      const stream = streamText({ model: provider()("gpt-pass"), prompt: "Letters", maxRetries: 0 });
      return { text: await stream.text, usage: await stream.usage };
    });
    expect(result.text).toBe("x y z ");
    expect(result.usage).toMatchObject({ inputTokens: 21, outputTokens: 6 });
    expect(lastReceived(world, "sk-openai-ch").json.stream_options).toBeUndefined();
    expect(log).toMatchObject({ is_stream: true, prompt_tokens: 21, completion_tokens: 6 });
  });

  test("previous_response_id is the upstream's business: it keeps the state", async () => {
    const first = await generateText({ model: provider()("gpt-pass"), prompt: "Remember 7.", maxRetries: 0 });
    const id = first.providerMetadata?.openai?.responseId as string;
    expect(id).toStartWith("resp_mock");
    const second = await generateText({
      model: provider()("gpt-pass"),
      prompt: "Which number?",
      providerOptions: { openai: { previousResponseId: id } },
      maxRetries: 0,
    });
    expect(second.text).toBe("Hello from the mock upstream.");
    expect(lastReceived(world, "sk-openai-ch").json.previous_response_id).toBe(id);
  });

  test("Azure: the v1 Responses route, its api-key header, the deployment as the model", async () => {
    await generateText({ model: provider()("gpt-4.1-azure"), prompt: "hi", maxRetries: 0 });
    const received = lastReceived(world, "azure-ch-key");
    expect(received.path).toBe("/openai/v1/responses");
    expect(received.headers["api-key"]).toBe("azure-ch-key");
    expect(received.headers.authorization).toBeUndefined();
    expect(received.json.model).toBe("gpt-41-azure");
    expect({ ...received.json, model: "gpt-4.1-azure" }).toEqual(JSON.parse(sent[0]!));
  });

  test("an upstream failure answers OpenAI's error object with the upstream's status", async () => {
    world.upstream.behave("sk-openai-ch", { status: 500 });
    const response = await postRelay(world, "/v1/responses", world.key, { model: "gpt-pass", input: "hi" });
    expect(response.status).toBe(500);
    expect(response.json.error).toMatchObject({ type: "server_error", message: expect.stringContaining("mock failure 500") });
  });
});

describe("converted for a chat-only channel", () => {
  test("generateText: the chat request upstream, a response object back, billed and logged as converted", async () => {
    world.upstream.behave("sk-deepseek-ch", { promptTokens: 44, completionTokens: 13, content: "Converted." });
    const { result, log } = await expectCharged(world, world.channels.deepseek, priceOf(44, 13), () =>
      generateText({
        model: provider()("chat-only"),
        system: "Be brief.",
        prompt: "Hello",
        maxOutputTokens: 300,
        temperature: 0.2,
        maxRetries: 0,
      }),
    );
    const received = lastReceived(world, "sk-deepseek-ch");
    expect(received.path).toBe("/v1/chat/completions");
    expect(received.json).toEqual({
      model: "chat-only",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello" },
      ],
      max_tokens: 300,
      temperature: 0.2,
    });
    expect(result.text).toBe("Converted.");
    expect(result.finishReason).toBe("stop");
    expect(result.usage).toMatchObject({ inputTokens: 44, outputTokens: 13 });
    expect(log.other).toMatchObject({ inbound_format: "responses", inbound_converted: true });
  });

  test("streamText: the typed event stream made from chat chunks, usage equal to the bill", async () => {
    world.upstream.behave("sk-deepseek-ch", { promptTokens: 12, completionTokens: 3, chunks: 3, content: "p q r " });
    const { result } = await expectCharged(world, world.channels.deepseek, priceOf(12, 3), async () => {
      const stream = streamText({ model: provider()("chat-only"), prompt: "Letters", maxRetries: 0 });
      return { text: await stream.text, usage: await stream.usage, finish: await stream.finishReason };
    });
    expect(result).toMatchObject({ text: "p q r ", usage: { inputTokens: 12, outputTokens: 3 }, finish: "stop" });
    expect(lastReceived(world, "sk-deepseek-ch").json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const raw = await postRelay(world, "/v1/responses", world.key, { model: "chat-only", input: "hi", stream: true });
    const names = [...raw.text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(names).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
  });

  test("tools: a function tool becomes a chat tool, the call a function_call, its output a tool message", async () => {
    world.upstream.behave("sk-deepseek-ch", { chunks: 0, toolCalls: [{ name: "weather", arguments: '{"city":"Kyiv"}' }] });
    const stream = streamText({ model: provider()("chat-only"), prompt: "Weather in Kyiv?", tools: { weather }, maxRetries: 0 });
    const calls = await stream.toolCalls;
    expect(calls).toEqual([expect.objectContaining({ toolCallId: "call_mock0", toolName: "weather", input: { city: "Kyiv" } })]);
    expect(await stream.finishReason).toBe("tool-calls");
    expect(lastReceived(world, "sk-deepseek-ch").json.tools).toEqual([
      {
        type: "function",
        function: {
          name: "weather",
          description: "Current weather",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
        },
      },
    ]);

    world.upstream.behave("sk-deepseek-ch", { content: "Mild." });
    const answer = await generateText({
      model: provider()("chat-only"),
      tools: { weather },
      messages: [
        { role: "user", content: "Weather in Kyiv?" },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_mock0", toolName: "weather", input: { city: "Kyiv" } }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "call_mock0", toolName: "weather", output: { type: "text", value: "12C" } }],
        },
      ],
      maxRetries: 0,
    });
    expect(answer.text).toBe("Mild.");
    expect(lastReceived(world, "sk-deepseek-ch").json.messages).toEqual([
      { role: "user", content: "Weather in Kyiv?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_mock0", type: "function", function: { name: "weather", arguments: '{"city":"Kyiv"}' } }],
      },
      { role: "tool", tool_call_id: "call_mock0", content: "12C" },
    ]);
  });

  test("reasoning: the effort goes up as reasoning_effort, the reasoning comes back as a summary", async () => {
    world.upstream.behave("sk-deepseek-ch", { reasoning: "Thinking it over.", content: "Done.", reasoningTokens: 4, completionTokens: 9 });
    const result = await generateText({
      model: provider()("chat-only"),
      prompt: "Think",
      providerOptions: { openai: { forceReasoning: true, reasoningEffort: "low", reasoningSummary: "auto" } },
      maxRetries: 0,
    });
    expect(lastReceived(world, "sk-deepseek-ch").json.reasoning_effort).toBe("low");
    expect(result.reasoningText).toBe("Thinking it over.");
    expect(result.text).toBe("Done.");
    expect(result.usage.outputTokenDetails?.reasoningTokens).toBe(4);
    expect((await lastLog(world)).other.reasoning_effort).toBe("low");

    world.upstream.behave("sk-deepseek-ch", { reasoning: "Streamed thought. ", content: "Ok." });
    const stream = streamText({
      model: provider()("chat-only"),
      prompt: "Think",
      providerOptions: { openai: { forceReasoning: true, reasoningEffort: "low", reasoningSummary: "auto" } },
      maxRetries: 0,
    });
    expect(await stream.reasoningText).toBe("Streamed thought. ");
  });

  test("stateless use (store: false) works; a previous_response_id nobody keeps is refused as not found", async () => {
    const stateless = await generateText({
      model: provider()("chat-only"),
      prompt: "hi",
      providerOptions: { openai: { store: false } },
      maxRetries: 0,
    });
    expect(stateless.text).toBe("Hello from the mock upstream.");
    const refused = await postRelay(
      world,
      "/v1/responses",
      world.key,
      { model: "chat-only", input: "again", previous_response_id: "resp_123" },
      { cookie: "lang=en" },
    );
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ type: "new_api_error", code: "previous_response_not_found" });
    expect(refused.json.error.message).toContain("No response or item found for previous_response_id: resp_123");
    expect(world.upstream.receivedBy("sk-deepseek-ch")).toHaveLength(1);
  });

  test("a stream cut half-way ends with response.failed", async () => {
    world.upstream.behave("sk-deepseek-ch", { chunks: 4, cutAfterChunks: 2 });
    const raw = await postRelay(world, "/v1/responses", world.key, { model: "chat-only", input: "hi", stream: true });
    const last = raw.text.trim().split("\n\n").at(-1)!;
    expect(last).toStartWith("event: response.failed");
    expect(JSON.parse(last.split("data: ")[1]!).response).toMatchObject({ status: "failed", error: { code: "upstream_stream_broken" } });
  });
});

describe("errors", () => {
  test("a bad key: 401 OpenAI error object", async () => {
    const response = await postRelay(world, "/v1/responses", "wrong", { model: "gpt-pass", input: "hi" });
    expect(response.status).toBe(401);
    expect(response.json.error).toMatchObject({ message: expect.stringContaining("无效的令牌"), type: "new_api_error" });
  });

  test("no input: 400 before any upstream call", async () => {
    const response = await postRelay(world, "/v1/responses", world.key, { model: "gpt-pass" });
    expect(response.status).toBe(400);
    expect(response.json.error.message).toContain("input");
    expect(world.upstream.received).toHaveLength(0);
  });
});
