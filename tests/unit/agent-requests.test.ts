// Every tool type today's coding agents send, converted for a channel that does not speak their
// format (issue 24 item 1), tested on requests captured from the real clients (Codex 0.171.0,
// Claude Code 2.1.332, Gemini CLI 0.61.0, the AI SDK 6; tests/fixtures/agent-requests, prompts
// and descriptions shortened): the chat functions a channel receives, the hosted tools and what
// is left out, and the model's calls mapped back to the client's own tool kinds.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readChatAnswer, type ChatChunk } from "../../src/relay/inbound/chat-answer.ts";
import { claudeToChat } from "../../src/relay/inbound/claude/claude-to-chat-request.ts";
import { geminiToChat } from "../../src/relay/inbound/gemini/gemini-to-chat-request.ts";
import type { NativeCall } from "../../src/relay/inbound/inbound-codec.ts";
import { responsesToChat } from "../../src/relay/inbound/responses/responses-request.ts";
import { responseObject } from "../../src/relay/inbound/responses/responses-response.ts";
import { responsesStreamTranslator } from "../../src/relay/inbound/responses/responses-stream.ts";

const fixture = (name: string) => Bun.file(join(import.meta.dir, "..", "fixtures", "agent-requests", `${name}.json`)).json();
const names = (chat: Record<string, any>) => (chat.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

function nativeCall(request: Record<string, unknown>, conversion: ReturnType<typeof responsesToChat>): NativeCall {
  return { model: "m", request, countPromptTokens: () => 1, toolNames: conversion.toolNames };
}

const answerCalling = (...calls: [string, string][]) =>
  readChatAnswer({
    id: "chatcmpl-1",
    model: "m",
    created: 1,
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          tool_calls: calls.map(([name, args], index) => ({ id: `call_${index}`, type: "function", function: { name, arguments: args } })),
        },
      },
    ],
  });

describe("Codex (Responses API)", () => {
  test("first turn: functions as they are, the freeform apply_patch as a one-string function, tool_search as a function, web_search hosted", async () => {
    const body = await fixture("codex-first-turn");
    const conversion = responsesToChat(body, "m", true);
    expect(conversion.refusal).toBeUndefined();
    expect(names(conversion.chat)).toEqual([
      "exec_command",
      "write_stdin",
      "request_user_input",
      "apply_patch",
      "view_image",
      "get_goal",
      "create_goal",
      "update_goal",
      "tool_search",
    ]);
    const patch = (conversion.chat.tools as any[]).find((tool) => tool.function.name === "apply_patch").function;
    expect(patch.parameters).toEqual({
      type: "object",
      properties: { input: { type: "string", description: "The freeform input." } },
      required: ["input"],
    });
    expect(patch.description).toContain("*** Begin Patch");
    expect(conversion.hostedTools).toEqual([{ type: "web_search" }]);
    expect(conversion.leftOut).toBeUndefined();
    expect([...conversion.toolNames!.entries()]).toEqual([
      ["apply_patch", { kind: "custom", name: "apply_patch" }],
      ["tool_search", { kind: "tool_search", name: "tool_search" }],
    ]);
    // Developer messages are system messages; reasoning effort and verbosity carry over.
    const messages = conversion.chat.messages as { role: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "system", "user", "user"]);
    expect(conversion.chat).toMatchObject({ reasoning_effort: "medium", verbosity: "low", tool_choice: "auto", parallel_tool_calls: true });
  });

  test("an unknown model's namespace tool is flattened, and a call to it comes back under its namespace", async () => {
    const body = await fixture("codex-fallback-model");
    const conversion = responsesToChat(body, "m", false);
    expect(conversion.refusal).toBeUndefined();
    const flattened = names(conversion.chat).filter((name: string) => name.startsWith("multi_agent_v1__"));
    expect(flattened).toEqual([
      "multi_agent_v1__close_agent",
      "multi_agent_v1__resume_agent",
      "multi_agent_v1__send_input",
      "multi_agent_v1__spawn_agent",
      "multi_agent_v1__wait_agent",
    ]);
    const spawn = (conversion.chat.tools as any[]).find((tool) => tool.function.name === "multi_agent_v1__spawn_agent").function;
    expect(spawn.description).toStartWith("Tools for spawning and managing sub-agents.");
    const response = responseObject(
      answerCalling(["multi_agent_v1__spawn_agent", '{"message":"go"}']),
      nativeCall(body, conversion),
      usage,
    );
    expect((response.output as any[])[0]).toMatchObject({
      type: "function_call",
      name: "spawn_agent",
      namespace: "multi_agent_v1",
      call_id: "call_0",
      arguments: '{"message":"go"}',
    });
    // The call sent back next turn reaches the channel under the flat name again.
    const next = responsesToChat(
      {
        ...body,
        input: [
          ...body.input,
          { type: "function_call", call_id: "call_0", name: "spawn_agent", namespace: "multi_agent_v1", arguments: "{}" },
          { type: "function_call_output", call_id: "call_0", output: "spawned" },
        ],
      },
      "m",
      false,
    );
    const messages = next.chat.messages as any[];
    expect(messages.at(-2).tool_calls[0].function.name).toBe("multi_agent_v1__spawn_agent");
    expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_0", content: "spawned" });
  });

  test("the replayed turn: its message and call join one assistant message; OpenAI's own encrypted reasoning is not sent on", async () => {
    const body = await fixture("codex-tool-follow-up");
    const conversion = responsesToChat(body, "m", true);
    expect(conversion.refusal).toBeUndefined();
    const messages = conversion.chat.messages as any[];
    expect(messages.at(-2)).toEqual({
      role: "assistant",
      content: "Running it now.",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "exec_command", arguments: '{"cmd":"echo hi"}' } }],
    });
    expect(messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(messages.at(-1).content).toContain("hi");
  });

  test("apply_patch and tool_search calls come back as custom_tool_call and tool_search_call, whole and streamed", async () => {
    const body = await fixture("codex-first-turn");
    const conversion = responsesToChat(body, "m", true);
    const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n";
    const answer = answerCalling(["apply_patch", JSON.stringify({ input: patch })], ["tool_search", '{"query":"agents","limit":3}']);
    const output = responseObject(answer, nativeCall(body, conversion), usage).output as any[];
    expect(output[0]).toMatchObject({
      type: "custom_tool_call",
      name: "apply_patch",
      call_id: "call_0",
      input: patch,
      status: "completed",
    });
    expect(output[0].id).toStartWith("ctc_");
    expect(output[1]).toMatchObject({
      type: "tool_search_call",
      call_id: "call_1",
      execution: "client",
      arguments: { query: "agents", limit: 3 },
    });

    const translator = responsesStreamTranslator(nativeCall(body, conversion));
    const chunk = (delta: NonNullable<NonNullable<ChatChunk["choices"]>[number]["delta"]>): ChatChunk => ({
      id: "c",
      choices: [{ index: 0, delta }],
    });
    const events = [
      ...translator.chunk(
        chunk({ tool_calls: [{ index: 0, id: "call_9", function: { name: "apply_patch", arguments: '{"input":"*** Begin' } }] }),
      ),
      ...translator.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: ' Patch\\n"}' } }] })),
      ...translator.end(usage),
    ]
      .map((text) => JSON.parse(text.split("data: ")[1]!))
      .map((event) => event.type);
    expect(events).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.custom_tool_call_input.delta",
      "response.custom_tool_call_input.done",
      "response.output_item.done",
      "response.completed",
    ]);
  });

  test("a tool search's output loads its (namespaced, deferred) tools into the next call", async () => {
    const body = await fixture("codex-first-turn");
    const loaded = {
      type: "namespace",
      name: "multi_agent_v1",
      description: "Sub-agents.",
      tools: [{ type: "function", name: "spawn_agent", defer_loading: true, parameters: { type: "object", properties: {} } }],
    };
    const next = responsesToChat(
      {
        ...body,
        input: [
          ...body.input,
          {
            type: "tool_search_call",
            id: "tsc_1",
            call_id: "call_s",
            execution: "client",
            status: "completed",
            arguments: { query: "agents" },
          },
          { type: "tool_search_output", call_id: "call_s", execution: "client", status: "completed", tools: [loaded] },
        ],
      },
      "m",
      false,
    );
    expect(names(next.chat)).toContain("multi_agent_v1__spawn_agent");
    const messages = next.chat.messages as any[];
    expect(messages.at(-2).tool_calls[0]).toEqual({
      id: "call_s",
      type: "function",
      function: { name: "tool_search", arguments: '{"query":"agents"}' },
    });
    expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_s", content: "Tools loaded: multi_agent_v1__spawn_agent" });
  });

  test("tool_choice naming the hosted web search needs a channel that runs it; naming a tool nobody runs is refused", async () => {
    const body = await fixture("codex-first-turn");
    expect(responsesToChat({ ...body, tool_choice: { type: "web_search" } }, "m", false).requiredHostedTool).toBe("web_search");
    const fileSearch = responsesToChat(
      { ...body, tools: [...body.tools, { type: "file_search", vector_store_ids: ["vs_1"] }], tool_choice: { type: "file_search" } },
      "m",
      false,
    );
    expect(fileSearch.leftOut).toEqual(["file_search"]);
    expect(fileSearch.refusal?.params).toEqual({ type: "file_search" });
  });
});

describe("Claude Code (Messages API)", () => {
  test("the turn after a Bash call: client tools, a deferred placeholder held back, mid-conversation system text, adaptive thinking", async () => {
    const body = await fixture("claude-code-tool-follow-up");
    const conversion = claudeToChat(body, body.model, true);
    expect(conversion.refusal).toBeUndefined();
    expect(names(conversion.chat)).toEqual([
      "Agent",
      "Bash",
      "Edit",
      "ListAgents",
      "Read",
      "ReportFindings",
      "ScheduleWakeup",
      "Skill",
      "ToolSearch",
      "Workflow",
      "Write",
    ]);
    const messages = conversion.chat.messages as any[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "system", "assistant", "tool"]);
    expect(messages[3].tool_calls[0]).toEqual({
      id: "toolu_mock_1",
      type: "function",
      function: { name: "Bash", arguments: '{"command":"echo hi","description":"Print hi"}' },
    });
    expect(messages[4]).toEqual({ role: "tool", tool_call_id: "toolu_mock_1", content: "hi" });
    expect(conversion.chat.reasoning_effort).toBe("medium");
  });

  test("tools a ToolSearch loaded (tool_reference) join the call; the model reads which", async () => {
    const body = await fixture("claude-code-tool-search");
    const conversion = claudeToChat(body, body.model, true);
    expect(conversion.refusal).toBeUndefined();
    expect(names(conversion.chat)).toContain("WebSearch");
    expect(names(conversion.chat)).toContain("WebFetch");
    expect(names(conversion.chat)).not.toContain("DeferredToolPlaceholder");
    const result = (conversion.chat.messages as any[]).find((message) => message.role === "tool");
    expect(result.content).toStartWith("Tools loaded: WebSearch, WebFetch");
  });

  test("the WebSearch side request: Anthropic's web search server tool is a hosted web search", async () => {
    const body = await fixture("claude-code-web-search");
    const conversion = claudeToChat(body, body.model, true);
    expect(conversion.refusal).toBeUndefined();
    expect(conversion.hostedTools).toEqual([{ type: "web_search", maxUses: 8 }]);
    expect(conversion.chat.tools).toBeUndefined();
  });
});

describe("Gemini CLI (Gemini API)", () => {
  test("the turn after run_shell_command: JSON-schema declarations, the call and its response paired by id, Google's skip value not kept", async () => {
    const body = await fixture("gemini-cli-tool-follow-up");
    const conversion = geminiToChat(body, "gemini-3.8-flash", true);
    expect(conversion.refusal).toBeUndefined();
    expect(names(conversion.chat)).toContain("run_shell_command");
    const shell = (conversion.chat.tools as any[]).find((tool) => tool.function.name === "run_shell_command").function;
    expect(shell.parameters.properties.command.type).toBe("string");
    const messages = conversion.chat.messages as any[];
    const call = messages.at(-2);
    expect(call.tool_calls).toEqual([
      {
        id: "run_shell_command_1795737512027_0",
        type: "function",
        function: { name: "run_shell_command", arguments: '{"command":"echo hi","description":"Print hi"}' },
      },
    ]);
    expect(messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "run_shell_command_1795737512027_0" });
    expect(conversion.chat.reasoning_effort).toBe("high");
  });

  test("a signature Google gave is kept on its call for channels that hand it on", async () => {
    const body = await fixture("gemini-cli-signed-follow-up");
    const conversion = geminiToChat(body, "gemini-3.1-pro-preview", true);
    const call = (conversion.chat.messages as any[]).find((message) => message.tool_calls).tool_calls[0];
    expect(call.extra_content.google.thought_signature).toBeString();
  });

  test("the google_web_search side request: Search grounding is a hosted web search", async () => {
    const body = await fixture("gemini-cli-web-search");
    const conversion = geminiToChat(body, "gemini-3-flash-preview", false);
    expect(conversion.refusal).toBeUndefined();
    expect(conversion.hostedTools).toEqual([{ type: "web_search" }]);
  });
});

test("the AI SDK's step 2 names items by reference: unresolved, it is refused as not found (the relay resolves the kept ones first)", async () => {
  const body = await fixture("ai-sdk-step-two");
  const conversion = responsesToChat(body, "m", true);
  expect(conversion.refusal?.code).toBe("previous_response_not_found");
  expect(conversion.refusal?.params).toEqual({ field: "item_reference", id: "rs_1" });
});
