// Gemini's usageMetadata as our Usage. Thoughts are generated tokens billed as output, so they
// count as completion tokens (and are reported as reasoning tokens too); tokens of tool-use
// prompts (search results fed back to the model) count as prompt tokens; the cached part of the
// prompt is reported as cached tokens. Missing or broken counts are 0, and all zero is no usage.
import type { Usage } from "../adaptor.ts";
import type { ChatUsage } from "../openai-chat-wire.ts";
import { unverified } from "../unverified.ts";
import type { GeminiUsageMetadata } from "./gemini-wire.ts";

const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

export function usageOfMetadata(raw: unknown): Usage | null {
  const metadata = unverified<GeminiUsageMetadata>(raw);
  if (!metadata) return null;
  const prompt = count(metadata.promptTokenCount) + count(metadata.toolUsePromptTokenCount);
  const thoughts = count(metadata.thoughtsTokenCount);
  const completion = count(metadata.candidatesTokenCount) + thoughts;
  if (prompt === 0 && completion === 0) return null;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (thoughts) usage.reasoning_tokens = thoughts;
  const cached = count(metadata.cachedContentTokenCount);
  if (cached) usage.cached_tokens = cached;
  return usage;
}

/** Usage in the OpenAI wire shape, details included when known. */
export function openAIUsage(usage: Usage): ChatUsage {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    ...(usage.cached_tokens ? { prompt_tokens_details: { cached_tokens: usage.cached_tokens } } : {}),
    ...(usage.reasoning_tokens ? { completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens } } : {}),
  };
}

/**
 * Usage of a stream read so far. Gemini's running usageMetadata is final only on the event that
 * finishes the answer; a stream cut before it is billed for at least what was generated (counted
 * locally), with the prompt as Gemini counted it.
 */
export function streamUsage(reported: Usage | null, finished: boolean, generatedTokens: () => number): Usage | null {
  if (!reported || finished) return reported;
  const completion = Math.max(reported.completion_tokens, generatedTokens());
  return { ...reported, completion_tokens: completion, total_tokens: reported.prompt_tokens + completion };
}
