// An OpenAI chat answer as an Anthropic Message: reasoning as a thinking block (signed with the
// vendor state the next turn needs), the text, tool
// calls as tool_use blocks (arguments parsed into `input`), the finish reason as stop_reason,
// and usage in Anthropic's terms (input_tokens excludes what was read from or written to the cache).
import type { Usage } from "../../providers/adaptor.ts";
import { argumentsObject, type ChatAnswer } from "../chat-answer.ts";
import { nativeId, type NativeCall } from "../inbound-codec.ts";
import { encodeReasoning, isEmptyReasoning, type ReasoningState, type ThinkingBlock } from "../reasoning-state.ts";
import type { ClaudeContentBlock, ClaudeMessage, ClaudeStopReason, ClaudeUsage } from "../../providers/claude/claude-wire.ts";

/**
 * The thinking blocks an answer opens with: Claude's own blocks as they came (a Claude-family
 * answer's state), or the reasoning with the gateway's encoding of another vendor's state as its
 * signature, which the client gives back with the block (reasoning-state.ts). Reasoning without
 * any state keeps an empty signature.
 */
export function thinkingBlocks(reasoning: string, state: ReasoningState | undefined): ThinkingBlock[] {
  const own = state?.anthropic?.thinking_blocks ?? [];
  const foreign: ReasoningState | undefined = state?.google ? { google: state.google } : undefined;
  if (own.length && !foreign) return own;
  if (!reasoning && isEmptyReasoning(foreign)) return own;
  return [{ type: "thinking", thinking: reasoning, signature: foreign ? encodeReasoning(foreign) : "" }, ...own];
}

export function claudeStopReason(finish: string | null, hasToolCalls: boolean): ClaudeStopReason {
  switch (finish) {
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return hasToolCalls ? "tool_use" : "end_turn";
  }
}

export function claudeUsage(usage: Usage): ClaudeUsage {
  const read = usage.cached_tokens ?? 0;
  const written = usage.cache_creation_tokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.prompt_tokens - read - written),
    output_tokens: usage.completion_tokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: read,
  };
}

export function claudeMessageId(chatId: string): string {
  return chatId.startsWith("msg_") ? chatId : nativeId("msg_");
}

export function claudeMessage(answer: ChatAnswer, call: NativeCall, usage: Usage): ClaudeMessage {
  const choice = answer.choices[0];
  const content: ClaudeContentBlock[] = [];
  content.push(...thinkingBlocks(choice?.reasoning ?? "", choice?.state));
  if (choice?.content) content.push({ type: "text", text: choice.content });
  for (const tool of choice?.toolCalls ?? []) {
    content.push({ type: "tool_use", id: tool.id, name: tool.name, input: argumentsObject(tool.arguments) });
  }
  return {
    id: claudeMessageId(answer.id),
    type: "message",
    role: "assistant",
    model: answer.model || call.model,
    content,
    stop_reason: claudeStopReason(choice?.finish ?? null, (choice?.toolCalls.length ?? 0) > 0),
    stop_sequence: null,
    usage: claudeUsage(usage),
  };
}
