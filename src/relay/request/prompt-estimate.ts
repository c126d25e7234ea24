// What a request will cost before the upstream says: the prompt, the completion allowance the
// hold covers, and the text the sensitive-word check reads.
//
// The hold needs an upper bound of the prompt, not a count. A byte-level BPE token (o200k, cl100k
// and their kin) is at least one byte of UTF-8, so the bytes of the prompt's texts plus the
// per-message framing bound the tokens from above and cost nothing to compute. The tokenizer
// runs only when it matters: when the balance is close to the bound (the hold asks for the
// tighter bound), and when the upstream reports no usage (the settlement counts the prompt).
// Vendors whose tokenizers are not byte-level get the same bound as a close approximation.
import { boundTextTokens, countChatPromptTokens, countInputTokens } from "../../services/billing/token-counter.ts";
import type { ParsedCall } from "./read-call.ts";

export type PromptEstimate = {
  /** Upper bound of the prompt tokens from UTF-8 bytes: free to compute. */
  bound: number;
  /** The same bound with the texts counted by the tokenizer (one count's steps, bytes beyond them): tighter, costs a count. */
  tightBound(): number;
  /** The prompt counted as the settlement bills it when the upstream reports no usage. */
  count(): number;
};

/** Roles are one token in every encoding we count with; anything else is counted as text. */
const singleTokenRoles = new Set(["system", "user", "assistant", "tool", "developer", "function"]);

type Parts = { texts: string[]; fixed: number };

/**
 * The most an image part can cost at OpenAI's tile pricing without fetching it: "low" detail is
 * one base charge; otherwise the largest image, scaled to 768 x 2048, is eight 512-pixel tiles.
 */
function imageBound(part: { image_url?: unknown }, model: string): number {
  const detail = typeof part.image_url === "object" && part.image_url ? (part.image_url as { detail?: unknown }).detail : undefined;
  const [base, tile] = model.startsWith("gpt-4o-mini") ? [2833, 5667] : [85, 170];
  return detail === "low" ? base : base + 8 * tile;
}

function addContent(content: unknown, model: string, parts: Parts): void {
  if (typeof content === "string") parts.texts.push(content);
  if (!Array.isArray(content)) return;
  for (const part of content as { type?: unknown; text?: unknown; image_url?: unknown }[]) {
    if (part?.type === "text" && typeof part.text === "string") parts.texts.push(part.text);
    else if (part?.type === "image_url") parts.fixed += imageBound(part, model);
    else if (part?.type === "input_audio") parts.fixed += 100;
  }
}

/** A chat prompt as the upstream frames it: 3 per message + role + content (+1 + name), 3 to prime the reply, tools. */
function chatParts(json: Record<string, unknown>, model: string): Parts {
  const parts: Parts = { texts: [], fixed: 3 };
  if (Array.isArray(json.messages)) {
    for (const message of json.messages as Record<string, unknown>[]) {
      parts.fixed += 3;
      if (typeof message?.role === "string") {
        if (singleTokenRoles.has(message.role)) parts.fixed += 1;
        else parts.texts.push(message.role);
      }
      addContent(message?.content, model, parts);
      if (typeof message?.name === "string") {
        parts.fixed += 1;
        parts.texts.push(message.name);
      }
      if (Array.isArray(message?.tool_calls)) parts.texts.push(JSON.stringify(message.tool_calls));
    }
  }
  const tools = json.tools ?? json.functions;
  if (Array.isArray(tools) && tools.length > 0) {
    parts.fixed += 8;
    parts.texts.push(JSON.stringify(tools));
  }
  // A structured-output schema is read by the model as part of the prompt.
  if (json.response_format && typeof json.response_format === "object") parts.texts.push(JSON.stringify(json.response_format));
  return parts;
}

/** Strings, lists of strings, token ids (one token each) and lists of token ids. */
function inputParts(input: unknown): Parts {
  const parts: Parts = { texts: [], fixed: 0 };
  if (typeof input === "string") parts.texts.push(input);
  else if (Array.isArray(input)) {
    for (const item of input) {
      if (typeof item === "number") parts.fixed += 1;
      else if (typeof item === "string") parts.texts.push(item);
      else if (Array.isArray(item)) parts.fixed += item.length;
      else if (item && typeof item === "object" && typeof (item as { text?: unknown }).text === "string")
        parts.texts.push((item as { text: string }).text);
    }
  }
  return parts;
}

function estimateOf(parts: Parts, model: string, count: () => number): PromptEstimate {
  let bytes = 0;
  for (const text of parts.texts) bytes += Buffer.byteLength(text, "utf8");
  let tokens: number | undefined;
  let counted: number | undefined;
  return {
    bound: parts.fixed + bytes,
    tightBound() {
      tokens ??= boundTextTokens(parts.texts, model);
      return parts.fixed + tokens;
    },
    count: () => (counted ??= count()),
  };
}

const exact = (tokens: number): PromptEstimate => ({ bound: tokens, tightBound: () => tokens, count: () => tokens });

/** The prompt of a call (for speech: characters, which is what TTS is priced by). */
export function estimatePrompt(call: ParsedCall): PromptEstimate {
  // A vendor's format is estimated on its chat version (the same messages, tools and schema).
  const json: Record<string, unknown> | null = call.asChat?.chat ?? call.json;
  if (!json) return exact(0);
  const model = call.model;
  switch (call.endpoint) {
    case "chat":
      return estimateOf(chatParts(json, model), model, () => countChatPromptTokens(json.messages, model, json.tools ?? json.functions));
    case "completions":
      return estimateOf(inputParts(json.prompt), model, () => countInputTokens(json.prompt, model));
    case "embeddings":
    case "moderations":
      return estimateOf(inputParts(json.input), model, () => countInputTokens(json.input, model));
    case "rerank": {
      const input = [json.query, ...(Array.isArray(json.documents) ? json.documents : [])];
      return estimateOf(inputParts(input), model, () => countInputTokens(input, model));
    }
    case "speech":
      return exact(typeof json.input === "string" ? [...json.input].length : 0);
    default:
      return exact(0);
  }
}

/**
 * Completion tokens the hold covers: max_tokens when given, else PreConsumedQuota tokens, or the
 * limit the first channel's type sends when the client sets none (Claude requires max_tokens),
 * if that is more. The call carries this allowance and such types never send more, so the hold
 * stays an upper bound of the cost.
 */
export function completionAllowanceOf(call: ParsedCall, preConsumedTokens: number, kindDefault = 0): number {
  switch (call.endpoint) {
    case "chat":
    case "completions":
      return call.maxTokens ?? Math.max(preConsumedTokens, kindDefault);
    case "transcription":
    case "translation":
      return preConsumedTokens;
    default:
      return 0;
  }
}

function textsOf(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) textsOf(item, into);
  else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.text === "string") into.push(record.text);
    if (record.content !== undefined) textsOf(record.content, into);
  }
}

/** The client-written text of a request (messages, prompt, input), for the sensitive-word check. */
export function promptTexts(call: ParsedCall): string[] {
  const texts: string[] = [];
  const json: Record<string, unknown> | null = call.asChat?.chat ?? call.json;
  if (json) {
    textsOf(json.messages, texts);
    textsOf(json.prompt, texts);
    textsOf(json.input, texts);
    textsOf(json.query, texts);
  } else if (call.form) {
    const prompt = call.form.get("prompt");
    if (typeof prompt === "string") texts.push(prompt);
  }
  return texts;
}
