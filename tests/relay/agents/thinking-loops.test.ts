// Reasoning state survives conversion (issue 24 item 3): a tool loop with thinking on, through
// every inbound format (OpenAI chat with the `openai` client, the Responses API with the AI SDK's
// default provider in a three-step loop, Anthropic's Messages with @anthropic-ai/sdk, Gemini with
// @google/genai),
// over a Claude channel and a Gemini 3 channel whose strict imitations refuse a tool step given
// back without its signed thinking (Claude) or its thought signature (Gemini 3). The state comes
// back to each client in its own format and goes upstream again on the next turn.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startAgentWorld, type AgentWorld } from "../../helpers/agent-world.ts";
import type { StrictReceived } from "../../fixtures/agents/strict-claude.ts";

let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld({ redacted: true });
});
afterAll(() => world.stop());

const channels = [
  { name: "Claude", model: "claude-sonnet-4-5", upstream: () => world.claude },
  { name: "Gemini 3", model: "gemini-3-pro-preview", upstream: () => world.gemini },
] as const;

const token = () => `loop-${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
const shellSchema = { type: "object", properties: { command: { type: "string" } }, required: ["command"] };
const run = (command: string) => `${command.replace(/^echo /, "")}\n`;

/** The upstream's last request, and that it was taken. */
function lastUpstream(upstream: { received: StrictReceived[] }): StrictReceived {
  const last = upstream.received.at(-1)!;
  expect(last.refusal).toBeUndefined();
  return last;
}

/** The tool step as it reached the channel again: its thinking (Claude) or its signature (Gemini). */
function expectStateUpstream(channel: (typeof channels)[number], expectSignature = true) {
  const json = lastUpstream(channel.upstream()).json;
  if (channel.name === "Claude") {
    const step = (json.messages as any[]).filter((message) => message.role === "assistant").at(-1);
    expect(step.content[0].type).toBe("thinking");
    expect(step.content[0].signature).toStartWith("clsig");
    expect(step.content.some((block: { type: string }) => block.type === "redacted_thinking")).toBe(true);
  } else {
    const step = (json.contents as any[]).filter((content) => content.role === "model").at(-1);
    const call = step.parts.find((part: any) => part.functionCall);
    expect(call.thoughtSignature).toStartWith(expectSignature ? "gmsig" : "skip_thought_signature_validator");
  }
}

describe.each(channels)("over a $name channel", (channel) => {
  test("OpenAI chat: the assistant message given back as received carries the state", async () => {
    const client = new OpenAI({ baseURL: `${world.server.url}/v1`, apiKey: world.key, maxRetries: 0 });
    const command = `echo ${token()}`;
    const tools = [{ type: "function" as const, function: { name: "shell", parameters: shellSchema } }];
    const messages: any[] = [{ role: "user", content: `Run \`${command}\` with your shell tool.` }];
    const first = await client.chat.completions.create({
      model: channel.model,
      messages,
      tools,
      reasoning_effort: "high",
      max_tokens: 4096,
    });
    const step = first.choices[0]!.message as any;
    expect(step.tool_calls[0].function.name).toBe("shell");
    expect(step.reasoning_content).toBeString();
    messages.push(step, { role: "tool", tool_call_id: step.tool_calls[0].id, content: run(command) });
    const second = await client.chat.completions.create({
      model: channel.model,
      messages,
      tools,
      reasoning_effort: "high",
      max_tokens: 4096,
    });
    expect(second.choices[0]!.message.content).toContain(command.slice(5));
    expectStateUpstream(channel);
  });

  test("OpenAI chat without the state (a client that drops extra_content) still completes the loop", async () => {
    const client = new OpenAI({ baseURL: `${world.server.url}/v1`, apiKey: world.key, maxRetries: 0 });
    const command = `echo ${token()}`;
    const tools = [{ type: "function" as const, function: { name: "shell", parameters: shellSchema } }];
    const messages: any[] = [{ role: "user", content: `Run \`${command}\` with your shell tool.` }];
    const first = await client.chat.completions.create({
      model: channel.model,
      messages,
      tools,
      reasoning_effort: "high",
      max_tokens: 4096,
    });
    const { extra_content: _dropped, ...step } = first.choices[0]!.message as any;
    for (const call of step.tool_calls) delete call.extra_content;
    messages.push(step, { role: "tool", tool_call_id: step.tool_calls[0].id, content: run(command) });
    const second = await client.chat.completions.create({
      model: channel.model,
      messages,
      tools,
      reasoning_effort: "high",
      max_tokens: 4096,
    });
    expect(second.choices[0]!.message.content).toContain(command.slice(5));
    // Gemini 3 gets Google's value for a call whose signature is lost; Claude goes without thinking.
    if (channel.name === "Gemini 3") expectStateUpstream(channel, false);
    else expect(lastUpstream(world.claude).json.thinking).toBeUndefined();
  });

  test.each([
    ["kept by the gateway (item_reference)", {}],
    ["stateless (store: false, encrypted_content)", { store: false, include: ["reasoning.encrypted_content"] }],
  ])("Responses with the AI SDK's default provider, a three-step loop, %s", async (_label, storage) => {
    const provider = createOpenAI({ baseURL: `${world.server.url}/v1`, apiKey: world.key });
    const [first, second] = [`echo ${token()}`, `echo ${token()}`];
    const prompt = `Run \`${first}\` and then \`${second}\` with your shell tool.`;
    const shell = tool({
      inputSchema: jsonSchema<{ command: string }>(shellSchema),
      execute: async (input) => run(input.command),
    });
    const options = {
      model: provider(channel.model),
      prompt,
      tools: { shell },
      stopWhen: stepCountIs(5),
      providerOptions: { openai: { forceReasoning: true, reasoningEffort: "high", reasoningSummary: "auto", ...storage } },
      maxRetries: 0,
    } as const;
    const result = await generateText(options);
    expect(result.steps).toHaveLength(3);
    expect(result.steps.map((step) => step.toolCalls.length)).toEqual([1, 1, 0]);
    expect(result.text).toContain(`${first.slice(5)} and ${second.slice(5)}`);
    expect(result.steps[0]!.reasoning.length).toBeGreaterThan(0);
    expectStateUpstream(channel);

    const streamed = streamText(options);
    expect(await streamed.text).toContain(`${first.slice(5)} and ${second.slice(5)}`);
    expect(await streamed.steps).toHaveLength(3);
    expectStateUpstream(channel);
  });

  test("Anthropic's Messages: the thinking block given back as received carries the state, whole and streamed", async () => {
    const client = new Anthropic({ baseURL: world.server.url, apiKey: world.key, maxRetries: 0 });
    const command = `echo ${token()}`;
    const tools = [{ name: "shell", input_schema: shellSchema as Anthropic.Tool.InputSchema }];
    const params = { model: channel.model, max_tokens: 4096, thinking: { type: "enabled" as const, budget_tokens: 2048 }, tools };
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: `Run \`${command}\` with your shell tool.` }];
    const first = await client.messages.create({ ...params, messages });
    expect(first.content[0]!.type).toBe("thinking");
    const call = first.content.find((block) => block.type === "tool_use")!;
    messages.push(
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: run(command) }] },
    );
    const second = await client.messages.create({ ...params, messages });
    expect(second.content.find((block) => block.type === "text")?.text).toContain(command.slice(5));
    expectStateUpstream(channel);

    const streamedFirst = await client.messages.stream({ ...params, messages: messages.slice(0, 1) }).finalMessage();
    const streamedCall = streamedFirst.content.find((block) => block.type === "tool_use")!;
    const again: Anthropic.MessageParam[] = [
      messages[0]!,
      { role: "assistant", content: streamedFirst.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: streamedCall.id, content: run(command) }] },
    ];
    const streamedSecond = await client.messages.stream({ ...params, messages: again }).finalMessage();
    expect(streamedSecond.content.find((block) => block.type === "text")?.text).toContain(command.slice(5));
    expectStateUpstream(channel);
  });

  test("Gemini: the model content given back as received carries the state, whole and streamed", async () => {
    const client = new GoogleGenAI({ apiKey: world.key, httpOptions: { baseUrl: world.server.url } });
    const command = `echo ${token()}`;
    const config = {
      tools: [{ functionDeclarations: [{ name: "shell", parametersJsonSchema: shellSchema }] }],
      thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" as never },
    };
    const contents: any[] = [{ role: "user", parts: [{ text: `Run \`${command}\` with your shell tool.` }] }];
    const first = await client.models.generateContent({ model: channel.model, contents, config });
    const step = first.candidates![0]!.content!;
    const call = step.parts!.find((part) => part.functionCall)!.functionCall!;
    contents.push(step, {
      role: "user",
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: run(command) } } }],
    });
    const second = await client.models.generateContent({ model: channel.model, contents, config });
    expect(second.text).toContain(command.slice(5));
    expectStateUpstream(channel);

    const parts: any[] = [];
    for await (const chunk of await client.models.generateContentStream({ model: channel.model, contents: contents.slice(0, 1), config })) {
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    }
    const streamedCall = parts.find((part) => part.functionCall).functionCall;
    const again = [
      contents[0],
      { role: "model", parts: parts.filter((part) => !part.thought) },
      { role: "user", parts: [{ functionResponse: { id: streamedCall.id, name: streamedCall.name, response: { output: run(command) } } }] },
    ];
    let text = "";
    for await (const chunk of await client.models.generateContentStream({ model: channel.model, contents: again, config }))
      text += chunk.text ?? "";
    expect(text).toContain(command.slice(5));
    expectStateUpstream(channel);
  });
});

test("no imitation refused anything", () => {
  expect(world.refusals().map((entry) => entry.refusal)).toEqual([]);
});
