// A streamed Claude answer as OpenAI chunks. Claude's events (message_start, content blocks
// with their deltas, message_delta with the stop reason and output count, message_stop, ping,
// error) become chat.completion.chunk objects:
//   text_delta -> delta.content, thinking_delta -> delta.reasoning_content,
//   a tool_use block -> delta.tool_calls[{index, id, type, function: {name, arguments: ""}}],
//   input_json_delta -> delta.tool_calls[{index, function: {arguments}}],
//   message_delta.stop_reason -> finish_reason, message_stop -> (usage chunk) + [DONE],
//   an error event -> an OpenAI error event, and the stream ends;
//   a thinking block, once its signature came (at its content_block_stop), and a
//   redacted_thinking block -> delta.extra_content.anthropic.thinking_blocks: [that block]
//   (inbound/reasoning-state.ts), so the next turn can give them back.
// Input counts come with message_start, the output count with message_delta (a running total).
import { nowSeconds } from "../../../clock.ts";
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter } from "../adaptor.ts";
import { claudeStreamError } from "./claude-to-chat-errors.ts";
import { finishReasonOf } from "./claude-to-chat-response.ts";
import { addClaudeUsage, noTokens, openAIUsageBody, usageOfClaude } from "./claude-usage.ts";
import type { ChatDelta, ChatFinishReason } from "../openai-chat-wire.ts";
import { unverified, type Unverified } from "../unverified.ts";
import type { ClaudeContentBlock, ClaudeDelta, ClaudeMessage, ClaudeStreamEvent, ClaudeUsage } from "./claude-wire.ts";

const text = (value: unknown): string => (typeof value === "string" ? value : "");
/** A string field, or undefined (left out of the JSON) when the upstream sent none. */
const stringOr = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function parse(data: string): Unverified<ClaudeStreamEvent> | undefined {
  try {
    return unverified<ClaudeStreamEvent>(JSON.parse(data));
  } catch {
    return undefined;
  }
}

/** A content block index (Claude's are numbers from 0). */
const indexOf = (value: unknown): number => (typeof value === "number" ? value : 0);

export function createClaudeStreamConverter(call: RelayCall, countCompletion: CompletionCounter): StreamConverter {
  let id = `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`;
  let model = call.upstreamModel;
  const created = nowSeconds();
  const tokens = noTokens();
  /** Claude content block index -> OpenAI tool call index. */
  const toolIndex = new Map<number, number>();
  /** Thinking blocks being streamed, by content block index: their text and signature so far. */
  const thinking = new Map<number, { thinking: string; signature: string }>();
  const generated: GeneratedOutput = { text: "", toolCalls: 0 };
  /** The output count is final once message_delta reported it; until then it is counted locally. */
  let outputReported = false;
  let done = false;

  const usage = () => {
    const reported = usageOfClaude(tokens);
    if (!reported || outputReported) return reported;
    // A stream cut before its end: bill what was delivered, counted here.
    const completion = countCompletion(generated);
    return { ...reported, completion_tokens: completion, total_tokens: reported.prompt_tokens + completion };
  };

  const chunk = (delta: ChatDelta, finishReason: ChatFinishReason | null = null): string =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

  const closing = (): string[] => {
    if (done) return [];
    done = true;
    const texts: string[] = [];
    if (call.clientWantsUsage) {
      const completion = countCompletion(generated);
      const reported = usage() ?? {
        prompt_tokens: call.countPromptTokens(),
        completion_tokens: completion,
        total_tokens: call.countPromptTokens() + completion,
      };
      texts.push(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: openAIUsageBody(reported) })}\n\n`,
      );
    }
    texts.push("data: [DONE]\n\n");
    return texts;
  };

  const startBlock = (index: number, block: Unverified<ClaudeContentBlock>): string[] => {
    if (block.type === "tool_use") {
      const at = generated.toolCalls++;
      toolIndex.set(index, at);
      const name = stringOr(block.name);
      generated.text += name ?? "";
      return [chunk({ tool_calls: [{ index: at, id: stringOr(block.id), type: "function", function: { name, arguments: "" } }] })];
    }
    if (block.type === "text" && text(block.text)) {
      generated.text += text(block.text);
      return [chunk({ content: text(block.text) })];
    }
    if (block.type === "thinking") {
      const thought = text(block.thinking);
      thinking.set(index, { thinking: thought, signature: text(block.signature) });
      if (!thought) return [];
      generated.text += thought;
      return [chunk({ reasoning_content: thought })];
    }
    if (block.type === "redacted_thinking" && typeof block.data === "string") {
      return [chunk({ extra_content: { anthropic: { thinking_blocks: [{ type: "redacted_thinking", data: block.data }] } } })];
    }
    return [];
  };

  /** A thinking block ended: with its signature, it goes to the client whole, to be given back. */
  const stopBlock = (index: number): string[] => {
    const block = thinking.get(index);
    thinking.delete(index);
    if (!block?.signature) return [];
    const kept = { type: "thinking" as const, thinking: block.thinking, signature: block.signature };
    return [chunk({ extra_content: { anthropic: { thinking_blocks: [kept] } } })];
  };

  const blockDelta = (index: number, delta: Unverified<ClaudeDelta>): string[] => {
    switch (delta.type) {
      case "text_delta": {
        const piece = text(delta.text);
        if (!piece) return [];
        generated.text += piece;
        return [chunk({ content: piece })];
      }
      case "thinking_delta": {
        const piece = text(delta.thinking);
        if (!piece) return [];
        const block = thinking.get(index);
        if (block) block.thinking += piece;
        generated.text += piece;
        return [chunk({ reasoning_content: piece })];
      }
      case "signature_delta": {
        const block = thinking.get(index);
        if (block && typeof delta.signature === "string") block.signature += delta.signature;
        return [];
      }
      case "input_json_delta": {
        const at = toolIndex.get(index);
        const piece = text(delta.partial_json);
        if (at === undefined || !piece) return [];
        generated.text += piece;
        return [chunk({ tool_calls: [{ index: at, function: { arguments: piece } }] })];
      }
      default:
        // citations_delta: nothing an OpenAI client reads.
        return [];
    }
  };

  return {
    push(event: SseEvent): string[] {
      if (done || event.data === "") return [];
      const failure = claudeStreamError(event);
      if (failure) {
        done = true;
        return [
          `data: ${JSON.stringify({ error: { message: failure.message, type: failure.type, param: null, code: failure.code } })}\n\n`,
        ];
      }
      const data = parse(event.data);
      switch (data?.type) {
        case "message_start": {
          const message = unverified<ClaudeMessage>(data.message);
          if (typeof message?.id === "string") id = message.id;
          if (typeof message?.model === "string") model = message.model;
          addClaudeUsage(tokens, message?.usage);
          return [chunk({ role: "assistant", content: "" })];
        }
        case "content_block_start": {
          const block = unverified<ClaudeContentBlock>(data.content_block);
          return block ? startBlock(indexOf(data.index), block) : [];
        }
        case "content_block_delta": {
          const delta = unverified<ClaudeDelta>(data.delta);
          return delta ? blockDelta(indexOf(data.index), delta) : [];
        }
        case "content_block_stop":
          return stopBlock(indexOf(data.index));
        case "message_delta": {
          const usage = unverified<ClaudeUsage>(data.usage);
          addClaudeUsage(tokens, usage);
          if (usage?.output_tokens !== undefined) outputReported = true;
          const finish = finishReasonOf(unverified<{ stop_reason: unknown }>(data.delta)?.stop_reason);
          return finish ? [chunk({}, finish)] : [];
        }
        case "message_stop":
          return closing();
        default:
          // ping, and event types added later.
          return [];
      }
    },
    finish: closing,
    finished: () => done,
    usage,
    output: () => generated,
  };
}
