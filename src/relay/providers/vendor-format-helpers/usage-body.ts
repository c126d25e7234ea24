// Our usage as OpenAI's wire shape, for answers converted from another vendor's format: cache
// reads (and Claude-style cache writes) as prompt_tokens_details, reasoning as
// completion_tokens_details. The flat Usage fields are ours (billing reads them); a client's
// SDK reads only OpenAI's names.
import type { Usage } from "../adaptor.ts";

export function openAIUsageBody(usage: Usage): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
  };
  if (usage.cached_tokens || usage.cache_creation_tokens) {
    body.prompt_tokens_details = {
      cached_tokens: usage.cached_tokens ?? 0,
      ...(usage.cache_creation_tokens ? { cache_creation_tokens: usage.cache_creation_tokens } : {}),
    };
  }
  if (usage.reasoning_tokens) body.completion_tokens_details = { reasoning_tokens: usage.reasoning_tokens };
  return body;
}
