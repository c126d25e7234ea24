// ERNIE's answers in OpenAI's shape. A whole answer is {id, result, finish_reason, function_call,
// need_clear_history, usage}; a stream sends the same object per sentence with `is_end` on the
// last, which carries the usage. A function call becomes an OpenAI tool call.
import type { Bytes, ConvertedResponse, RelayCall, SseEvent, Usage } from "../adaptor.ts";
import type { VendorStep } from "../vendor-format-helpers/chunk-stream.ts";
import { argumentsText } from "../vendor-format-helpers/chat-request.ts";
import { chatCompletion, embeddingList, failedAnswer, usageOf, type ToolCall } from "../vendor-format-helpers/whole-answer.ts";
import { baiduErrorOf } from "./baidu-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

type ErnieAnswer = {
  id?: string;
  result?: string;
  is_end?: boolean;
  finish_reason?: string;
  need_clear_history?: boolean;
  function_call?: { name?: string; arguments?: unknown };
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
};

const decoder = new TextDecoder();

function finishReasonOf(answer: ErnieAnswer): string {
  if (answer.function_call?.name) return "tool_calls";
  if (answer.need_clear_history || answer.finish_reason === "content_filter") return "content_filter";
  if (answer.finish_reason === "length") return "length";
  return "stop";
}

function toolCallOf(answer: ErnieAnswer): ToolCall | undefined {
  const call = answer.function_call;
  if (!call?.name) return undefined;
  return {
    id: `call_${answer.id ?? crypto.randomUUID().replaceAll("-", "")}`,
    type: "function",
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  };
}

const usageOfAnswer = (answer: ErnieAnswer): Usage | null =>
  usageOf(answer.usage?.prompt_tokens, answer.usage?.completion_tokens, answer.usage?.total_tokens);

export function convertErnieResponse(call: RelayCall, bytes: Bytes): ConvertedResponse {
  const parsed = jsonOrUndefined(decoder.decode(bytes));
  const error = baiduErrorOf(parsed);
  if (error || !parsed || typeof parsed !== "object") {
    return failedAnswer(error ?? { message: "unreadable answer", type: "upstream_error", code: "bad_response_body", param: null });
  }
  if (call.endpoint === "embeddings") {
    const data = (parsed as { data?: { embedding?: number[]; index?: number }[]; usage?: ErnieAnswer["usage"] }).data ?? [];
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    const usage = (parsed as ErnieAnswer).usage;
    return embeddingList(
      call,
      ordered.map((item) => item.embedding ?? []),
      usageOf(usage?.prompt_tokens, 0, usage?.total_tokens),
    );
  }
  const answer = parsed as ErnieAnswer;
  const tool = toolCallOf(answer);
  return chatCompletion({
    model: call.model,
    id: answer.id,
    content: answer.result ?? "",
    toolCalls: tool ? [tool] : [],
    finishReason: finishReasonOf(answer),
    usage: usageOfAnswer(answer),
  });
}

/** One event of an ERNIE stream. */
export function readErnieEvent(event: SseEvent): VendorStep | undefined {
  if (!event.data) return undefined;
  const parsed = jsonOrUndefined(event.data);
  const error = baiduErrorOf(parsed);
  if (error) return { error };
  if (!parsed || typeof parsed !== "object") return undefined;
  const answer = parsed as ErnieAnswer;
  const tool = toolCallOf(answer);
  const step: VendorStep = {
    delta: {
      content: answer.result ?? "",
      ...(tool ? { tool_calls: [{ index: 0, id: tool.id, type: "function" as const, function: tool.function }] } : {}),
    },
  };
  // Every sentence carries the usage so far; the last one the total.
  const usage = usageOfAnswer(answer);
  if (usage) step.usage = usage;
  if (answer.is_end) {
    step.finishReason = finishReasonOf(answer);
    step.end = true;
  }
  return step;
}
