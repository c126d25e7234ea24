// "Fetch models" for Gemini: GET /{version}/models, followed page by page (nextPageToken). Only
// models that generate content or embeddings are listed, without the "models/" prefix.
import type { UpstreamRequest } from "../adaptor.ts";
import { unverified, unverifiedList } from "../unverified.ts";
import type { GeminiModel, GeminiModelList } from "./gemini-wire.ts";

const usefulMethods = new Set(["generateContent", "embedContent", "batchEmbedContents", "generateMessage"]);

export function modelsRequest(listUrl: string, headers: Record<string, string>, pageToken?: string): UpstreamRequest {
  const url = new URL(listUrl);
  url.searchParams.set("pageSize", "1000");
  if (pageToken) url.searchParams.set("pageToken", pageToken);
  return { url: url.toString(), method: "GET", headers };
}

export function parseGeminiModels(body: string): string[] {
  const list = unverified<GeminiModelList>(JSON.parse(body));
  if (!Array.isArray(list?.models)) throw new Error("no model list");
  return unverifiedList<GeminiModel>(list.models)
    .filter(
      (model) =>
        !Array.isArray(model.supportedGenerationMethods) || model.supportedGenerationMethods.some((method) => usefulMethods.has(method)),
    )
    .map((model) => (typeof model.name === "string" ? model.name.replace(/^models\//, "") : ""))
    .filter((name) => name !== "");
}

export function nextPageToken(body: string): string | undefined {
  const token = unverified<GeminiModelList>(JSON.parse(body))?.nextPageToken;
  return typeof token === "string" && token ? token : undefined;
}
