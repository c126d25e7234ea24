// A whole Gemini answer (GenerateContentResponse) as an OpenAI chat.completion, with usage from
// usageMetadata. A 200 without candidates whose prompt was blocked is reported as an error.
import type { Bytes, ConvertedResponse, GeneratedOutput, RelayCall } from "../adaptor.ts";
import { finishReasonOf, outputOfCandidate } from "./gemini-candidates.ts";
import { blockedPromptOf, rpcErrorOf } from "./gemini-to-chat-errors.ts";
import { openAIUsage, usageOfMetadata } from "./gemini-usage.ts";
import type { ChatCompletion, ChatMessage } from "../openai-chat-wire.ts";
import { unverified, unverifiedList, type Unverified } from "../unverified.ts";
import type { GeminiCandidate, GeminiResponse } from "./gemini-wire.ts";

/** An upstream's answer (or stream event), read before it is checked. */
export type GeminiAnswer = Unverified<GeminiResponse>;

const decoder = new TextDecoder();

export const completionId = (responseId: unknown) =>
  `chatcmpl-${typeof responseId === "string" && responseId ? responseId : crypto.randomUUID().replaceAll("-", "")}`;

/** The chat.completion body for a parsed GenerateContentResponse. */
function chatCompletionOf(answer: GeminiAnswer, model: string): { body: ChatCompletion; output: GeneratedOutput } {
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  const choices = unverifiedList<GeminiCandidate>(answer.candidates).map((candidate, position) => {
    const read = outputOfCandidate(candidate);
    output.text += read.text + read.reasoning + read.toolCalls.map((call) => call.function.name + call.function.arguments).join("");
    output.toolCalls += read.toolCalls.length;
    const message: ChatMessage = {
      role: "assistant",
      content: read.text === "" && read.toolCalls.length ? null : read.text,
      ...(read.reasoning ? { reasoning_content: read.reasoning } : {}),
      ...(read.toolCalls.length ? { tool_calls: read.toolCalls } : {}),
      ...(read.signature ? { extra_content: { google: { thought_signature: read.signature } } } : {}),
    };
    return {
      index: typeof candidate.index === "number" ? candidate.index : position,
      message,
      finish_reason: finishReasonOf(candidate.finishReason, read.toolCalls.length > 0) ?? "stop",
    };
  });
  const usage = usageOfMetadata(answer.usageMetadata);
  const body: ChatCompletion = {
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(bytes));
  } catch {
    return unreadable();
  }
  // (A JSON value that is not an object holds no answer: nothing to read, like an empty one.)
  const answer = unverified<GeminiResponse>(parsed) ?? {};
  const error = rpcErrorOf(parsed) ?? blockedPromptOf(parsed);
  if (error) return { body: bytes, contentType: "application/json", usage: null, output: () => ({ text: "", toolCalls: 0 }), error };
  const { body, output } = chatCompletionOf(answer, call.upstreamModel);
  return {
    body: JSON.stringify(body),
    contentType: "application/json",
    usage: usageOfMetadata(answer.usageMetadata),
    output: () => output,
  };
}

export function unreadable(): ConvertedResponse {
  const error = {
    message: "the upstream answered with a body that is not JSON",
    type: "upstream_error",
    code: "bad_response_body",
    param: null,
  };
  return { body: "", contentType: "application/json", usage: null, output: () => ({ text: "", toolCalls: 0 }), error };
}
