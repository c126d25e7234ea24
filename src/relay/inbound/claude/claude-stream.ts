// OpenAI chat chunks as Anthropic's stream: message_start (with the prompt counted locally, as
// the real one carries the input count up front), a ping, one content block per kind of delta
// (thinking, text, each tool call) opened with content_block_start, fed with content_block_delta
// and closed with content_block_stop, then message_delta with the stop reason and the final
// usage, and message_stop. Errors are an `error` event.
import type { StreamBreak, Usage } from "../../providers/adaptor.ts";
import type { ChatChunk } from "../chat-answer.ts";
import { namedEvent, nativeId, type ChunkTranslator, type NativeCall } from "../inbound-codec.ts";
import { claudeErrorObject } from "./claude-errors.ts";
import { claudeMessageId, claudeStopReason, claudeUsage } from "./claude-response.ts";

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
    const message = {
      id: claudeMessageId(chunk?.id ?? ""),
      type: "message",
      role: "assistant",
      model: chunk?.model || call.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: call.countPromptTokens(), output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    return [namedEvent("message_start", { type: "message_start", message }), namedEvent("ping", { type: "ping" })];
  };

  const close = (): string[] => {
    if (!block) return [];
    const index = block.index;
    block = undefined;
    return [namedEvent("content_block_stop", { type: "content_block_stop", index })];
  };

  const open = (kind: Block["kind"], contentBlock: Record<string, unknown>, toolKey?: number): string[] => {
    const events = close();
    block = { kind, index: blocks++, toolKey };
    events.push(namedEvent("content_block_start", { type: "content_block_start", index: block.index, content_block: contentBlock }));
    return events;
  };

  const delta = (payload: Record<string, unknown>): string =>
    namedEvent("content_block_delta", { type: "content_block_delta", index: block!.index, delta: payload });

  return {
    chunk(chunk) {
      const events = start(chunk);
      const choice = chunk.choices?.find((item) => (item.index ?? 0) === 0);
      if (!choice) return events;
      const piece = choice.delta ?? {};
      const reasoning = typeof piece.reasoning_content === "string" ? piece.reasoning_content : typeof piece.reasoning === "string" ? piece.reasoning : "";
      if (reasoning) {
        if (block?.kind !== "thinking") events.push(...open("thinking", { type: "thinking", thinking: "", signature: "" }));
        events.push(delta({ type: "thinking_delta", thinking: reasoning }));
      }
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
        namedEvent("message_delta", {
          type: "message_delta",
          delta: { stop_reason: claudeStopReason(finish, sawTool), stop_sequence: null },
          usage: claudeUsage(usage),
        }),
        namedEvent("message_stop", { type: "message_stop" }),
      );
      return events;
    },
    fail(error: StreamBreak) {
      return [namedEvent("error", { type: "error", error: claudeErrorObject(error) })];
    },
  };
}
