// An OpenAI chat answer as a Responses API `response` object: reasoning as a reasoning item with
// its summary text, the text as a message item with one output_text part, each tool call as a
// function_call item; a length or content-filter finish makes the response `incomplete`. The
// request's settings are echoed as the Responses API does; `store` is false, since nothing is
// kept. The same envelope serves the stream's created/completed events.
import type { Usage } from "../../providers/adaptor.ts";
import type { ChatAnswer, ChatToolCall } from "../chat-answer.ts";
import { nativeId, type NativeCall } from "../inbound-codec.ts";

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

export type ResponseHead = { id: string; createdAt: number; model: string };

export function responsesUsage(usage: Usage) {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
  };
}

/** Why a finished answer is incomplete, or null when it is complete. */
export function incompleteReason(finish: string | null): string | null {
  if (finish === "length") return "max_output_tokens";
  if (finish === "content_filter") return "content_filter";
  return null;
}

export function responseId(chatId: string): string {
  return chatId.startsWith("resp_") ? chatId : nativeId("resp_");
}

export const reasoningItem = (id: string, text: string) => ({ id, type: "reasoning", summary: text ? [{ type: "summary_text", text }] : [] });

export const textPart = (text: string) => ({ type: "output_text", text, annotations: [], logprobs: [] });

export const messageItem = (id: string, status: "in_progress" | "completed", text: string | undefined) => ({
  id,
  type: "message",
  status,
  role: "assistant",
  content: text === undefined ? [] : [textPart(text)],
});

export const functionCallItem = (id: string, status: "in_progress" | "completed", tool: ChatToolCall) => ({
  id,
  type: "function_call",
  status,
  arguments: tool.arguments,
  call_id: tool.id,
  name: tool.name,
});

/** The `response` object, with the request's settings echoed. */
export function responseEnvelope(
  head: ResponseHead,
  request: Record<string, any>,
  state: { status: ResponseStatus; output: unknown[]; usage: Usage | null; incomplete?: string | null; error?: { code: string; message: string } | null },
): Record<string, unknown> {
  return {
    id: head.id,
    object: "response",
    created_at: head.createdAt,
    status: state.status,
    ...(state.status === "completed" || state.status === "incomplete" ? { completed_at: Math.floor(Date.now() / 1000) } : {}),
    error: state.error ?? null,
    incomplete_details: state.incomplete ? { reason: state.incomplete } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: head.model,
    output: state.output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    store: false,
    temperature: request.temperature ?? 1,
    text: request.text ?? { format: { type: "text" } },
    tool_choice: request.tool_choice ?? "auto",
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: "disabled",
    usage: state.usage ? responsesUsage(state.usage) : null,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

export function responseObject(answer: ChatAnswer, call: NativeCall, usage: Usage): Record<string, unknown> {
  const choice = answer.choices[0];
  const output: unknown[] = [];
  if (choice?.reasoning) output.push(reasoningItem(nativeId("rs_"), choice.reasoning));
  if (choice?.content || !choice?.toolCalls.length) output.push(messageItem(nativeId("msg_"), "completed", choice?.content ?? ""));
  for (const tool of choice?.toolCalls ?? []) output.push(functionCallItem(nativeId("fc_"), "completed", tool));
  const incomplete = incompleteReason(choice?.finish ?? null);
  const head = { id: responseId(answer.id), createdAt: answer.created, model: answer.model || call.model };
  return responseEnvelope(head, call.request, { status: incomplete ? "incomplete" : "completed", output, usage, incomplete });
}
