// What a request will cost before the upstream says: the prompt counted locally, the completion
// allowance the hold covers, and the text the sensitive-word check reads.
import { countChatPromptTokens, countInputTokens } from "../../services/billing/token-counter.ts";
import type { ParsedCall } from "./read-call.ts";

/** Prompt tokens (for speech: characters, which is what TTS is priced by). */
export function promptTokensOf(call: ParsedCall): number {
  const json = call.json;
  if (!json) return 0;
  switch (call.endpoint) {
    case "chat":
      return countChatPromptTokens(json.messages, call.model, json.tools ?? json.functions);
    case "completions":
      return countInputTokens(json.prompt, call.model);
    case "embeddings":
    case "moderations":
      return countInputTokens(json.input, call.model);
    case "rerank":
      return countInputTokens([json.query, ...(Array.isArray(json.documents) ? json.documents : [])], call.model);
    case "speech":
      return typeof json.input === "string" ? [...json.input].length : 0;
    default:
      return 0;
  }
}

/** Completion tokens the hold covers: max_tokens when given, else PreConsumedQuota tokens. */
export function completionAllowanceOf(call: ParsedCall, preConsumedTokens: number): number {
  switch (call.endpoint) {
    case "chat":
    case "completions":
      return call.maxTokens ?? preConsumedTokens;
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
  const json = call.json;
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
