// Cohere v2 chat answers as OpenAI's. A whole answer is {id, finish_reason, message: {content:
// [{type: text|thinking}], tool_plan, tool_calls}, usage: {billed_units, tokens}}; a stream is
// typed events (message-start, content-start/delta/end, tool-plan-delta, tool-call-start/delta/
// end, citation events, message-end with the finish reason and usage). Usage is what Cohere bills
// (billed_units), falling back to the token counts, with cached_tokens (prompt tokens that hit
// Cohere's inference cache, priced by the CacheRatio option); the tool plan and thinking are
// reasoning.
import type { Bytes, ConvertedResponse, RelayCall, SseEvent, Usage } from "../adaptor.ts";
import type { VendorStep } from "../vendor-format-helpers/chunk-stream.ts";
import { chatCompletion, failedAnswer, usageOf, type ToolCall } from "../vendor-format-helpers/whole-answer.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

type Units = { input_tokens?: number; output_tokens?: number };
export type CohereUsage = { billed_units?: Units; tokens?: Units; cached_tokens?: number };
type ContentItem = { type?: string; text?: string; thinking?: string };
type CohereToolCall = { id?: string; function?: { name?: string; arguments?: string } };
type CohereAnswer = {
  id?: string;
  finish_reason?: string;
  message?: { content?: ContentItem[]; tool_plan?: string; tool_calls?: CohereToolCall[] };
  usage?: CohereUsage;
};

const finishReasons: Record<string, string> = { COMPLETE: "stop", STOP_SEQUENCE: "stop", MAX_TOKENS: "length", TOOL_CALL: "tool_calls" };
export const finishReasonOf = (reason: string | undefined) => (reason ? (finishReasons[reason] ?? "stop") : undefined);

const generationFailed = { message: "generation failed", type: "upstream_error", code: "ERROR", param: null, status: 500 };

function cohereUsage(usage: CohereUsage | undefined): Usage | null {
  const billed = usage?.billed_units;
  const result = usageOf(billed?.input_tokens, billed?.output_tokens) ?? usageOf(usage?.tokens?.input_tokens, usage?.tokens?.output_tokens);
  const cached = usage?.cached_tokens;
  // Inside the prompt tokens, never more than them.
  if (result && typeof cached === "number" && Number.isFinite(cached) && cached > 0)
    result.cached_tokens = Math.min(Math.round(cached), result.prompt_tokens);
  return result;
}

export function convertCohereChat(call: RelayCall, bytes: Bytes): ConvertedResponse {
  const answer = jsonOrUndefined(new TextDecoder().decode(bytes)) as CohereAnswer | undefined;
  if (!answer?.message)
    return failedAnswer({ message: "unreadable answer", type: "upstream_error", code: "bad_response_body", param: null });
  // Cohere's finish reason ERROR: "the generation failed due to an internal error". Like the
  // stream's, an upstream failure (500: retried, not billed), not an answer.
  if (answer.finish_reason === "ERROR") return failedAnswer(generationFailed);
  const content = answer.message.content ?? [];
  const text = content
    .filter((item) => item.type === "text")
    .map((item) => item.text ?? "")
    .join("");
  const thinking = content
    .filter((item) => item.type === "thinking")
    .map((item) => item.thinking ?? item.text ?? "")
    .join("");
  const toolCalls: ToolCall[] = (answer.message.tool_calls ?? []).map((tool, index) => ({
    id: tool.id ?? `call_${index}`,
    type: "function",
    function: { name: tool.function?.name ?? "", arguments: tool.function?.arguments ?? "{}" },
  }));
  return chatCompletion({
    model: call.model,
    id: answer.id,
    content: text,
    reasoning: [answer.message.tool_plan, thinking].filter(Boolean).join("\n") || undefined,
    toolCalls,
    finishReason: finishReasonOf(answer.finish_reason) ?? "stop",
    usage: cohereUsage(answer.usage),
  });
}

type StreamEvent = {
  type?: string;
  index?: number;
  delta?: {
    message?: {
      content?: { text?: string; thinking?: string };
      tool_plan?: string;
      tool_calls?: { id?: string; function?: { name?: string; arguments?: string } };
    };
    finish_reason?: string;
    usage?: CohereUsage;
    error?: string;
  };
};

export function readCohereEvent(event: SseEvent): VendorStep | undefined {
  const parsed = jsonOrUndefined(event.data) as StreamEvent | undefined;
  const delta = parsed?.delta;
  const message = delta?.message;
  switch (parsed?.type) {
    case "content-start":
    case "content-delta":
      return { delta: { content: message?.content?.text, reasoning_content: message?.content?.thinking } };
    case "tool-plan-delta":
      return { delta: { reasoning_content: message?.tool_plan } };
    case "tool-call-start": {
      const tool = message?.tool_calls;
      return {
        delta: {
          tool_calls: [
            {
              index: parsed.index ?? 0,
              id: tool?.id,
              type: "function",
              function: { name: tool?.function?.name ?? "", arguments: tool?.function?.arguments ?? "" },
            },
          ],
        },
      };
    }
    case "tool-call-delta":
      return {
        delta: { tool_calls: [{ index: parsed.index ?? 0, function: { arguments: message?.tool_calls?.function?.arguments ?? "" } }] },
      };
    case "message-end":
      if (delta?.finish_reason === "ERROR") {
        return { error: { ...generationFailed, message: delta.error || generationFailed.message } };
      }
      return { finishReason: finishReasonOf(delta?.finish_reason) ?? "stop", usage: cohereUsage(delta?.usage), end: true };
    default:
      return undefined;
  }
}
