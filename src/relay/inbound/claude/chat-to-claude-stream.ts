// OpenAI chat chunks as Anthropic's stream: message_start (with the prompt counted locally, as
// the real one carries the input count up front), a ping, one content block per kind of delta
// (thinking, text, each tool call) opened with content_block_start, fed with content_block_delta
// and closed with content_block_stop, then message_delta with the stop reason and the final
// usage, and message_stop. Errors are an `error` event. Vendor state for the next turn
// (reasoning-state.ts) ends the open thinking block as its signature_delta, or comes as a
// thinking block of its own when none is open; Claude's own signed blocks (a Claude-family
// answer's) are sent as they came.
import type { StreamBreak, Usage } from "../../providers/adaptor.ts";
import type { ChatChunk } from "../chat-answer.ts";
import { namedEvent, nativeId, type ChunkTranslator, type NativeCall } from "../inbound-codec.ts";
import { encodeReasoning, reasoningOfChat, type ReasoningState } from "../reasoning-state.ts";
import { claudeErrorObject } from "./errors-to-claude.ts";
import { claudeMessageId, claudeStopReason, claudeUsage } from "./chat-to-claude-response.ts";
import type { ClaudeContentBlock, ClaudeDelta, ClaudeMessage, ClaudeStreamEvent } from "../../providers/claude/claude-wire.ts";

/** One event, framed as Anthropic frames it: named by its type. */
const claudeEvent = (event: ClaudeStreamEvent): string => namedEvent(event.type, event);

type Block = { kind: "thinking" | "text" | "tool"; index: number; toolKey?: number };

export function claudeStreamTranslator(call: NativeCall): ChunkTranslator {
  let started = false;
  let block: Block | undefined;
  let blocks = 0;
  let finish: string | null = null;
  let sawTool = false;

  const start = (chunk: ChatChunk | undefined): string[] => {
    if (started) return [];
    started = true;
    const message: ClaudeMessage = {
      id: claudeMessageId(chunk?.id ?? ""),
      type: "message",
      role: "assistant",
      model: chunk?.model || call.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: call.countPromptTokens(), output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    return [claudeEvent({ type: "message_start", message }), claudeEvent({ type: "ping" })];
  };

  const close = (): string[] => {
    if (!block) return [];
    const index = block.index;
    block = undefined;
    return [claudeEvent({ type: "content_block_stop", index })];
  };

  const open = (kind: Block["kind"], contentBlock: ClaudeContentBlock, toolKey?: number): string[] => {
    const events = close();
    block = { kind, index: blocks++, toolKey };
    events.push(claudeEvent({ type: "content_block_start", index: block.index, content_block: contentBlock }));
    return events;
  };

  const delta = (payload: ClaudeDelta): string => claudeEvent({ type: "content_block_delta", index: block!.index, delta: payload });

  /** State for the next turn: Claude's own blocks whole, another vendor's as a signature. */
  const keepState = (state: ReasoningState | undefined): string[] => {
    if (!state) return [];
    const events: string[] = [];
    if (state.google) {
      if (block?.kind !== "thinking") events.push(...open("thinking", { type: "thinking", thinking: "", signature: "" }));
      events.push(delta({ type: "signature_delta", signature: encodeReasoning({ google: state.google }) }));
      events.push(...close());
    }
    for (const kept of state.anthropic?.thinking_blocks ?? []) {
      if (kept.type === "redacted_thinking") {
        events.push(...open("thinking", { type: "redacted_thinking", data: kept.data }), ...close());
        continue;
      }
      // The text already went out in this block's deltas: what is left is its signature.
      if (block?.kind !== "thinking") events.push(...open("thinking", { type: "thinking", thinking: kept.thinking, signature: "" }));
      events.push(delta({ type: "signature_delta", signature: kept.signature }), ...close());
    }
    return events;
  };

  return {
    chunk(chunk) {
      const events = start(chunk);
      const choice = chunk.choices?.find((item) => (item.index ?? 0) === 0);
      if (!choice) return events;
      const piece = choice.delta ?? {};
      const reasoning =
        typeof piece.reasoning_content === "string" ? piece.reasoning_content : typeof piece.reasoning === "string" ? piece.reasoning : "";
      if (reasoning) {
        if (block?.kind !== "thinking") events.push(...open("thinking", { type: "thinking", thinking: "", signature: "" }));
        events.push(delta({ type: "thinking_delta", thinking: reasoning }));
      }
      events.push(...keepState(reasoningOfChat(piece)));
      if (typeof piece.content === "string" && piece.content !== "") {
        if (block?.kind !== "text") events.push(...open("text", { type: "text", text: "" }));
        events.push(delta({ type: "text_delta", text: piece.content }));
      }
      for (const tool of piece.tool_calls ?? []) {
        const key = tool.index ?? 0;
        if (block?.kind !== "tool" || block.toolKey !== key) {
          sawTool = true;
          const id = tool.id || nativeId("toolu_");
          events.push(...open("tool", { type: "tool_use", id, name: tool.function?.name ?? "", input: {} }, key));
        }
        const partial = tool.function?.arguments;
        if (typeof partial === "string" && partial !== "") events.push(delta({ type: "input_json_delta", partial_json: partial }));
      }
      if (choice.finish_reason) finish = choice.finish_reason;
      return events;
    },
    end(usage: Usage) {
      const events = [...start(undefined), ...close()];
      events.push(
        claudeEvent({
          type: "message_delta",
          delta: { stop_reason: claudeStopReason(finish, sawTool), stop_sequence: null },
          usage: claudeUsage(usage),
        }),
        claudeEvent({ type: "message_stop" }),
      );
      return events;
    },
    fail(error: StreamBreak) {
      return [claudeEvent({ type: "error", error: claudeErrorObject(error) })];
    },
  };
}
