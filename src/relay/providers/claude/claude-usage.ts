// Claude's usage in our terms. Claude counts input in three parts: input_tokens (not cached),
// cache_creation_input_tokens (written to the cache) and cache_read_input_tokens (read from it);
// prompt_tokens is their sum, with the cached parts named so each is priced by its own ratio.
// output_tokens includes thinking. Counts from the upstream are not trusted blindly: anything
// not a non-negative number is 0.
import type { Usage } from "../adaptor.ts";
import type { ChatUsage } from "../openai-chat-wire.ts";
import { unverified } from "../unverified.ts";
import type { ClaudeUsage } from "./claude-wire.ts";

const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/** The running usage of a Claude answer: message_start gives the input, message_delta the output. */
export type ClaudeTokens = { input: number; cacheCreation: number; cacheRead: number; output: number };

export const noTokens = (): ClaudeTokens => ({ input: 0, cacheCreation: 0, cacheRead: 0, output: 0 });

/** Folds a usage object into the running counts; fields a report leaves out keep their value. */
export function addClaudeUsage(tokens: ClaudeTokens, raw: unknown): void {
  const usage = unverified<ClaudeUsage>(raw);
  if (!usage) return;
  if (usage.input_tokens !== undefined && usage.input_tokens !== null) tokens.input = count(usage.input_tokens);
  if (usage.cache_creation_input_tokens !== undefined && usage.cache_creation_input_tokens !== null)
    tokens.cacheCreation = count(usage.cache_creation_input_tokens);
  if (usage.cache_read_input_tokens !== undefined && usage.cache_read_input_tokens !== null)
    tokens.cacheRead = count(usage.cache_read_input_tokens);
  // message_delta's output_tokens is the running total, not an increment.
  if (usage.output_tokens !== undefined && usage.output_tokens !== null) tokens.output = count(usage.output_tokens);
}

/** Our usage from Claude's counts; null when nothing was reported. */
export function usageOfClaude(tokens: ClaudeTokens): Usage | null {
  const prompt = tokens.input + tokens.cacheCreation + tokens.cacheRead;
  if (prompt === 0 && tokens.output === 0) return null;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: tokens.output, total_tokens: prompt + tokens.output };
  if (tokens.cacheRead) usage.cached_tokens = tokens.cacheRead;
  if (tokens.cacheCreation) usage.cache_creation_tokens = tokens.cacheCreation;
  return usage;
}

export function claudeUsage(raw: unknown): Usage | null {
  const tokens = noTokens();
  addClaudeUsage(tokens, raw);
  return usageOfClaude(tokens);
}

/** The usage object of an OpenAI answer: cache reads as prompt_tokens_details.cached_tokens. */
export function openAIUsageBody(usage: Usage): ChatUsage {
  const body: ChatUsage = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
  };
  if (usage.cached_tokens || usage.cache_creation_tokens) {
    body.prompt_tokens_details = { cached_tokens: usage.cached_tokens ?? 0, cache_creation_tokens: usage.cache_creation_tokens ?? 0 };
  }
  return body;
}
