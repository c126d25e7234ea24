// The relay endpoints (issue 3 §1): how each one's body is read, whether it can stream, the
// model when the client names none, and how it is priced.
import type { BodyLimits } from "../config.ts";
import type { EndpointKind, InboundFormat } from "./providers/adaptor.ts";

export type EndpointSpec = {
  kind: EndpointKind;
  body: "json" | "multipart";
  streamable: boolean;
  /** The model when the request names none (new-api defaults). */
  defaultModel?: string;
  /** tokens: prompt + completion tokens; images: a price per image; characters: the input's length. */
  pricing: "tokens" | "images" | "characters";
  /** The answer is media bytes, relayed without being read as text. */
  binaryAnswer?: boolean;
  /** A multipart upload: its file's size limit applies instead of the JSON one. */
  upload?: "audio" | "image";
  /** The wire format the client speaks here (default: OpenAI's). */
  format?: InboundFormat;
  /** The path, not the body, asks for a stream (Gemini's streamGenerateContent). */
  alwaysStreams?: boolean;
};

export const endpoints = {
  chat: { kind: "chat", body: "json", streamable: true, pricing: "tokens" },
  completions: { kind: "completions", body: "json", streamable: true, pricing: "tokens" },
  embeddings: { kind: "embeddings", body: "json", streamable: false, pricing: "tokens" },
  moderations: { kind: "moderations", body: "json", streamable: false, defaultModel: "text-moderation-stable", pricing: "tokens" },
  rerank: { kind: "rerank", body: "json", streamable: false, pricing: "tokens" },
  imageGeneration: { kind: "image-generation", body: "json", streamable: false, defaultModel: "dall-e-2", pricing: "images" },
  imageEdit: { kind: "image-edit", body: "multipart", streamable: false, defaultModel: "dall-e-2", pricing: "images", upload: "image" },
  speech: { kind: "speech", body: "json", streamable: false, defaultModel: "tts-1", pricing: "characters", binaryAnswer: true },
  transcription: {
    kind: "transcription",
    body: "multipart",
    streamable: false,
    defaultModel: "whisper-1",
    pricing: "tokens",
    upload: "audio",
  },
  translation: { kind: "translation", body: "multipart", streamable: false, defaultModel: "whisper-1", pricing: "tokens", upload: "audio" },
  // Vendors' own chat APIs (issue 11): priced and routed as chat calls.
  claudeMessages: { kind: "chat", body: "json", streamable: true, pricing: "tokens", format: "claude" },
  responses: { kind: "chat", body: "json", streamable: true, pricing: "tokens", format: "responses" },
  geminiGenerate: { kind: "chat", body: "json", streamable: false, pricing: "tokens", format: "gemini" },
  geminiStream: { kind: "chat", body: "json", streamable: true, alwaysStreams: true, pricing: "tokens", format: "gemini" },
} satisfies Record<string, EndpointSpec>;

/** Room for an upload's other form fields (model, prompt, language...) on top of its file. */
const formFieldsAllowance = 1024 * 1024;

/** The largest body an endpoint reads. */
export function bodyLimitOf(spec: EndpointSpec, limits: BodyLimits): number {
  if (spec.upload === "audio") return limits.audioUpload + formFieldsAllowance;
  if (spec.upload === "image") return limits.imageUpload + formFieldsAllowance;
  return limits.relayJson;
}
