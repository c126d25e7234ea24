// Google Gemini (channel type 24): the Generative Language API with the key in x-goog-api-key.
// OpenAI chat calls become generateContent / streamGenerateContent?alt=sse, embeddings
// embedContent / batchEmbedContents; calls in Gemini's own format pass through with the model
// of the URL replaced by the channel's. The API version is the channel's `other` (v1, v1beta),
// else the GeminiVersionSettings option; safety thresholds come from GeminiSafetySettings.
import { optionJson } from "../../../services/options/options.ts";
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { HostedTool, ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { convertGeminiEmbeddings, embeddingsRequestOf } from "./gemini-embeddings.ts";
import { geminiStreamError, parseGeminiError } from "./gemini-to-chat-errors.ts";
import { modelsRequest, nextPageToken, parseGeminiModels } from "./gemini-models.ts";
import { convertNativeResponse, createNativeStreamConverter } from "./gemini-native.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { geminiChatBody, isLevelThinker } from "./chat-to-gemini-request.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import { convertGeminiChat } from "./gemini-to-chat-response.ts";
import { apiVersionOf, bareModel, type GeminiSettings } from "./gemini-settings.ts";
import { createGeminiStreamConverter } from "./gemini-to-chat-stream.ts";

const defaultBaseUrl = "https://generativelanguage.googleapis.com";

export function currentGeminiSettings(): GeminiSettings {
  return {
    versions: optionJson<Record<string, string>>("GeminiVersionSettings"),
    safety: optionJson<Record<string, string>>("GeminiSafetySettings"),
  };
}

/**
 * Hosted tools Google runs itself for a converted call: web search as Search grounding, when the
 * channel allows it. Gemini models before 3 do not take grounding and function declarations in
 * one call; there the functions win and the search is left out.
 */
export function hostedToolsCarried(call: RelayCall, target: UpstreamTarget): HostedTool["type"][] {
  if (!target.setting.hosted_tools || !call.hostedTools?.some((tool) => tool.type === "web_search")) return [];
  const functions = Array.isArray(call.json?.tools) && call.json.tools.length > 0;
  return !functions || isLevelThinker(call.upstreamModel) ? ["web_search"] : [];
}

/** The method and body of a call: what the client sent in Gemini's format, or its conversion. */
export function geminiCallOf(
  call: RelayCall,
  settings: Pick<GeminiSettings, "safety">,
  target?: UpstreamTarget,
): { method: string; body: BodyInit } {
  if (call.endpoint === "chat") {
    const method = call.stream ? "streamGenerateContent" : "generateContent";
    if (call.format === "gemini") return { method, body: call.rawBody };
    // generationConfig carries the limit, thinking, JSON output and the response modalities.
    refuseUnsupportedFields(call, "Gemini", {
      outputLimit: true,
      reasoningEffort: true,
      jsonObject: true,
      jsonSchema: true,
      modalities: ["text", "image"],
    });
    const body = geminiChatBody(call.json ?? {}, call.upstreamModel, settings);
    if (target && hostedToolsCarried(call, target).includes("web_search")) body.tools = [...(body.tools ?? []), { googleSearch: {} }];
    return { method, body: JSON.stringify(body) };
  }
  if (call.endpoint === "embeddings") {
    if (call.format === "gemini")
      return { method: call.json && "requests" in call.json ? "batchEmbedContents" : "embedContent", body: call.rawBody };
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
  type: ChannelType.Gemini,
  name: "Google Gemini",
  owner: "google",
  defaultBaseUrl,
  nativeFormats: ["gemini"],
  hostedToolsCarried,

  buildRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
    const settings = currentGeminiSettings();
    const { method, body } = geminiCallOf(call, settings, target);
    const model = bareModel(call.upstreamModel);
    const version = apiVersionOf(model, target.other, settings.versions);
    return {
      url: `${baseOf(target)}/${version}/models/${encodeURIComponent(model)}:${method}${methodQuery(method)}`,
      method: "POST",
      headers: {
        ...keyHeaders(target),
        "content-type": "application/json",
        accept: call.stream ? "text/event-stream" : "application/json",
      },
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
  modelList: {
    request(target) {
      const version = apiVersionOf("", target.other, currentGeminiSettings().versions);
      return modelsRequest(`${baseOf(target)}/${version}/models`, keyHeaders(target));
    },
    parse: parseGeminiModels,
    next(target, body) {
      const token = nextPageToken(body);
      if (!token) return null;
      const version = apiVersionOf("", target.other, currentGeminiSettings().versions);
      return modelsRequest(`${baseOf(target)}/${version}/models`, keyHeaders(target), token);
    },
  },
};
