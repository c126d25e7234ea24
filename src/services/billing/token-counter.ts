// Local token counts: the prompt estimate behind every hold, and the usage of answers whose
// upstream reported none. o200k_base serves current OpenAI models and, as an approximation, every
// other vendor; cl100k_base the GPT-3.5/GPT-4 generation. Each encoding loads on its first count,
// into compact typed arrays (tokenizer-ranks.ts, byte-pair-count.ts): a few megabytes that the
// garbage collector does not walk, rather than gpt-tokenizer's tens of megabytes of strings.
import { loadTokenCounter, type TokenCounter } from "./byte-pair-count.ts";
import { forEachBoundedSlice, maxRun, roughTokens } from "./text-pieces.ts";

let o200k: TokenCounter | undefined;
let cl100k: TokenCounter | undefined;

function encodingFor(model: string): TokenCounter {
  const legacy = /^(gpt-3\.5|gpt-4(?!o|\.\d)|text-embedding-|text-davinci|davinci|babbage)/.test(model);
  if (legacy) return (cl100k ??= loadTokenCounter("cl100k_base"));
  return (o200k ??= loadTokenCounter("o200k_base"));
}

/**
 * Counts of recent texts. Chat clients send the whole conversation (and the same system prompt)
 * with every turn, so most message texts were counted moments ago; long texts are not kept.
 */
const recentCounts = new Map<TokenCounter, Map<string, number>>();
const maxRecent = 5000;
const maxRecentLength = 8192;

/**
 * Counting runs on the event loop, so one count (a request's prompt, an answer's output) may
 * spend at most this long counting exactly; whatever is left then is estimated (`estimate`).
 * With runs cut (text-pieces.ts) the worst text costs about 2 µs a character, prose 0.03 µs, so
 * prompts of a few megabytes of real text are still counted exactly, and no input (ten
 * megabytes of one character, base64 pasted as text, a hundred thousand messages) holds every
 * other request up for longer than this.
 */
const exactMilliseconds = 50;

/** The deadline of one count, and what its exactly counted part showed about the text. */
type Budget = { deadline: number; tokens: number; rough: number };

const newBudget = (): Budget => ({ deadline: performance.now() + exactMilliseconds, tokens: 0, rough: 0 });

function countSlice(encoding: TokenCounter, text: string): number {
  try {
    return encoding.countTokens(text);
  } catch {
    // Text the encoder refuses (a special token's spelling, lone surrogates): the rough count.
    return roughTokens(text);
  }
}

/** The tokens of text[0, n) for the n it reached before the deadline (all of it, normally). */
function countUntilDeadline(encoding: TokenCounter, text: string, budget: Budget): { tokens: number; reached: number } {
  if (text.length <= maxRun) return { tokens: countSlice(encoding, text), reached: text.length };
  let tokens = 0;
  const reached = forEachBoundedSlice(text, 0, text.length, (from, to) => {
    tokens += countSlice(encoding, from === 0 && to === text.length ? text : text.slice(from, to));
    return performance.now() < budget.deadline;
  });
  return { tokens, reached };
}

/**
 * Text past the deadline: the rough count, scaled up by what the counted part showed when that
 * text was denser than the rough count assumes (base64), never scaled down, so the estimate
 * stays at or above the real count for anything but crafted mixtures.
 */
function estimate(text: string, budget: Budget): number {
  const scale = budget.rough > 0 ? Math.max(1, budget.tokens / budget.rough) : 1;
  return Math.ceil(roughTokens(text) * scale);
}

function countWithin(encoding: TokenCounter, text: string, budget: Budget): number {
  if (text === "") return 0;
  if (performance.now() >= budget.deadline) return estimate(text, budget);
  let recent = recentCounts.get(encoding);
  if (!recent) recentCounts.set(encoding, (recent = new Map()));
  const known = text.length <= maxRecentLength ? recent.get(text) : undefined;
  if (known !== undefined) return known;
  const { tokens, reached } = countUntilDeadline(encoding, text, budget);
  const counted = reached === text.length ? text : text.slice(0, reached);
  budget.tokens += tokens;
  budget.rough += roughTokens(counted);
  if (reached < text.length) return tokens + estimate(text.slice(reached), budget);
  if (text.length <= maxRecentLength) {
    if (recent.size >= maxRecent) recent.delete(recent.keys().next().value!);
    recent.set(text, tokens);
  }
  return tokens;
}

export function countTextTokens(text: string, model: string): number {
  if (text === "") return 0;
  return countWithin(encodingFor(model), text, newBudget());
}

/** Completion tokens of generated output; each tool call costs 7 more (new-api's count). */
export function countCompletionTokens(output: { text: string; toolCalls: number }, model: string): number {
  return countTextTokens(output.text, model) + output.toolCalls * 7;
}

type ChatPart = { type?: unknown; text?: unknown; image_url?: { detail?: unknown } | string };
type ChatMessage = { role?: unknown; content?: unknown; name?: unknown; tool_calls?: unknown };

/**
 * Image parts are priced without fetching the image (fetching client URLs would let anyone make
 * the gateway call internal addresses): "low" detail is 85 tokens, anything else is counted as a
 * 1024x1024 image (four 512-pixel tiles).
 */
function imageTokens(part: ChatPart, model: string): number {
  const detail = typeof part.image_url === "object" ? part.image_url?.detail : undefined;
  const mini = model.startsWith("gpt-4o-mini");
  if (detail === "low") return mini ? 2833 : 85;
  return mini ? 2833 + 4 * 5667 : 85 + 4 * 170;
}

function contentTokens(content: unknown, model: string, encoding: TokenCounter, budget: Budget): number {
  if (typeof content === "string") return countWithin(encoding, content, budget);
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const part of content as ChatPart[]) {
    if (part?.type === "text" && typeof part.text === "string") tokens += countWithin(encoding, part.text, budget);
    else if (part?.type === "image_url") tokens += imageTokens(part, model);
    else if (part?.type === "input_audio") tokens += 100;
  }
  return tokens;
}

/** The prompt of a chat request: 3 per message + role + content (+1 + name), 3 to prime the reply, tools. */
export function countChatPromptTokens(messages: unknown, model: string, tools?: unknown): number {
  const encoding = encodingFor(model);
  const budget = newBudget();
  let tokens = 3;
  if (Array.isArray(messages)) {
    for (const message of messages as ChatMessage[]) {
      tokens += 3;
      if (typeof message?.role === "string") tokens += countWithin(encoding, message.role, budget);
      tokens += contentTokens(message?.content, model, encoding, budget);
      if (typeof message?.name === "string") tokens += 1 + countWithin(encoding, message.name, budget);
      if (Array.isArray(message?.tool_calls)) tokens += countWithin(encoding, JSON.stringify(message.tool_calls), budget);
    }
  }
  if (Array.isArray(tools) && tools.length > 0) tokens += 8 + countWithin(encoding, JSON.stringify(tools), budget);
  return tokens;
}

/** Tokens of an input that may be a string, a list of strings, or token ids. */
export function countInputTokens(input: unknown, model: string): number {
  if (typeof input === "string") return countTextTokens(input, model);
  if (!Array.isArray(input)) return 0;
  const encoding = encodingFor(model);
  const budget = newBudget();
  let tokens = 0;
  for (const item of input) {
    if (typeof item === "number") tokens += 1;
    else if (typeof item === "string") tokens += countWithin(encoding, item, budget);
    else if (Array.isArray(item)) tokens += item.length;
    else if (item && typeof item === "object" && typeof (item as { text?: unknown }).text === "string") {
      tokens += countWithin(encoding, (item as { text: string }).text, budget);
    }
  }
  return tokens;
}
