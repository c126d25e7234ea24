// Hunyuan's answers as OpenAI's. A whole answer is {Response: {Id, Choices: [{Message: {Content,
// ReasoningContent, ToolCalls}, FinishReason}], Usage: {PromptTokens, CompletionTokens}}}; a
// stream sends the same fields without the envelope, Choices[].Delta per event and the usage so
// far in every event (the last one counts), ending with a FinishReason. FinishReason is stop,
// tool_calls, or sensitive (the moderation stopped the answer: content_filter for OpenAI).
// Streamed tool calls are merged by Id (Tencent's words), so each Id gets an OpenAI index.
import type { Bytes, ConvertedResponse, RelayCall, SseEvent } from "../adaptor.ts";
import type { ToolCallDelta, VendorStep, VendorStreamReader } from "../vendor-format-helpers/chunk-stream.ts";
import { chatCompletion, embeddingList, failedAnswer, usageOf, type ToolCall } from "../vendor-format-helpers/whole-answer.ts";
import { tencentErrorOf } from "./hunyuan-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

type HunyuanToolCall = { Id?: string; Type?: string; Index?: number; Function?: { Name?: string; Arguments?: string } };
type HunyuanChoice = {
  FinishReason?: string;
  Message?: { Content?: string; ReasoningContent?: string; ToolCalls?: HunyuanToolCall[] };
  Delta?: { Content?: string; ReasoningContent?: string; ToolCalls?: HunyuanToolCall[] };
};
type HunyuanUsage = { PromptTokens?: number; CompletionTokens?: number; TotalTokens?: number };
type HunyuanResponse = { Id?: string; Choices?: HunyuanChoice[]; Usage?: HunyuanUsage; Data?: { Embedding?: number[]; Index?: number }[] };

const decoder = new TextDecoder();

export function finishReasonOf(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  if (reason === "sensitive") return "content_filter";
  if (reason === "tool_calls") return "tool_calls";
  return reason === "length" ? "length" : "stop";
}

const usage = (value: HunyuanUsage | undefined) => usageOf(value?.PromptTokens, value?.CompletionTokens, value?.TotalTokens);

const unreadable = () => failedAnswer({ message: "unreadable answer", type: "upstream_error", code: "bad_response_body", param: null });

export function convertHunyuanResponse(call: RelayCall, bytes: Bytes): ConvertedResponse {
  const parsed = jsonOrUndefined(decoder.decode(bytes)) as { Response?: HunyuanResponse } | undefined;
  const error = tencentErrorOf(parsed);
  if (error) return failedAnswer(error);
  const response = parsed?.Response;
  if (!response) return unreadable();
  if (call.endpoint === "embeddings") {
    if (!Array.isArray(response.Data)) return unreadable();
    const ordered = [...response.Data].sort((a, b) => (a.Index ?? 0) - (b.Index ?? 0));
    return embeddingList(
      call,
      ordered.map((item) => item.Embedding ?? []),
      usage(response.Usage),
    );
  }
  const choice = response.Choices?.[0];
  if (!choice) return unreadable();
  const toolCalls: ToolCall[] = (choice.Message?.ToolCalls ?? []).map((tool, index) => ({
    id: tool.Id ?? `call_${index}`,
    type: "function",
    function: { name: tool.Function?.Name ?? "", arguments: tool.Function?.Arguments ?? "" },
  }));
  return chatCompletion({
    model: call.model,
    id: response.Id,
    content: choice.Message?.Content ?? "",
    reasoning: choice.Message?.ReasoningContent,
    toolCalls,
    finishReason: finishReasonOf(choice.FinishReason) ?? (toolCalls.length ? "tool_calls" : "stop"),
    usage: usage(response.Usage),
  });
}

/** A reader of one stream's events (its state: the OpenAI index of each tool call Id). */
export function hunyuanStreamReader(): VendorStreamReader {
  const indexOfId = new Map<string, number>();
  return (event: SseEvent): VendorStep | undefined => {
    if (event.data === "" || event.data === "[DONE]") return undefined;
    const parsed = jsonOrUndefined(event.data) as HunyuanResponse | undefined;
    if (!parsed) return undefined;
    const error = tencentErrorOf(parsed);
    if (error) return { error };
    const choice = parsed.Choices?.[0];
    const step: VendorStep = { usage: usage(parsed.Usage) };
    const delta = choice?.Delta;
    if (delta) {
      const tools: ToolCallDelta[] = [];
      for (const tool of delta.ToolCalls ?? []) {
        const id = tool.Id ?? `call_${tool.Index ?? 0}`;
        const known = indexOfId.get(id);
        const index = known ?? indexOfId.size;
        if (known === undefined) {
          indexOfId.set(id, index);
          tools.push({
            index,
            id,
            type: "function",
            function: { name: tool.Function?.Name ?? "", arguments: tool.Function?.Arguments ?? "" },
          });
        } else tools.push({ index, function: { arguments: tool.Function?.Arguments ?? "" } });
      }
      step.delta = { content: delta.Content, reasoning_content: delta.ReasoningContent, tool_calls: tools };
    }
    step.finishReason = finishReasonOf(choice?.FinishReason);
    return step;
  };
}
