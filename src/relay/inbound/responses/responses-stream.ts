// OpenAI chat chunks as the Responses API's typed event stream: response.created and
// response.in_progress, then per output item output_item.added … its deltas … output_item.done
// (reasoning: reasoning_summary_part/_text events; text: content_part.added, output_text.delta,
// output_text.done, content_part.done; function calls: function_call_arguments.delta/.done;
// custom tools: custom_tool_call_input.delta/.done once the input is whole; tool searches: the
// item alone), and response.completed (or response.incomplete) with the whole response and its
// usage. Vendor state for the next turn (reasoning-state.ts) joins the open reasoning item's
// encrypted_content, or comes as a reasoning item of its own when none is open. Every event
// carries its sequence_number; the stream has no [DONE].
import type { StreamBreak, Usage } from "../../providers/adaptor.ts";
import type { ChatChunk, AnswerToolCall } from "../chat-answer.ts";
import { namedEvent, nativeId, type ChunkTranslator, type NativeCall, type ToolName } from "../inbound-codec.ts";
import { mergeReasoning, reasoningOfChat, type ReasoningState } from "../reasoning-state.ts";
import {
  customInput,
  incompleteReason,
  meaningOf,
  messageItem,
  reasoningItem,
  responseEnvelope,
  responseId,
  textPart,
  toolCallItem,
  toolItemPrefix,
  type ResponseHead,
  type ResponseStatus,
} from "./responses-response.ts";

type OpenItem = {
  kind: "reasoning" | "message" | "tool";
  id: string;
  index: number;
  text: string;
  toolKey?: number;
  tool?: AnswerToolCall;
  meaning?: ToolName;
  state?: ReasoningState;
};

export function responsesStreamTranslator(call: NativeCall): ChunkTranslator {
  let sequence = 0;
  let head: ResponseHead | undefined;
  let item: OpenItem | undefined;
  const output: unknown[] = [];
  let finish: string | null = null;

  const event = (type: string, payload: Record<string, unknown>) => namedEvent(type, { type, sequence_number: sequence++, ...payload });

  const envelope = (
    status: ResponseStatus,
    usage: Usage | null,
    extra: { incomplete?: string | null; error?: { code: string; message: string } } = {},
  ) => responseEnvelope(head!, call.request, { status, output: status === "in_progress" ? [] : output, usage, ...extra });

  const start = (chunk: ChatChunk | undefined): string[] => {
    if (head) return [];
    head = {
      id: responseId(chunk?.id ?? ""),
      createdAt: chunk?.created ?? Math.floor(Date.now() / 1000),
      model: chunk?.model || call.model,
    };
    const response = envelope("in_progress", null);
    return [event("response.created", { response }), event("response.in_progress", { response })];
  };

  const close = (): string[] => {
    const open = item;
    if (!open) return [];
    item = undefined;
    const at = { item_id: open.id, output_index: open.index };
    let done: Record<string, unknown>;
    const events: string[] = [];
    if (open.kind === "reasoning") {
      const part = { type: "summary_text", text: open.text };
      if (open.text) {
        events.push(event("response.reasoning_summary_text.done", { ...at, summary_index: 0, text: open.text }));
        events.push(event("response.reasoning_summary_part.done", { ...at, summary_index: 0, part }));
      }
      done = reasoningItem(open.id, open.text, open.state);
    } else if (open.kind === "message") {
      events.push(event("response.output_text.done", { ...at, content_index: 0, text: open.text, logprobs: [] }));
      events.push(event("response.content_part.done", { ...at, content_index: 0, part: textPart(open.text) }));
      done = messageItem(open.id, "completed", open.text);
    } else {
      const tool = { ...open.tool!, arguments: open.text };
      const meaning = open.meaning!;
      if (meaning.kind === "custom") {
        const input = customInput(tool.arguments);
        events.push(event("response.custom_tool_call_input.delta", { ...at, delta: input }));
        events.push(event("response.custom_tool_call_input.done", { ...at, input }));
      } else if (meaning.kind === "function") {
        events.push(event("response.function_call_arguments.done", { ...at, name: meaning.name, arguments: tool.arguments }));
      }
      done = toolCallItem(open.id, "completed", tool, meaning);
    }
    output.push(done);
    events.push(event("response.output_item.done", { output_index: open.index, item: done }));
    return events;
  };

  const open = (kind: OpenItem["kind"], prefix: string, tool?: AnswerToolCall, toolKey?: number, summary = true): string[] => {
    const events = close();
    const meaning = tool ? meaningOf(tool, call.toolNames) : undefined;
    const id = nativeId(meaning ? toolItemPrefix(meaning) : prefix);
    item = { kind, id, index: output.length, text: "", tool, toolKey, meaning };
    const at = { item_id: item.id, output_index: item.index };
    if (kind === "reasoning") {
      events.push(event("response.output_item.added", { output_index: item.index, item: reasoningItem(item.id, "") }));
      if (summary)
        events.push(event("response.reasoning_summary_part.added", { ...at, summary_index: 0, part: { type: "summary_text", text: "" } }));
    } else if (kind === "message") {
      events.push(event("response.output_item.added", { output_index: item.index, item: messageItem(item.id, "in_progress", undefined) }));
      events.push(event("response.content_part.added", { ...at, content_index: 0, part: textPart("") }));
    } else {
      events.push(
        event("response.output_item.added", {
          output_index: item.index,
          item: toolCallItem(item.id, "in_progress", { ...tool!, arguments: "" }, meaning!),
        }),
      );
    }
    return events;
  };

  /** Vendor state for the next turn: it joins the open reasoning item, or comes as one of its own. */
  const keepState = (state: ReasoningState | undefined): string[] => {
    if (!state) return [];
    if (item?.kind === "reasoning") {
      item.state = mergeReasoning(item.state, state);
      return [];
    }
    const events = open("reasoning", "rs_", undefined, undefined, false);
    item!.state = state;
    return [...events, ...close()];
  };

  return {
    chunk(chunk) {
      const events = start(chunk);
      const choice = chunk.choices?.find((entry) => (entry.index ?? 0) === 0);
      if (!choice) return events;
      const piece = choice.delta ?? {};
      const reasoning =
        typeof piece.reasoning_content === "string" ? piece.reasoning_content : typeof piece.reasoning === "string" ? piece.reasoning : "";
      if (reasoning) {
        if (item?.kind !== "reasoning") events.push(...open("reasoning", "rs_"));
        item!.text += reasoning;
        events.push(
          event("response.reasoning_summary_text.delta", {
            item_id: item!.id,
            output_index: item!.index,
            summary_index: 0,
            delta: reasoning,
          }),
        );
      }
      events.push(...keepState(reasoningOfChat(piece)));
      if (typeof piece.content === "string" && piece.content !== "") {
        if (item?.kind !== "message") events.push(...open("message", "msg_"));
        item!.text += piece.content;
        events.push(
          event("response.output_text.delta", {
            item_id: item!.id,
            output_index: item!.index,
            content_index: 0,
            delta: piece.content,
            logprobs: [],
          }),
        );
      }
      for (const call of piece.tool_calls ?? []) {
        const key = call.index ?? 0;
        if (item?.kind !== "tool" || item.toolKey !== key) {
          const tool = { id: call.id || nativeId("call_"), name: call.function?.name ?? "", arguments: "" };
          events.push(...open("tool", "fc_", tool, key));
        }
        const partial = call.function?.arguments;
        if (typeof partial === "string" && partial !== "") {
          item!.text += partial;
          // Custom tools' input and tool searches' arguments are sent whole, when the item ends.
          if (item!.meaning?.kind === "function") {
            events.push(event("response.function_call_arguments.delta", { item_id: item!.id, output_index: item!.index, delta: partial }));
          }
        }
      }
      if (choice.finish_reason) finish = choice.finish_reason;
      return events;
    },
    end(usage) {
      const events = [...start(undefined), ...close()];
      const incomplete = incompleteReason(finish);
      const status = incomplete ? "incomplete" : "completed";
      events.push(event(`response.${status}`, { response: envelope(status, usage, { incomplete }) }));
      return events;
    },
    fail(error: StreamBreak) {
      const events = start(undefined);
      const code = typeof error.code === "string" ? error.code : error.type || "server_error";
      events.push(event("response.failed", { response: envelope("failed", null, { error: { code, message: error.message } }) }));
      return events;
    },
  };
}
