// A streamed Claude answer as OpenAI chunks. Claude's events (message_start, content blocks
// with their deltas, message_delta with the stop reason and output count, message_stop, ping,
// error) become chat.completion.chunk objects:
//   text_delta -> delta.content, thinking_delta -> delta.reasoning_content,
//   a tool_use block -> delta.tool_calls[{index, id, type, function: {name, arguments: ""}}],
//   input_json_delta -> delta.tool_calls[{index, function: {arguments}}],
//   message_delta.stop_reason -> finish_reason, message_stop -> (usage chunk) + [DONE],
//   an error event -> an OpenAI error event, and the stream ends.
// Input counts come with message_start, the output count with message_delta (a running total).
import { nowSeconds } from "../../../clock.ts";
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter } from "../adaptor.ts";
import { claudeStreamError } from "./claude-errors.ts";
import { finishReasonOf } from "./claude-response.ts";
import { addClaudeUsage, noTokens, openAIUsageBody, usageOfClaude } from "./claude-usage.ts";

type Delta = { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
type Block = { type?: string; id?: string; name?: string; text?: string; thinking?: string };
type ClaudeEvent = {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: unknown };
  content_block?: Block;
  delta?: Delta;
  usage?: unknown;
};

function parse(data: string): ClaudeEvent | undefined {
  try {
    const value = JSON.parse(data);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

export function createClaudeStreamConverter(call: RelayCall, countCompletion: CompletionCounter): StreamConverter {
  let id = `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`;
  let model = call.upstreamModel;
  const created = nowSeconds();
  const tokens = noTokens();
  /** Claude content block index -> OpenAI tool call index. */
  const toolIndex = new Map<number, number>();
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

  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

  const closing = (): string[] => {
    if (done) return [];
    done = true;
    const texts: string[] = [];
    if (call.clientWantsUsage) {
      const completion = countCompletion(generated);
      const reported = usage() ?? { prompt_tokens: call.countPromptTokens(), completion_tokens: completion, total_tokens: call.countPromptTokens() + completion };
      texts.push(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: openAIUsageBody(reported) })}\n\n`);
    }
    texts.push("data: [DONE]\n\n");
    return texts;
  };

  const startBlock = (index: number, block: Block): string[] => {
    if (block.type === "tool_use") {
      const at = generated.toolCalls++;
      toolIndex.set(index, at);
      generated.text += block.name ?? "";
      return [chunk({ tool_calls: [{ index: at, id: block.id, type: "function", function: { name: block.name, arguments: "" } }] })];
    }
    if (block.type === "text" && block.text) {
      generated.text += block.text;
      return [chunk({ content: block.text })];
    }
    if (block.type === "thinking" && block.thinking) {
      generated.text += block.thinking;
      return [chunk({ reasoning_content: block.thinking })];
    }
    return [];
  };

  const blockDelta = (index: number, delta: Delta): string[] => {
    switch (delta.type) {
      case "text_delta":
        if (!delta.text) return [];
        generated.text += delta.text;
        return [chunk({ content: delta.text })];
      case "thinking_delta":
        if (!delta.thinking) return [];
        generated.text += delta.thinking;
        return [chunk({ reasoning_content: delta.thinking })];
      case "input_json_delta": {
        const at = toolIndex.get(index);
        if (at === undefined || !delta.partial_json) return [];
        generated.text += delta.partial_json;
        return [chunk({ tool_calls: [{ index: at, function: { arguments: delta.partial_json } }] })];
      }
      default:
        // signature_delta, citations_delta: nothing an OpenAI client reads.
        return [];
    }
  };

  return {
    push(event: SseEvent): string[] {
      if (done || event.data === "") return [];
      const failure = claudeStreamError(event);
      if (failure) {
        done = true;
        return [`data: ${JSON.stringify({ error: { message: failure.message, type: failure.type, param: null, code: failure.code } })}\n\n`];
      }
      const data = parse(event.data);
      switch (data?.type) {
        case "message_start":
          id = data.message?.id ?? id;
          model = data.message?.model ?? model;
          addClaudeUsage(tokens, data.message?.usage);
          return [chunk({ role: "assistant", content: "" })];
        case "content_block_start":
          return data.content_block ? startBlock(data.index ?? 0, data.content_block) : [];
        case "content_block_delta":
          return data.delta ? blockDelta(data.index ?? 0, data.delta) : [];
        case "message_delta": {
          addClaudeUsage(tokens, data.usage);
          if ((data.usage as { output_tokens?: unknown } | undefined)?.output_tokens !== undefined) outputReported = true;
          const finish = finishReasonOf(data.delta?.stop_reason);
          return finish ? [chunk({}, finish)] : [];
        }
        case "message_stop":
          return closing();
        default:
          // ping, content_block_stop, and event types added later.
          return [];
      }
    },
    finish: closing,
    finished: () => done,
    usage,
    output: () => generated,
  };
}
