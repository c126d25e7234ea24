// A whole Claude answer (a Messages API `message`) for the client: converted to an OpenAI
// chat.completion, or passed through untouched to a client that called in Claude's own format,
// with the usage read either way.
import { nowSeconds } from "../../../clock.ts";
import type { Bytes, ConvertedResponse, GeneratedOutput, RelayCall } from "../adaptor.ts";
import { claudeErrorOf } from "./claude-errors.ts";
import { claudeUsage, openAIUsageBody } from "./claude-usage.ts";

type ClaudeContent = { type?: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown };
export type ClaudeMessage = { id?: string; model?: string; content?: ClaudeContent[]; stop_reason?: string | null; usage?: unknown };

/**
 * Claude's stop reasons in OpenAI's words. max_tokens is "length" (not new-api's "max_tokens"):
 * OpenAI clients and SDKs look for "length" to tell a cut answer. A refusal is "content_filter".
 */
export function finishReasonOf(stopReason: string | null | undefined): string | null {
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
export function outputOfClaudeMessage(message: ClaudeMessage | null): GeneratedOutput {
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  for (const block of message?.content ?? []) {
    if (block.type === "text" && typeof block.text === "string") output.text += block.text;
    else if (block.type === "thinking" && typeof block.thinking === "string") output.text += block.thinking;
    else if (block.type === "tool_use") {
      output.toolCalls++;
      output.text += (block.name ?? "") + JSON.stringify(block.input ?? {});
    }
  }
  return output;
}

/** A Claude message as an OpenAI chat.completion (pure, apart from the `created` time). */
export function openAIChatFromClaude(message: ClaudeMessage, fallbackModel: string): Record<string, unknown> {
  let text = "";
  let reasoning = "";
  const toolCalls: Record<string, unknown>[] = [];
  for (const block of message.content ?? []) {
    if (block.type === "text" && typeof block.text === "string") text += block.text;
    else if (block.type === "thinking" && typeof block.thinking === "string") reasoning += block.thinking;
    else if (block.type === "tool_use") {
      toolCalls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  const assistant: Record<string, unknown> = { role: "assistant", content: text === "" && toolCalls.length ? null : text };
  if (reasoning) assistant.reasoning_content = reasoning;
  if (toolCalls.length) assistant.tool_calls = toolCalls;
  const usage = claudeUsage(message.usage);
  return {
    id: message.id ?? `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`,
    object: "chat.completion",
    created: nowSeconds(),
    model: message.model ?? fallbackModel,
    choices: [{ index: 0, message: assistant, finish_reason: finishReasonOf(message.stop_reason) ?? "stop" }],
    ...(usage ? { usage: openAIUsageBody(usage) } : {}),
  };
}

const decoder = new TextDecoder();
const unreadable = { message: "the upstream answer is not a Claude message", type: "upstream_error", code: "bad_response_body", param: null };

function parse(text: string): ClaudeMessage | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
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
