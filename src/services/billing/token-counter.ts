// Local token counts: the prompt estimate behind every hold, and the usage of answers whose
// upstream reported none. o200k_base serves current OpenAI models and, as an approximation, every
// other vendor; cl100k_base the GPT-3.5/GPT-4 generation. Each encoding loads on its first count,
// into compact typed arrays (tokenizer-ranks.ts, byte-pair-count.ts): a few megabytes that the
// garbage collector does not walk, rather than gpt-tokenizer's tens of megabytes of strings.
import { loadTokenCounter, pieceSteps, type TokenCounter, type WorkBudget } from "./byte-pair-count.ts";
import { forEachBoundedSlice, maxRun, roughTokens } from "./text-pieces.ts";

let o200k: TokenCounter | undefined;
let cl100k: TokenCounter | undefined;

function encodingFor(model: string): TokenCounter {
  const legacy = /^(gpt-3\.5|gpt-4(?!o|\.\d)|text-embedding-|text-davinci|davinci|babbage)/.test(model);
  if (legacy) return (cl100k ??= loadTokenCounter("cl100k_base"));
  return (o200k ??= loadTokenCounter("o200k_base"));
}

/**
 * Counting runs on the event loop, so one count (a request's prompt, an answer's output) may take
 * at most this many steps of the byte-pair counter (byte-pair-count.ts: a piece found, a byte
 * hashed, a pair compared or moved while merging); whatever is left then is estimated
 * (`estimate`). The bound is in work, not time, so the same text gets the same count on any
 * machine at any load. It was set against the costliest texts per step (bench/token-count-bound.ts;
 * docs/RELIABILITY.md has the figure): about 40 ms of CPU on the machine that measured it, under
 * the 50 ms the time bound it replaced allowed, while prompts of 200 000 tokens of prose are still
 * counted exactly, and no input (ten megabytes of one character, base64 pasted as text, a hundred
 * thousand messages) holds every other request up for longer.
 */
export const countSteps = 25_000_000;

/** The steps left to one count, and what its exactly counted part showed about the text. */
type Budget = WorkBudget & { tokens: number; rough: number };

const newBudget = (steps: number): Budget => ({ steps, tokens: 0, rough: 0 });

function countSlice(encoding: TokenCounter, text: string, budget: Budget): { tokens: number; reached: number } {
  try {
    return encoding.countPrefix(text, budget);
  } catch {
    // Text the encoder refuses (a special token's spelling, lone surrogates): the rough count.
    budget.steps -= pieceSteps + text.length;
    return { tokens: roughTokens(text), reached: text.length };
  }
}

/** The tokens of text[0, n) for the n the budget reached (all of it, normally). */
function countUntilSpent(encoding: TokenCounter, text: string, budget: Budget): { tokens: number; reached: number } {
  if (text.length <= maxRun) return countSlice(encoding, text, budget);
  let tokens = 0;
  let reached = 0;
  forEachBoundedSlice(text, 0, text.length, (from, to) => {
    const slice = from === 0 && to === text.length ? text : text.slice(from, to);
    const part = countSlice(encoding, slice, budget);
    tokens += part.tokens;
    reached = from + part.reached;
    return part.reached === slice.length && budget.steps > 0;
  });
  return { tokens, reached };
}

/**
 * Text past the budget: the rough count, scaled up by what the counted part showed when that
 * text was denser than the rough count assumes (base64), never scaled down, so the estimate
 * stays at or above the real count for anything but crafted mixtures.
 */
function estimate(text: string, budget: Budget): number {
  const scale = budget.rough > 0 ? Math.max(1, budget.tokens / budget.rough) : 1;
  return Math.ceil(roughTokens(text) * scale);
}

/**
 * Counts of recent texts, with the steps counting them took. Chat clients send the whole
 * conversation (and the same system prompt) with every turn, so most message texts were counted
 * moments ago; long texts are not kept. A remembered count spends the steps it took, so whether a
 * text was remembered never changes how far a count gets.
 *
 * Two generations of at most `maxRecent` texts each: when the newer fills up it becomes the older
 * and the older is dropped whole. (Dropping the oldest entry one at a time, `keys().next()` after
 * a `delete`, walks the holes earlier deletes left: 4 µs a text at 100 000 texts.)
 */
type Recent = { tokens: number; rough: number; steps: number };
type Generations = { newer: Map<string, Recent>; older: Map<string, Recent> };
const recentCounts = new Map<TokenCounter, Generations>();
const maxRecent = 2500;
const maxRecentLength = 8192;

function remembered(encoding: TokenCounter, text: string): Recent | undefined {
  const recent = recentCounts.get(encoding);
  return recent?.newer.get(text) ?? recent?.older.get(text);
}

function remember(encoding: TokenCounter, text: string, count: Recent): void {
  let recent = recentCounts.get(encoding);
  if (!recent) recentCounts.set(encoding, (recent = { newer: new Map(), older: new Map() }));
  if (recent.newer.size >= maxRecent) {
    recent.older = recent.newer;
    recent.newer = new Map();
  }
  recent.newer.set(text, count);
}

/** What text past the budget is taken for: the estimate (a count), or its UTF-8 bytes (a bound). */
type Beyond = (text: string, budget: Budget) => number;
const utf8Bytes: Beyond = (text) => Buffer.byteLength(text, "utf8");

function countWithin(encoding: TokenCounter, text: string, budget: Budget, beyond: Beyond = estimate): number {
  if (text === "") return 0;
  if (budget.steps <= 0) return beyond(text, budget);
  budget.steps -= pieceSteps;
  const known = text.length <= maxRecentLength ? remembered(encoding, text) : undefined;
  if (known !== undefined && budget.steps > known.steps) {
    budget.steps -= known.steps;
    budget.tokens += known.tokens;
    budget.rough += known.rough;
    return known.tokens;
  }
  const stepsBefore = budget.steps;
  const { tokens, reached } = countUntilSpent(encoding, text, budget);
  const counted = reached === text.length ? text : text.slice(0, reached);
  const rough = roughTokens(counted);
  budget.tokens += tokens;
  budget.rough += rough;
  if (reached < text.length) return tokens + beyond(text.slice(reached), budget);
  if (text.length <= maxRecentLength && known === undefined) remember(encoding, text, { tokens, rough, steps: stepsBefore - budget.steps });
  return tokens;
}

// Each count below takes `steps`, the work it may do exactly (countSteps unless a test says).

export function countTextTokens(text: string, model: string, steps = countSteps): number {
  if (text === "") return 0;
  return countWithin(encodingFor(model), text, newBudget(steps));
}

/**
 * An upper bound of the tokens of these texts together, tighter than their bytes: counted while
 * the steps last, the rest taken at its UTF-8 bytes (a byte-level BPE token is at least a byte).
 */
export function boundTextTokens(texts: string[], model: string, steps = countSteps): number {
  const encoding = encodingFor(model);
  const budget = newBudget(steps);
  let tokens = 0;
  for (const text of texts) tokens += countWithin(encoding, text, budget, utf8Bytes);
  return tokens;
}

/** Completion tokens of generated output; each tool call costs 7 more (new-api's count). */
export function countCompletionTokens(
  output: { text: string; toolCalls: number; countedTokens?: number },
  model: string,
  steps = countSteps,
): number {
  return (output.countedTokens ?? 0) + countTextTokens(output.text, model, steps) + output.toolCalls * 7;
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
export function countChatPromptTokens(messages: unknown, model: string, tools?: unknown, steps = countSteps): number {
  const encoding = encodingFor(model);
  const budget = newBudget(steps);
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
export function countInputTokens(input: unknown, model: string, steps = countSteps): number {
  if (typeof input === "string") return countTextTokens(input, model, steps);
  if (!Array.isArray(input)) return 0;
  const encoding = encodingFor(model);
  const budget = newBudget(steps);
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
