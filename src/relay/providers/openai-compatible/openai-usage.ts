// Usage in OpenAI-style answers, normalised to integers. The upstream is not trusted: missing,
// partial, negative or non-numeric counts become 0, and an all-zero usage counts as none (the
// caller then counts locally).
import type { GeneratedOutput, Usage } from "../adaptor.ts";

const count = (value: unknown): number => {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  return Number.isFinite(number) && number > 0 ? Math.round(number) : 0;
};

type RawUsage = Record<string, unknown> & {
  prompt_tokens_details?: Record<string, unknown> | null;
  completion_tokens_details?: Record<string, unknown> | null;
  /** The Responses API's names for the same details. */
  input_tokens_details?: Record<string, unknown> | null;
  output_tokens_details?: Record<string, unknown> | null;
};

export function normalizeUsage(raw: unknown): Usage | null {
  if (!raw || typeof raw !== "object") return null;
  const usage = raw as RawUsage;
  let prompt = count(usage.prompt_tokens ?? usage.input_tokens);
  const completion = count(usage.completion_tokens ?? usage.output_tokens);
  const total = count(usage.total_tokens);
  // Embedding and rerank vendors sometimes report only a total.
  if (prompt === 0 && completion === 0 && total > 0) prompt = total;
  if (prompt === 0 && completion === 0) return null;
  const result: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  const reasoning = count(usage.completion_tokens_details?.reasoning_tokens ?? usage.output_tokens_details?.reasoning_tokens);
  const cached = count(usage.prompt_tokens_details?.cached_tokens ?? usage.input_tokens_details?.cached_tokens);
  if (reasoning) result.reasoning_tokens = reasoning;
  if (cached) result.cached_tokens = cached;
  return result;
}

/** The object literal starting at `start` ("{"), found by brace matching outside strings. */
function objectAt(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text.charCodeAt(index);
    if (inString) {
      if (character === 92 /* \ */) index++;
      else if (character === 34 /* " */) inString = false;
    } else if (character === 34) inString = true;
    else if (character === 123 /* { */) depth++;
    else if (character === 125 /* } */ && --depth === 0) return text.slice(start, index + 1);
  }
  return undefined;
}

/**
 * The usage object of a JSON answer without parsing the whole answer: OpenAI-style bodies put
 * `"usage"` last, and a large embedding answer should not be decoded just to read four numbers.
 * Returns undefined when the fast path cannot tell (the caller parses the whole body).
 */
export function findUsageQuickly(text: string): Usage | null | undefined {
  const at = text.lastIndexOf('"usage"');
  if (at < 0) return undefined;
  let index = at + 7;
  while (index < text.length && (text[index] === " " || text[index] === "\n" || text[index] === "\r" || text[index] === "\t")) index++;
  if (text[index] !== ":") return undefined;
  index++;
  while (index < text.length && (text[index] === " " || text[index] === "\n" || text[index] === "\r" || text[index] === "\t")) index++;
  if (text.startsWith("null", index)) return null;
  if (text[index] !== "{") return undefined;
  const literal = objectAt(text, index);
  if (!literal) return undefined;
  try {
    return normalizeUsage(JSON.parse(literal));
  } catch {
    return undefined;
  }
}

/** Usage of a parsed answer, including the rerank vendors' `meta` forms. */
export function usageOfBody(body: unknown): Usage | null {
  if (!body || typeof body !== "object") return null;
  const record = body as Record<string, any>;
  const direct = normalizeUsage(record.usage);
  if (direct) return direct;
  const tokens = record.meta?.tokens; // SiliconCloud rerank
  if (tokens) return normalizeUsage({ prompt_tokens: tokens.input_tokens, completion_tokens: tokens.output_tokens });
  const billed = record.meta?.billed_units; // Cohere-style rerank
  if (billed) return normalizeUsage({ prompt_tokens: billed.input_tokens ?? billed.search_units, completion_tokens: billed.output_tokens });
  return null;
}

/** The text a chat or completion answer generated (for local counting), from a parsed body. */
export function outputOfBody(body: unknown): GeneratedOutput {
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) {
    const text = (body as { text?: unknown } | null)?.text; // transcriptions
    if (typeof text === "string") output.text = text;
    return output;
  }
  for (const choice of choices as Record<string, any>[]) {
    addMessage(output, choice?.message ?? choice?.delta);
    if (typeof choice?.text === "string") output.text += choice.text;
  }
  return output;
}

/** Adds a chat message or stream delta: content, reasoning, tool-call names and arguments. */
export function addMessage(output: GeneratedOutput, message: Record<string, any> | undefined): void {
  if (!message || typeof message !== "object") return;
  if (typeof message.content === "string") output.text += message.content;
  if (typeof message.reasoning_content === "string") output.text += message.reasoning_content;
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      // A stream announces a tool call once (with its id) and then streams its arguments.
      if (call?.id) output.toolCalls++;
      if (typeof call?.function?.name === "string") output.text += call.function.name;
      if (typeof call?.function?.arguments === "string") output.text += call.function.arguments;
    }
  }
}
