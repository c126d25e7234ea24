// A whole Claude answer (a Messages API `message`) for the client: converted to an OpenAI
// chat.completion, or passed through untouched to a client that called in Claude's own format,
// with the usage read either way.
import { nowSeconds } from "../../../clock.ts";
import type { Bytes, ConvertedResponse, GeneratedOutput, RelayCall } from "../adaptor.ts";
import { claudeErrorOf } from "./claude-to-chat-errors.ts";
import { claudeUsage, openAIUsageBody } from "./claude-usage.ts";
import type { ThinkingBlock } from "../../inbound/reasoning-state.ts";
import type { ChatCompletion, ChatFinishReason, ChatMessage, ChatToolCall } from "../openai-chat-wire.ts";
import { unverified, unverifiedList, type Unverified } from "../unverified.ts";
import type { ClaudeContentBlock, ClaudeMessage } from "./claude-wire.ts";

/** An upstream's answer, read before it is checked. */
type ClaudeAnswer = Unverified<ClaudeMessage>;

/**
 * Claude's stop reasons in OpenAI's words. max_tokens is "length" (not new-api's "max_tokens"):
 * OpenAI clients and SDKs look for "length" to tell a cut answer. A refusal is "content_filter".
 */
export function finishReasonOf(stopReason: unknown): ChatFinishReason | null {
  switch (stopReason) {
    case undefined:
    case null:
      return null;
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "content_filter";
    default:
      // end_turn, stop_sequence, pause_turn
      return "stop";
  }
}

/** Generated text of a Claude message (text, thinking, tool names and inputs), for local counting. */
function outputOfClaudeMessage(message: ClaudeAnswer | undefined): GeneratedOutput {
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  for (const block of unverifiedList<ClaudeContentBlock>(message?.content)) {
    if (block.type === "text" && typeof block.text === "string") output.text += block.text;
    else if (block.type === "thinking" && typeof block.thinking === "string") output.text += block.thinking;
    else if (block.type === "tool_use") {
      output.toolCalls++;
      output.text += (typeof block.name === "string" ? block.name : "") + JSON.stringify(block.input ?? {});
    }
  }
  return output;
}

/** A signed thinking block or a redacted one, as Claude wants it back on the next turn. */
function thinkingBlockOf(block: Unverified<ClaudeContentBlock>): ThinkingBlock | undefined {
  if (block.type === "thinking" && typeof block.signature === "string" && block.signature !== "")
    return { type: "thinking", thinking: typeof block.thinking === "string" ? block.thinking : "", signature: block.signature };
  if (block.type === "redacted_thinking" && typeof block.data === "string") return { type: "redacted_thinking", data: block.data };
  return undefined;
}

/**
 * A Claude message as an OpenAI chat.completion (pure, apart from the `created` time). Thinking
 * is the reasoning_content; the blocks themselves, signed or redacted, ride along in
 * extra_content.anthropic.thinking_blocks (inbound/reasoning-state.ts) so the next turn can
 * give them back. Server tools (web search) ran at Anthropic: only their text reaches the client.
 */
function openAIChatFromClaude(message: ClaudeAnswer, fallbackModel: string): ChatCompletion {
  let text = "";
  let reasoning = "";
  const toolCalls: ChatToolCall[] = [];
  const thinkingBlocks: ThinkingBlock[] = [];
  for (const block of unverifiedList<ClaudeContentBlock>(message.content)) {
    if (block.type === "text" && typeof block.text === "string") text += block.text;
    else if (block.type === "thinking" && typeof block.thinking === "string") reasoning += block.thinking;
    else if (block.type === "tool_use") {
      const id = typeof block.id === "string" ? block.id : "";
      const name = typeof block.name === "string" ? block.name : "";
      toolCalls.push({ id, type: "function", function: { name, arguments: JSON.stringify(block.input ?? {}) } });
    }
    const kept = thinkingBlockOf(block);
    if (kept) thinkingBlocks.push(kept);
  }
  const assistant: ChatMessage = { role: "assistant", content: text === "" && toolCalls.length ? null : text };
  if (reasoning) assistant.reasoning_content = reasoning;
  if (toolCalls.length) assistant.tool_calls = toolCalls;
  if (thinkingBlocks.length) assistant.extra_content = { anthropic: { thinking_blocks: thinkingBlocks } };
  const usage = claudeUsage(message.usage);
  return {
    id: typeof message.id === "string" ? message.id : `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`,
    object: "chat.completion",
    created: nowSeconds(),
    model: typeof message.model === "string" ? message.model : fallbackModel,
    choices: [{ index: 0, message: assistant, finish_reason: finishReasonOf(message.stop_reason) ?? "stop" }],
    ...(usage ? { usage: openAIUsageBody(usage) } : {}),
  };
}

const decoder = new TextDecoder();
const unreadable = {
  message: "the upstream answer is not a Claude message",
  type: "upstream_error",
  code: "bad_response_body",
  param: null,
};

function parse(text: string): ClaudeAnswer | undefined {
  try {
    return unverified<ClaudeMessage>(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export function convertClaudeResponse(call: RelayCall, body: Bytes, contentType: string): ConvertedResponse {
  const message = parse(decoder.decode(body));
  const error = claudeErrorOf(message) ?? (message ? undefined : unreadable);
  const usage = message ? claudeUsage(message.usage) : null;
  const output = () => outputOfClaudeMessage(message);
  if (call.format === "claude" || error || !message) {
    // A native client gets the vendor's bytes as they are, errors included.
    return { body, contentType: contentType || "application/json", usage, output, ...(error ? { error } : {}) };
  }
  return { body: JSON.stringify(openAIChatFromClaude(message, call.upstreamModel)), contentType: "application/json", usage, output };
}
