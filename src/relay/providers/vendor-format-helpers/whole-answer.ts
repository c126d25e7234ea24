// A vendor's whole answer, rewritten as the OpenAI object the client expects: a chat.completion,
// or an embeddings list. The vendor's usage is reported, and what was generated is kept for local
// counting when the vendor gives none.
import type { ConvertedResponse, RelayCall, Usage, UpstreamErrorDetails } from "../adaptor.ts";
import { openAIUsageBody } from "./usage-body.ts";
import type { ChatToolCall } from "../openai-chat-wire.ts";

/** A tool call of the answer: OpenAI chat's own. */
export type ToolCall = ChatToolCall;

export type ChatParts = {
  model: string;
  /** The vendor's answer id, when it has one (prefixed for the client). */
  id?: string;
  content: string;
  reasoning?: string;
  toolCalls?: ToolCall[];
  finishReason: string;
  usage: Usage | null;
};

export function chatCompletion(parts: ChatParts): ConvertedResponse {
  const toolCalls = parts.toolCalls ?? [];
  const message: Record<string, unknown> = {
    role: "assistant",
    content: parts.content === "" && toolCalls.length ? null : parts.content,
  };
  if (parts.reasoning) message.reasoning_content = parts.reasoning;
  if (toolCalls.length) message.tool_calls = toolCalls;
  const body: Record<string, unknown> = {
    id: `chatcmpl-${parts.id || crypto.randomUUID().replaceAll("-", "")}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: parts.model,
    choices: [{ index: 0, message, finish_reason: parts.finishReason }],
  };
  if (parts.usage) body.usage = openAIUsageBody(parts.usage);
  const text = parts.content + (parts.reasoning ?? "") + toolCalls.map((call) => call.function.name + call.function.arguments).join("");
  return {
    body: JSON.stringify(body),
    contentType: "application/json",
    usage: parts.usage,
    output: () => ({ text, toolCalls: toolCalls.length }),
  };
}

/** A vector as OpenAI's base64 encoding: little-endian float32 values. */
const base64Vector = (vector: number[]) => Buffer.from(new Float32Array(vector).buffer).toString("base64");

/** The client's encoding_format asks for base64 (the official SDKs do by default). */
const wantsBase64 = (call: RelayCall) => call.json?.encoding_format === "base64";

export function embeddingList(call: RelayCall, vectors: number[][], usage: Usage | null): ConvertedResponse {
  const base64 = wantsBase64(call);
  const body: Record<string, unknown> = {
    object: "list",
    data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding: base64 ? base64Vector(embedding) : embedding })),
    model: call.model,
  };
  body.usage = usage ?? { prompt_tokens: 0, total_tokens: 0 };
  return { body: JSON.stringify(body), contentType: "application/json", usage, output: () => ({ text: "", toolCalls: 0 }) };
}

/**
 * An OpenAI-style embeddings answer from a vendor that ignores encoding_format: its float lists
 * are encoded when the client asked for base64 (vectors already encoded stay as they are).
 */
export function encodeEmbeddings(call: RelayCall, converted: ConvertedResponse): ConvertedResponse {
  if (call.endpoint !== "embeddings" || !wantsBase64(call) || converted.error) return converted;
  const text = typeof converted.body === "string" ? converted.body : new TextDecoder().decode(converted.body);
  let parsed: { data?: { embedding?: unknown }[] };
  try {
    parsed = JSON.parse(text);
  } catch {
    return converted;
  }
  if (!Array.isArray(parsed.data) || !parsed.data.some((item) => Array.isArray(item?.embedding))) return converted;
  for (const item of parsed.data) if (Array.isArray(item.embedding)) item.embedding = base64Vector(item.embedding as number[]);
  return { ...converted, body: JSON.stringify(parsed), contentType: "application/json" };
}

/** A successful status that carried an error instead of an answer. */
export function failedAnswer(error: UpstreamErrorDetails): ConvertedResponse {
  return { body: "", contentType: "application/json", usage: null, output: () => ({ text: "", toolCalls: 0 }), error };
}

/** Integers from a vendor's usage numbers; null when it reported nothing. */
export function usageOf(prompt: unknown, completion: unknown, total?: unknown): Usage | null {
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);
  let promptTokens = count(prompt);
  const completionTokens = count(completion);
  if (promptTokens === 0 && completionTokens === 0) promptTokens = count(total);
  if (promptTokens === 0 && completionTokens === 0) return null;
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}
