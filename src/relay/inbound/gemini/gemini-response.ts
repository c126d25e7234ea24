// An OpenAI chat answer as a Gemini GenerateContentResponse: one candidate per choice, its parts
// the thought summary (only when the request asked for thoughts, as Gemini does), the text and
// the function calls; finish reasons and usage in Gemini's terms (candidatesTokenCount excludes
// the thoughts, which thoughtsTokenCount reports).
import type { Usage } from "../../providers/adaptor.ts";
import { argumentsObject, type ChatAnswer, type ChatToolCall } from "../chat-answer.ts";
import { nativeId, type NativeCall } from "../inbound-codec.ts";
import { field } from "./gemini-fields.ts";

export function geminiFinishReason(finish: string | null): string {
  switch (finish) {
    case "length":
      return "MAX_TOKENS";
    case "content_filter":
      return "SAFETY";
    default:
      return "STOP";
  }
}

export function geminiUsage(usage: Usage): Record<string, number> {
  const thoughts = usage.reasoning_tokens ?? 0;
  const metadata: Record<string, number> = {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: Math.max(0, usage.completion_tokens - thoughts),
    totalTokenCount: usage.prompt_tokens + usage.completion_tokens,
  };
  if (thoughts) metadata.thoughtsTokenCount = thoughts;
  if (usage.cached_tokens) metadata.cachedContentTokenCount = usage.cached_tokens;
  return metadata;
}

/** The request asked to see thought summaries (generationConfig.thinkingConfig.includeThoughts). */
export function wantsThoughts(request: Record<string, unknown>): boolean {
  return field(field(field(request, "generationConfig"), "thinkingConfig"), "includeThoughts") === true;
}

export const functionCallPart = (tool: ChatToolCall) => ({ functionCall: { id: tool.id, name: tool.name, args: argumentsObject(tool.arguments) } });

export function geminiResponseId(chatId: string): string {
  return chatId || nativeId("");
}

export function geminiResponse(answer: ChatAnswer, call: NativeCall, usage: Usage): Record<string, unknown> {
  const thoughts = wantsThoughts(call.request);
  const candidates = answer.choices.map((choice) => {
    const parts: Record<string, unknown>[] = [];
    if (thoughts && choice.reasoning) parts.push({ text: choice.reasoning, thought: true });
    if (choice.content || choice.toolCalls.length === 0) parts.push({ text: choice.content });
    for (const tool of choice.toolCalls) parts.push(functionCallPart(tool));
    return { content: { role: "model", parts }, finishReason: geminiFinishReason(choice.finish), index: choice.index };
  });
  return { candidates, usageMetadata: geminiUsage(usage), modelVersion: answer.model || call.model, responseId: geminiResponseId(answer.id) };
}
