// Where each endpoint lives on an OpenAI-style server, and how a base URL joins a path.
import type { EndpointKind } from "../adaptor.ts";

export const openAIPaths: Record<EndpointKind, string> = {
  chat: "/v1/chat/completions",
  completions: "/v1/completions",
  embeddings: "/v1/embeddings",
  moderations: "/v1/moderations",
  rerank: "/v1/rerank",
  "image-generation": "/v1/images/generations",
  "image-edit": "/v1/images/edits",
  speech: "/v1/audio/speech",
  transcription: "/v1/audio/transcriptions",
  translation: "/v1/audio/translations",
};

/**
 * Joins a base URL and a /v1 path. Operators are told to enter the base without /v1,
 * but many paste ".../v1"; that must not become ".../v1/v1/...".
 */
export function joinBaseUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  if (base.endsWith("/v1") && path.startsWith("/v1/")) return base + path.slice(3);
  return base + path;
}
