// A whole Gemini answer (GenerateContentResponse) as an OpenAI chat.completion, with usage from
// usageMetadata. A 200 without candidates whose prompt was blocked is reported as an error.
import type { Bytes, ConvertedResponse, GeneratedOutput, RelayCall } from "../adaptor.ts";
import { finishReasonOf, outputOfCandidate, type Candidate } from "./gemini-candidates.ts";
import { blockedPromptOf, rpcErrorOf } from "./gemini-errors.ts";
import { openAIUsage, usageOfMetadata } from "./gemini-usage.ts";

export type GenerateContentResponse = { candidates?: Candidate[]; usageMetadata?: unknown; responseId?: string; modelVersion?: string };

const decoder = new TextDecoder();

export const completionId = (responseId: unknown) =>
  `chatcmpl-${typeof responseId === "string" && responseId ? responseId : crypto.randomUUID().replaceAll("-", "")}`;

/** The chat.completion body for a parsed GenerateContentResponse. */
export function chatCompletionOf(answer: GenerateContentResponse, model: string): { body: Record<string, unknown>; output: GeneratedOutput } {
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  const choices = (answer.candidates ?? []).map((candidate, position) => {
    const read = outputOfCandidate(candidate);
    output.text += read.text + read.reasoning + read.toolCalls.map((call) => call.function.name + call.function.arguments).join("");
    output.toolCalls += read.toolCalls.length;
    return {
      index: candidate.index ?? position,
      message: {
        role: "assistant",
        content: read.text === "" && read.toolCalls.length ? null : read.text,
        ...(read.reasoning ? { reasoning_content: read.reasoning } : {}),
        ...(read.toolCalls.length ? { tool_calls: read.toolCalls } : {}),
      },
      finish_reason: finishReasonOf(candidate.finishReason, read.toolCalls.length > 0) ?? "stop",
    };
  });
  const usage = usageOfMetadata(answer.usageMetadata);
  const body = {
    id: completionId(answer.responseId),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices,
    ...(usage ? { usage: openAIUsage(usage) } : {}),
  };
  return { body, output };
}

export function convertGeminiChat(call: RelayCall, bytes: Bytes): ConvertedResponse {
  let answer: GenerateContentResponse;
  try {
    answer = JSON.parse(decoder.decode(bytes));
  } catch {
    return unreadable();
  }
  const error = rpcErrorOf(answer) ?? blockedPromptOf(answer);
  if (error) return { body: bytes, contentType: "application/json", usage: null, output: () => ({ text: "", toolCalls: 0 }), error };
  const { body, output } = chatCompletionOf(answer, call.upstreamModel);
  return { body: JSON.stringify(body), contentType: "application/json", usage: usageOfMetadata(answer.usageMetadata), output: () => output };
}

export function unreadable(): ConvertedResponse {
  const error = { message: "the upstream answered with a body that is not JSON", type: "upstream_error", code: "bad_response_body", param: null };
  return { body: "", contentType: "application/json", usage: null, output: () => ({ text: "", toolCalls: 0 }), error };
}
