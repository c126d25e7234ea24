// OpenAI /v1/embeddings over Gemini: one text goes to :embedContent, a list to
// :batchEmbedContents (one request per text, in order); `dimensions` is outputDimensionality.
// The answer becomes an OpenAI embedding list, as floats or as base64 of little-endian float32
// (the official clients ask for base64 by default). Gemini reports no token counts for
// embeddings, so usage is the prompt counted locally.
import type { Bytes, ConvertedResponse, RelayCall } from "../adaptor.ts";
import { rpcErrorOf } from "./gemini-to-chat-errors.ts";
import { refuseRequest } from "../conversion-refusal.ts";
import { unreadable } from "./gemini-to-chat-response.ts";
import { bareModel } from "./gemini-settings.ts";
import { usageOfMetadata } from "./gemini-usage.ts";
import { unverified, unverifiedList, type Unverified } from "../unverified.ts";
import type { GeminiBatchEmbedRequest, GeminiEmbedRequest, GeminiEmbedResponse } from "./gemini-wire.ts";

export type EmbeddingsRequest =
  | { method: "embedContent"; body: GeminiEmbedRequest }
  | { method: "batchEmbedContents"; body: GeminiBatchEmbedRequest };

/** The fields of OpenAI's embeddings request this conversion reads. */
type EmbeddingsSent = Unverified<{ input: string | string[]; dimensions: number; encoding_format: "float" | "base64" }>;

const isString = (value: unknown): value is string => typeof value === "string";

function textsOf(input: unknown): string[] | string {
  if (typeof input === "string") return input;
  if (Array.isArray(input) && input.length > 0 && input.every(isString)) return input;
  return refuseRequest("该渠道的 embeddings 只接受字符串或字符串列表作为 input");
}

export function embeddingsRequestOf(json: EmbeddingsSent, model: string): EmbeddingsRequest {
  const texts = textsOf(json.input);
  const dimensions = typeof json.dimensions === "number" && json.dimensions > 0 ? { outputDimensionality: json.dimensions } : {};
  if (typeof texts === "string") return { method: "embedContent", body: { content: { parts: [{ text: texts }] }, ...dimensions } };
  const name = `models/${bareModel(model)}`;
  return {
    method: "batchEmbedContents",
    body: { requests: texts.map((text) => ({ model: name, content: { parts: [{ text }] }, ...dimensions })) },
  };
}

function encode(values: number[], format: unknown): number[] | string {
  if (format !== "base64") return values;
  return Buffer.from(new Float32Array(values).buffer).toString("base64");
}

type Vector = NonNullable<GeminiEmbedResponse["embedding"]>;

/** A vector's values; a broken one (not a list of numbers) as none. */
const valuesOf = (vector: Unverified<Vector>): number[] =>
  Array.isArray(vector.values) && vector.values.every((value) => typeof value === "number") ? vector.values : [];

export function convertGeminiEmbeddings(call: RelayCall, bytes: Bytes): ConvertedResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return unreadable();
  }
  const error = rpcErrorOf(parsed);
  if (error) return { body: bytes, contentType: "application/json", usage: null, output: () => ({ text: "", toolCalls: 0 }), error };
  const answer = unverified<GeminiEmbedResponse>(parsed) ?? {};
  const single = unverified<Vector>(answer.embedding);
  const vectors = answer.embeddings != null ? unverifiedList<Vector>(answer.embeddings) : single ? [single] : [];
  const format = call.json?.encoding_format;
  const reported = usageOfMetadata(answer.usageMetadata);
  const prompt = reported?.prompt_tokens ?? call.countPromptTokens();
  const body = {
    object: "list",
    data: vectors.map((vector, index) => ({ object: "embedding", index, embedding: encode(valuesOf(vector), format) })),
    model: call.upstreamModel,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
  return { body: JSON.stringify(body), contentType: "application/json", usage: reported, output: () => ({ text: "", toolCalls: 0 }) };
}
