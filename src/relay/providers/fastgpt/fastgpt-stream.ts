// FastGPT's stream in its OpenAI-compatible form (detail off): chat.completion.chunk deltas and
// [DONE], or `event: error` with its {code, statusText, message}. The chunks are re-sent as the
// relay's own OpenAI chunks so that no usage numbers of FastGPT's reach the client: the usage
// chunk a client asks for is the relay's local count, the same figures it bills.
import type { SseEvent } from "../adaptor.ts";
import type { ToolCallDelta, VendorStep } from "../vendor-format-helpers/chunk-stream.ts";
import { fastgptError } from "./fastgpt-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

type Chunk = {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
};

export function readFastgptEvent(event: SseEvent): VendorStep | undefined {
  if (event.event === "error")
    return {
      error: fastgptError(jsonOrUndefined(event.data), 500) ?? {
        message: event.data || "error",
        type: "upstream_error",
        code: null,
        param: null,
        status: 500,
      },
    };
  if (event.data === "[DONE]") return { end: true };
  const chunk = jsonOrUndefined(event.data) as Chunk | undefined;
  const choice = chunk?.choices?.[0];
  if (!choice) return undefined;
  const tools: ToolCallDelta[] = (choice.delta?.tool_calls ?? []).map((tool, position) => ({
    index: tool.index ?? position,
    ...(tool.id ? { id: tool.id, type: "function" as const } : {}),
    function: { ...(tool.function?.name ? { name: tool.function.name } : {}), arguments: tool.function?.arguments ?? "" },
  }));
  return {
    delta: {
      content: choice.delta?.content ?? undefined,
      reasoning_content: choice.delta?.reasoning_content ?? undefined,
      tool_calls: tools,
    },
    finishReason: choice.finish_reason ?? undefined,
  };
}
