// Google Gemini (channel type 24): the Generative Language API with the key in x-goog-api-key.
// OpenAI chat calls become generateContent / streamGenerateContent?alt=sse, embeddings
// embedContent / batchEmbedContents; calls in Gemini's own format pass through with the model
// of the URL replaced by the channel's. The API version is the channel's `other` (v1, v1beta),
// else the GeminiVersionSettings option; safety thresholds come from GeminiSafetySettings.
import { optionJson } from "../../../services/options/options.ts";
import { channelTypeInfo } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { convertGeminiEmbeddings, embeddingsRequestOf } from "./gemini-embeddings.ts";
import { geminiStreamError, parseGeminiError } from "./gemini-errors.ts";
import { modelsRequest, nextPageToken, parseGeminiModels } from "./gemini-models.ts";
import { convertNativeResponse, createNativeStreamConverter } from "./gemini-native.ts";
import { unsupportedEndpoint } from "../openai-format/chat-request.ts";
import { geminiChatBody } from "./gemini-request.ts";
import { convertGeminiChat } from "./gemini-response.ts";
import { apiVersionOf, bareModel, type GeminiSettings } from "./gemini-settings.ts";
import { createGeminiStreamConverter } from "./gemini-stream.ts";

const defaultBaseUrl = "https://generativelanguage.googleapis.com";

export function currentGeminiSettings(): GeminiSettings {
  return {
    versions: optionJson<Record<string, string>>("GeminiVersionSettings"),
    safety: optionJson<Record<string, string>>("GeminiSafetySettings"),
  };
}

/** The method and body of a call: what the client sent in Gemini's format, or its conversion. */
export function geminiCallOf(call: RelayCall, settings: Pick<GeminiSettings, "safety">): { method: string; body: BodyInit } {
  if (call.endpoint === "chat") {
    const method = call.stream ? "streamGenerateContent" : "generateContent";
    if (call.format === "gemini") return { method, body: call.rawBody };
    return { method, body: JSON.stringify(geminiChatBody(call.json ?? {}, call.upstreamModel, settings)) };
  }
  if (call.endpoint === "embeddings") {
    if (call.format === "gemini") return { method: call.json && "requests" in call.json ? "batchEmbedContents" : "embedContent", body: call.rawBody };
    const request = embeddingsRequestOf(call.json ?? {}, call.upstreamModel);
    return { method: request.method, body: JSON.stringify(request.body) };
  }
  throw unsupportedEndpoint();
}

/** The query of a method's URL: streams are asked for as server-sent events. */
export const methodQuery = (method: string) => (method === "streamGenerateContent" ? "?alt=sse" : "");

function keyHeaders(target: UpstreamTarget): Record<string, string> {
  return { "x-goog-api-key": target.key };
}

const baseOf = (target: UpstreamTarget) => target.baseUrl || defaultBaseUrl;

export const geminiAdaptor: ProviderAdaptor = {
  kind: 24,
  name: "Google Gemini",
  owner: "google",
  defaultBaseUrl,
  defaultModels: channelTypeInfo(24)?.models ?? [],
  nativeFormats: ["gemini"],

  buildRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
    const settings = currentGeminiSettings();
    const { method, body } = geminiCallOf(call, settings);
    const model = bareModel(call.upstreamModel);
    const version = apiVersionOf(model, target.other, settings.versions);
    return {
      url: `${baseOf(target)}/${version}/models/${encodeURIComponent(model)}:${method}${methodQuery(method)}`,
      method: "POST",
      headers: { ...keyHeaders(target), "content-type": "application/json", accept: call.stream ? "text/event-stream" : "application/json" },
      body,
    };
  },
  convertResponse(call, bytes, contentType) {
    if (call.format === "gemini") return convertNativeResponse(call, bytes, contentType);
    return call.endpoint === "embeddings" ? convertGeminiEmbeddings(call, bytes) : convertGeminiChat(call, bytes);
  },
  createStreamConverter(call, countCompletion) {
    return call.format === "gemini" ? createNativeStreamConverter(countCompletion) : createGeminiStreamConverter(call, countCompletion);
  },
  parseError: parseGeminiError,
  streamError: geminiStreamError,

  buildModelsRequest(target) {
    const version = apiVersionOf("", target.other, currentGeminiSettings().versions);
    return modelsRequest(`${baseOf(target)}/${version}/models`, keyHeaders(target));
  },
  parseModels: parseGeminiModels,
  nextModelsRequest(target, body) {
    const token = nextPageToken(body);
    if (!token) return null;
    const version = apiVersionOf("", target.other, currentGeminiSettings().versions);
    return modelsRequest(`${baseOf(target)}/${version}/models`, keyHeaders(target), token);
  },
};
