// An OpenAI chat answer as a Responses API `response` object: reasoning as a reasoning item with
// its summary text (and the vendor's state for the next turn in encrypted_content), the text as
// a message item with one output_text part, each tool call as the item its tool stands for
// (function_call, custom_tool_call, tool_search_call); a length or content-filter finish makes
// the response `incomplete`. The
// request's settings are echoed as the Responses API does (`store` and previous_response_id as
// the gateway keeps them: responses-state.ts). The same envelope serves the stream's
// created/completed events.
import type { Usage } from "../../providers/adaptor.ts";
import { argumentsObject, type ChatAnswer, type AnswerToolCall } from "../chat-answer.ts";
import { nativeId, type NativeCall, type ToolName } from "../inbound-codec.ts";
import { encodeReasoning, isEmptyReasoning, type ReasoningState } from "../reasoning-state.ts";

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

export type ResponseHead = { id: string; createdAt: number; model: string };

function responsesUsage(usage: Usage) {
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

/** A reasoning item; the vendor state the next turn needs rides in encrypted_content (reasoning-state.ts). */
export const reasoningItem = (id: string, text: string, state?: ReasoningState) => ({
  id,
  type: "reasoning",
  summary: text ? [{ type: "summary_text", text }] : [],
  ...(isEmptyReasoning(state) ? {} : { encrypted_content: encodeReasoning(state!) }),
});

export const textPart = (text: string) => ({ type: "output_text", text, annotations: [], logprobs: [] });

export const messageItem = (id: string, status: "in_progress" | "completed", text: string | undefined) => ({
  id,
  type: "message",
  status,
  role: "assistant",
  content: text === undefined ? [] : [textPart(text)],
});

/** What a chat tool call stands for in the client's request (responses-tools.ts). */
export function meaningOf(tool: Pick<AnswerToolCall, "name">, names: ReadonlyMap<string, ToolName> | undefined): ToolName {
  return names?.get(tool.name) ?? { kind: "function", name: tool.name };
}

/** The id prefix of the item a tool call becomes. */
export function toolItemPrefix(meaning: ToolName): string {
  return meaning.kind === "custom" ? "ctc_" : meaning.kind === "tool_search" ? "tsc_" : "fc_";
}

/** The freeform input of a custom tool's call: the `input` string of its arguments. */
export function customInput(args: string): string {
  const input = argumentsObject(args).input;
  return typeof input === "string" ? input : args;
}

/**
 * A chat tool call as the item the client's tool stands for: function_call (with its namespace),
 * custom_tool_call, or tool_search_call.
 */
export function toolCallItem(id: string, status: "in_progress" | "completed", tool: AnswerToolCall, meaning: ToolName) {
  if (meaning.kind === "custom") {
    return {
      id,
      type: "custom_tool_call",
      status,
      call_id: tool.id,
      name: meaning.name,
      input: customInput(tool.arguments),
      ...(meaning.namespace ? { namespace: meaning.namespace } : {}),
    };
  }
  if (meaning.kind === "tool_search") {
    return { id, type: "tool_search_call", status, call_id: tool.id, execution: "client", arguments: argumentsObject(tool.arguments) };
  }
  return {
    id,
    type: "function_call",
    status,
    arguments: tool.arguments,
    call_id: tool.id,
    name: meaning.name,
    ...(meaning.namespace ? { namespace: meaning.namespace } : {}),
  };
}

/** The `response` object, with the request's settings echoed. */
export function responseEnvelope(
  head: ResponseHead,
  request: Record<string, any>,
  state: {
    status: ResponseStatus;
    output: unknown[];
    usage: Usage | null;
    incomplete?: string | null;
    error?: { code: string; message: string } | null;
  },
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
    previous_response_id: typeof request.previous_response_id === "string" ? request.previous_response_id : null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    // The keeper (response-keeper.ts) writes it when the client asked and the operator keeps responses.
    store: request.store === true,
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
  if (choice?.reasoning || !isEmptyReasoning(choice?.state))
    output.push(reasoningItem(nativeId("rs_"), choice?.reasoning ?? "", choice?.state));
  if (choice?.content || !choice?.toolCalls.length) output.push(messageItem(nativeId("msg_"), "completed", choice?.content ?? ""));
  for (const tool of choice?.toolCalls ?? []) {
    const meaning = meaningOf(tool, call.toolNames);
    output.push(toolCallItem(nativeId(toolItemPrefix(meaning)), "completed", tool, meaning));
  }
  const incomplete = incompleteReason(choice?.finish ?? null);
  const head = { id: responseId(answer.id), createdAt: answer.created, model: answer.model || call.model };
  return responseEnvelope(head, call.request, { status: incomplete ? "incomplete" : "completed", output, usage, incomplete });
}
