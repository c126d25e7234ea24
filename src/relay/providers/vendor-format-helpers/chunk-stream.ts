// A vendor's own stream, turned into OpenAI chat.completion.chunk events. Each type supplies only
// a reader that says what one of its events means (text, reasoning, tool-call pieces, a finish
// reason, usage, the end, or an error in place of the rest); ids, the role, the closing usage
// chunk a client asked for (the vendor's, else counted locally) and [DONE] are written here once.
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter, Usage, UpstreamErrorDetails } from "../adaptor.ts";
import { openAIUsageBody } from "./usage-body.ts";

export type ToolCallDelta = {
  index: number;
  id?: string;
  type?: "function";
  function: { name?: string; arguments?: string };
};

export type Delta = { content?: string; reasoning_content?: string; tool_calls?: ToolCallDelta[] };

/** What one vendor event means. */
export type VendorStep = {
  delta?: Delta;
  /** OpenAI's finish reason (stop, length, tool_calls, content_filter). */
  finishReason?: string;
  usage?: Usage | null;
  /** The answer is complete (vendors without a [DONE] of their own say so in their last event). */
  end?: boolean;
  /** The vendor reports a failure in place of the rest of the answer. */
  error?: UpstreamErrorDetails;
};

export type VendorStreamReader = (event: SseEvent) => VendorStep | undefined;

const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

export function createChunkStream(call: RelayCall, countCompletion: CompletionCounter, read: VendorStreamReader): StreamConverter {
  const id = `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`;
  const created = Math.floor(Date.now() / 1000);
  const produced: GeneratedOutput = { text: "", toolCalls: 0 };
  let usage: Usage | null = null;
  let roleSent = false;
  let finishSent = false;
  let done = false;

  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    sse({ id, object: "chat.completion.chunk", created, model: call.model, choices: [{ index: 0, delta, finish_reason: finish }] });

  const deltaChunk = (delta: Delta): string | undefined => {
    const out: Record<string, unknown> = {};
    if (delta.content) out.content = delta.content;
    if (delta.reasoning_content) out.reasoning_content = delta.reasoning_content;
    if (delta.tool_calls?.length) out.tool_calls = delta.tool_calls;
    if (Object.keys(out).length === 0) return undefined;
    produced.text += (delta.content ?? "") + (delta.reasoning_content ?? "");
    for (const tool of delta.tool_calls ?? []) {
      if (tool.id) produced.toolCalls++;
      produced.text += (tool.function.name ?? "") + (tool.function.arguments ?? "");
    }
    if (!roleSent) {
      roleSent = true;
      return chunk({ role: "assistant", ...out }, null);
    }
    return chunk(out, null);
  };

  const closing = (): string[] => {
    if (done) return [];
    done = true;
    const events: string[] = [];
    if (!finishSent) events.push(chunk(roleSent ? {} : { role: "assistant", content: "" }, "stop"));
    if (call.clientWantsUsage) {
      let reported = usage;
      if (!reported) {
        const completion = countCompletion(produced);
        const promptTokens = call.countPromptTokens();
        reported = { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
      }
      events.push(sse({ id, object: "chat.completion.chunk", created, model: call.model, choices: [], usage: openAIUsageBody(reported) }));
    }
    events.push("data: [DONE]\n\n");
    return events;
  };

  return {
    push(event) {
      if (done) return [];
      const step = read(event);
      if (!step) return [];
      if (step.error) {
        // Ends the stream like the relay's own mid-stream failures: an error event, no [DONE].
        done = true;
        const { message, type, code, param } = step.error;
        return [sse({ error: { message, type, code, param } })];
      }
      const events: string[] = [];
      if (step.usage) usage = step.usage;
      if (step.delta) {
        const text = deltaChunk(step.delta);
        if (text) events.push(text);
      }
      if (step.finishReason && !finishSent) {
        finishSent = true;
        events.push(chunk(roleSent ? {} : { role: "assistant", content: "" }, step.finishReason));
        roleSent = true;
      }
      if (step.end) events.push(...closing());
      return events;
    },
    finish: closing,
    finished: () => done,
    usage: () => usage,
    output: () => ({ ...produced }),
  };
}
