// DashScope's native answers in OpenAI's shape: output.choices[].message for chat (content a text,
// or a list of {text} parts from the vision models), output.embeddings for embeddings, and a
// finished image task's output.results for images. Usage is {input_tokens, output_tokens}; on an
// incremental stream each event carries the new text and the usage so far.
import type { Bytes, ConvertedResponse, RelayCall, SseEvent, Usage } from "../adaptor.ts";
import { argumentsText } from "../vendor-format-helpers/chat-request.ts";
import type { ToolCallDelta, VendorStep } from "../vendor-format-helpers/chunk-stream.ts";
import { chatCompletion, embeddingList, failedAnswer, usageOf, type ToolCall } from "../vendor-format-helpers/whole-answer.ts";
import { dashScopeErrorOf } from "./dashscope-errors.ts";

type NativeToolCall = { index?: number; id?: string; type?: string; function?: { name?: string; arguments?: unknown } };
type NativeMessage = { content?: unknown; reasoning_content?: string; tool_calls?: NativeToolCall[] };
type NativeAnswer = {
  request_id?: string;
  output?: {
    choices?: { finish_reason?: string; message?: NativeMessage }[];
    embeddings?: { text_index?: number; embedding?: number[] }[];
    results?: { url?: string; b64_image?: string }[];
  };
  usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
};

const decoder = new TextDecoder();

function parse(text: string): NativeAnswer | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Text of a message content: a string, or the vision models' [{text}, {image}] parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}

function finishReasonOf(reason: string | undefined): string | undefined {
  if (!reason || reason === "null") return undefined;
  if (reason === "tool_calls" || reason === "length" || reason === "stop") return reason;
  return "stop";
}

function usageOfAnswer(answer: NativeAnswer): Usage | null {
  const usage = usageOf(answer.usage?.input_tokens, answer.usage?.output_tokens, answer.usage?.total_tokens);
  const cached = answer.usage?.prompt_tokens_details?.cached_tokens;
  if (usage && typeof cached === "number" && cached > 0) usage.cached_tokens = cached;
  return usage;
}

function convertImages(answer: NativeAnswer): ConvertedResponse {
  const results = (answer.output?.results ?? []).filter((result) => result.url || result.b64_image);
  if (results.length === 0)
    return failedAnswer(
      dashScopeErrorOf(answer) ?? { message: "the image task produced no image", type: "upstream_error", code: "no_image", param: null },
    );
  const data = results.map((result) => (result.b64_image ? { b64_json: result.b64_image } : { url: result.url }));
  const body = { created: Math.floor(Date.now() / 1000), data };
  return { body: JSON.stringify(body), contentType: "application/json", usage: null, output: () => ({ text: "", toolCalls: 0 }) };
}

export function convertNativeResponse(call: RelayCall, bytes: Bytes): ConvertedResponse {
  const answer = parse(decoder.decode(bytes));
  const error = dashScopeErrorOf(answer);
  if (error || !answer)
    return failedAnswer(error ?? { message: "unreadable answer", type: "upstream_error", code: "bad_response_body", param: null });
  if (call.endpoint === "image-generation") return convertImages(answer);
  if (call.endpoint === "embeddings") {
    const items = [...(answer.output?.embeddings ?? [])].sort((a, b) => (a.text_index ?? 0) - (b.text_index ?? 0));
    return embeddingList(
      call,
      items.map((item) => item.embedding ?? []),
      usageOf(answer.usage?.input_tokens, 0, answer.usage?.total_tokens),
    );
  }
  const choice = answer.output?.choices?.[0];
  const message = choice?.message ?? {};
  const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((tool, index) => ({
    id: tool.id || `call_${index}`,
    type: "function",
    function: { name: tool.function?.name ?? "", arguments: argumentsText(tool.function?.arguments) },
  }));
  return chatCompletion({
    model: call.model,
    id: answer.request_id,
    content: contentText(message.content),
    reasoning: message.reasoning_content,
    toolCalls,
    finishReason: finishReasonOf(choice?.finish_reason) ?? "stop",
    usage: usageOfAnswer(answer),
  });
}

/** One event of an incremental DashScope stream. */
export function readNativeEvent(event: SseEvent): VendorStep | undefined {
  if (!event.data) return undefined;
  const answer = parse(event.data);
  const error = event.event === "error" || answer?.output === undefined ? dashScopeErrorOf(answer) : undefined;
  if (error) return { error };
  if (!answer) return undefined;
  const choice = answer.output?.choices?.[0];
  const message = choice?.message ?? {};
  const toolCalls: ToolCallDelta[] = (message.tool_calls ?? []).map((tool, position) => ({
    index: tool.index ?? position,
    ...(tool.id ? { id: tool.id, type: "function" as const } : {}),
    function: {
      ...(tool.function?.name ? { name: tool.function.name } : {}),
      ...(tool.function?.arguments !== undefined ? { arguments: argumentsText(tool.function.arguments) } : {}),
    },
  }));
  const finishReason = finishReasonOf(choice?.finish_reason);
  const step: VendorStep = {
    delta: { content: contentText(message.content), reasoning_content: message.reasoning_content ?? "", tool_calls: toolCalls },
  };
  const usage = usageOfAnswer(answer);
  if (usage) step.usage = usage;
  if (finishReason) {
    step.finishReason = finishReason;
    step.end = true;
  }
  return step;
}
