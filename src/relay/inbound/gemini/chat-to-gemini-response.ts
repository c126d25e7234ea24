// An OpenAI chat answer as a Gemini GenerateContentResponse: one candidate per choice, its parts
// the thought summary (only when the request asked for thoughts, as Gemini does), the text and
// the function calls, signed with the state the next turn needs (signParts); finish reasons and usage in Gemini's terms (candidatesTokenCount excludes
// the thoughts, which thoughtsTokenCount reports).
import type { Usage } from "../../providers/adaptor.ts";
import { argumentsObject, type ChatAnswer, type AnswerToolCall } from "../chat-answer.ts";
import { nativeId, type NativeCall } from "../inbound-codec.ts";
import { encodeReasoning, isEmptyReasoning, type ReasoningState } from "../reasoning-state.ts";
import { field } from "./gemini-fields.ts";
import type {
  GeminiCandidate,
  GeminiFinishReason,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiRequest,
  GeminiResponse,
  GeminiThinkingConfig,
  GeminiUsageMetadata,
} from "../../providers/gemini/gemini-wire.ts";

type Part = GeminiPart;

/**
 * Signatures on an answer's parts, where Gemini puts them: Google's own on their function call
 * (and on the last part for text); another vendor's state, encoded by the gateway
 * (reasoning-state.ts), on the first function call, else on the last part, so a client that
 * gives its calls back as received gives that state back too.
 */
export function signParts(parts: Part[], calls: AnswerToolCall[], state: ReasoningState | undefined): Part[] {
  if (isEmptyReasoning(state)) return parts;
  const google = state!.google;
  const foreign: ReasoningState | undefined = state!.anthropic ? { anthropic: state!.anthropic } : undefined;
  const callParts = parts.filter((part) => "functionCall" in part);
  calls.forEach((call, index) => {
    const signature = google?.calls?.[call.id];
    if (signature && callParts[index]) callParts[index]!.thoughtSignature = signature;
  });
  if (google?.thought_signature && !callParts.length) {
    if (parts.length === 0) parts.push({ text: "" });
    parts[parts.length - 1]!.thoughtSignature = google.thought_signature;
  }
  if (foreign) {
    const host = callParts[0] ?? parts[parts.length - 1] ?? (parts.push({ text: "" }), parts[0]!);
    if (!host.thoughtSignature) host.thoughtSignature = encodeReasoning(foreign);
  }
  return parts;
}

export function geminiFinishReason(finish: string | null): GeminiFinishReason {
  switch (finish) {
    case "length":
      return "MAX_TOKENS";
    case "content_filter":
      return "SAFETY";
    default:
      return "STOP";
  }
}

export function geminiUsage(usage: Usage): GeminiUsageMetadata {
  const thoughts = usage.reasoning_tokens ?? 0;
  const metadata: GeminiUsageMetadata = {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: Math.max(0, usage.completion_tokens - thoughts),
    totalTokenCount: usage.prompt_tokens + usage.completion_tokens,
  };
  if (thoughts) metadata.thoughtsTokenCount = thoughts;
  if (usage.cached_tokens) metadata.cachedContentTokenCount = usage.cached_tokens;
  return metadata;
}

/** The request asked to see thought summaries (generationConfig.thinkingConfig.includeThoughts). */
export function wantsThoughts(request: unknown): boolean {
  const config = field<GeminiRequest>(request, "generationConfig");
  return field<GeminiThinkingConfig>(field<GeminiGenerationConfig>(config, "thinkingConfig"), "includeThoughts") === true;
}

export const functionCallPart = (tool: AnswerToolCall): GeminiPart => ({
  functionCall: { id: tool.id, name: tool.name, args: argumentsObject(tool.arguments) },
});

export function geminiResponseId(chatId: string): string {
  return chatId || nativeId("");
}

export function geminiResponse(answer: ChatAnswer, call: NativeCall, usage: Usage): GeminiResponse {
  const thoughts = wantsThoughts(call.request);
  const candidates = answer.choices.map((choice): GeminiCandidate => {
    const parts: GeminiPart[] = [];
    if (thoughts && choice.reasoning) parts.push({ text: choice.reasoning, thought: true });
    if (choice.content || choice.toolCalls.length === 0) parts.push({ text: choice.content });
    for (const tool of choice.toolCalls) parts.push(functionCallPart(tool));
    signParts(parts, choice.toolCalls, choice.state);
    return { content: { role: "model", parts }, finishReason: geminiFinishReason(choice.finish), index: choice.index };
  });
  return {
    candidates,
    usageMetadata: geminiUsage(usage),
    modelVersion: answer.model || call.model,
    responseId: geminiResponseId(answer.id),
  };
}
