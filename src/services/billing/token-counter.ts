// Local token counts (gpt-tokenizer): the prompt estimate behind every hold, and the usage of
// answers whose upstream reported none. o200k_base serves current OpenAI models and, as an
// approximation, every other vendor; cl100k_base the GPT-3.5/GPT-4 generation. Each encoding
// costs tens of megabytes, so it loads on first use rather than at start-up.
type Encoding = { countTokens(text: string): number };

let o200k: Encoding | undefined;
let cl100k: Encoding | undefined;

/**
 * Loading an encoding parses megabytes of rank tables and leaves tens of megabytes of garbage;
 * one full collection right after gives them back at once instead of whenever the heap next
 * fills up (the difference is visible in the process's resident memory under load).
 */
function load(name: "o200k_base" | "cl100k_base"): Encoding {
  const encoding = (name === "o200k_base" ? require("gpt-tokenizer/encoding/o200k_base") : require("gpt-tokenizer/encoding/cl100k_base")) as Encoding;
  setTimeout(() => Bun.gc(true), 0).unref?.();
  return encoding;
}

function encodingFor(model: string): Encoding {
  const legacy = /^(gpt-3\.5|gpt-4(?!o|\.\d)|text-embedding-|text-davinci|davinci|babbage)/.test(model);
  if (legacy) return (cl100k ??= load("cl100k_base"));
  return (o200k ??= load("o200k_base"));
}

/**
 * Counts of recent texts. Chat clients send the whole conversation (and the same system prompt)
 * with every turn, so most message texts were counted moments ago; long texts are not kept.
 */
const recentCounts = new Map<Encoding, Map<string, number>>();
const maxRecent = 5000;
const maxRecentLength = 8192;

function count(encoding: Encoding, text: string): number {
  try {
    return encoding.countTokens(text);
  } catch {
    // Text the encoder cannot take (lone surrogates): about four characters per token.
    return Math.ceil(text.length / 4);
  }
}

export function countTextTokens(text: string, model: string): number {
  if (text === "") return 0;
  const encoding = encodingFor(model);
  if (text.length > maxRecentLength) return count(encoding, text);
  let recent = recentCounts.get(encoding);
  if (!recent) recentCounts.set(encoding, (recent = new Map()));
  let tokens = recent.get(text);
  if (tokens === undefined) {
    tokens = count(encoding, text);
    if (recent.size >= maxRecent) recent.delete(recent.keys().next().value!);
    recent.set(text, tokens);
  }
  return tokens;
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

function contentTokens(content: unknown, model: string): number {
  if (typeof content === "string") return countTextTokens(content, model);
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const part of content as ChatPart[]) {
    if (part?.type === "text" && typeof part.text === "string") tokens += countTextTokens(part.text, model);
    else if (part?.type === "image_url") tokens += imageTokens(part, model);
    else if (part?.type === "input_audio") tokens += 100;
  }
  return tokens;
}

/** The prompt of a chat request: 3 per message + role + content (+1 + name), 3 to prime the reply, tools. */
export function countChatPromptTokens(messages: unknown, model: string, tools?: unknown): number {
  let tokens = 3;
  if (Array.isArray(messages)) {
    for (const message of messages as ChatMessage[]) {
      tokens += 3;
      if (typeof message?.role === "string") tokens += countTextTokens(message.role, model);
      tokens += contentTokens(message?.content, model);
      if (typeof message?.name === "string") tokens += 1 + countTextTokens(message.name, model);
      if (Array.isArray(message?.tool_calls)) tokens += countTextTokens(JSON.stringify(message.tool_calls), model);
    }
  }
  if (Array.isArray(tools) && tools.length > 0) tokens += 8 + countTextTokens(JSON.stringify(tools), model);
  return tokens;
}

/** Tokens of an input that may be a string, a list of strings, or token ids. */
export function countInputTokens(input: unknown, model: string): number {
  if (typeof input === "string") return countTextTokens(input, model);
  if (!Array.isArray(input)) return 0;
  let tokens = 0;
  for (const item of input) {
    if (typeof item === "number") tokens += 1;
    else if (typeof item === "string") tokens += countTextTokens(item, model);
    else if (Array.isArray(item)) tokens += item.length;
    else if (item && typeof item === "object" && typeof (item as { text?: unknown }).text === "string") {
      tokens += countTextTokens((item as { text: string }).text, model);
    }
  }
  return tokens;
}
