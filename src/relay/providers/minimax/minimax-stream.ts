// MiniMax's chat completion v2 stream: chat.completion.chunk events with choices[].delta, and a
// last event that is a whole chat.completion (choices[].message repeating the full answer, the
// finish reason and the only real usage). OpenAI clients expect deltas only, so the events are
// rebuilt as OpenAI chunks and the final message is not sent again.
import type { SseEvent } from "../adaptor.ts";
import { normalizeUsage } from "../openai-compatible/openai-usage.ts";
import type { ToolCallDelta, VendorStep } from "../vendor-format-helpers/chunk-stream.ts";
import { minimaxErrorOf } from "./minimax-errors.ts";

type Delta = {
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: { index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
};
type Event = { object?: string; choices?: { delta?: Delta; finish_reason?: string | null }[]; usage?: unknown };

function parse(text: string): Event | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

export function readMinimaxEvent(event: SseEvent): VendorStep | undefined {
  if (event.data === "" || event.data === "[DONE]") return undefined;
  const parsed = parse(event.data);
  if (!parsed) return undefined;
  const error = minimaxErrorOf(parsed);
  if (error) return { error };
  const choice = parsed.choices?.[0];
  const step: VendorStep = { usage: normalizeUsage(parsed.usage) };
  if (choice?.finish_reason) step.finishReason = choice.finish_reason;
  // The closing chat.completion repeats what the deltas already carried.
  if (parsed.object === "chat.completion") return step;
  const delta = choice?.delta;
  if (delta) {
    const tools: ToolCallDelta[] = (delta.tool_calls ?? []).map((tool, position) => ({
      index: tool.index ?? position,
      ...(tool.id ? { id: tool.id, type: "function" as const } : {}),
      function: { ...(tool.function?.name ? { name: tool.function.name } : {}), arguments: tool.function?.arguments ?? "" },
    }));
    step.delta = { content: delta.content ?? undefined, reasoning_content: delta.reasoning_content ?? undefined, tool_calls: tools };
  }
  return step;
}
