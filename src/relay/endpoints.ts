// The relay endpoints (issue 3 §1): how each one's body is read, whether it can stream, the
// model when the client names none, and how it is priced.
import type { EndpointKind } from "./providers/adaptor.ts";

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
};

export const endpoints = {
  chat: { kind: "chat", body: "json", streamable: true, pricing: "tokens" },
  completions: { kind: "completions", body: "json", streamable: true, pricing: "tokens" },
  embeddings: { kind: "embeddings", body: "json", streamable: false, pricing: "tokens" },
  moderations: { kind: "moderations", body: "json", streamable: false, defaultModel: "text-moderation-stable", pricing: "tokens" },
  rerank: { kind: "rerank", body: "json", streamable: false, pricing: "tokens" },
  imageGeneration: { kind: "image-generation", body: "json", streamable: false, defaultModel: "dall-e-2", pricing: "images" },
  imageEdit: { kind: "image-edit", body: "multipart", streamable: false, defaultModel: "dall-e-2", pricing: "images" },
  speech: { kind: "speech", body: "json", streamable: false, defaultModel: "tts-1", pricing: "characters", binaryAnswer: true },
  transcription: { kind: "transcription", body: "multipart", streamable: false, defaultModel: "whisper-1", pricing: "tokens" },
  translation: { kind: "translation", body: "multipart", streamable: false, defaultModel: "whisper-1", pricing: "tokens" },
} satisfies Record<string, EndpointSpec>;
