// Google Vertex AI (channel type 41): models of Google's publisher (Gemini) and of Anthropic's
// (Claude), called in a project's region with an OAuth token obtained from the channel's
// service-account key (vertex-token.ts). Gemini models take the Gemini API's body (the Gemini
// adaptor's conversion) at .../publishers/google/models/{m}:generateContent or
// :streamGenerateContent?alt=sse; Claude models take Claude's body (vertex-claude.ts) at
// .../publishers/anthropic/models/{m}:rawPredict or :streamRawPredict. A call in Gemini's own
// format to a Gemini model, or in Claude's to a Claude model, passes through with the model
// replaced; the other pairings are refused (501: another channel may take them).
import { AppError } from "../../../errors/app-error.ts";
import { channelTypeInfo } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { claudeStreamError } from "../claude/claude-errors.ts";
import { defaultMaxTokens } from "../claude/claude-models.ts";
import { createClaudeNativeStreamConverter } from "../claude/claude-native.ts";
import { convertClaudeResponse } from "../claude/claude-response.ts";
import { createClaudeStreamConverter } from "../claude/claude-stream.ts";
import { geminiStreamError } from "../gemini/gemini-errors.ts";
import { currentGeminiSettings, geminiCallOf, methodQuery } from "../gemini/gemini.ts";
import { nextPageToken, modelsRequest } from "../gemini/gemini-models.ts";
import { convertNativeResponse, createNativeStreamConverter } from "../gemini/gemini-native.ts";
import { convertGeminiChat } from "../gemini/gemini-response.ts";
import { bareModel } from "../gemini/gemini-settings.ts";
import { createGeminiStreamConverter } from "../gemini/gemini-stream.ts";
import { unsupportedEndpoint } from "../openai-format/chat-request.ts";
import { vertexClaudeCall } from "./vertex-claude.ts";
import { parseVertexError } from "./vertex-errors.ts";
import { parseServiceAccount } from "./vertex-key.ts";
import { defaultRegion, hostOf, regionOf } from "./vertex-region.ts";
import { vertexCredential } from "./vertex-token.ts";

export const isClaudeModel = (model: string) => bareModel(model).startsWith("claude");
const isClaudeCall = (call: Pick<RelayCall, "upstreamModel">) => isClaudeModel(call.upstreamModel);

function bearer(target: UpstreamTarget): Record<string, string> {
  return { authorization: `Bearer ${target.credential ?? ""}` };
}

/** The base of a region's URLs: the channel's base URL override, else the region's host. */
const baseOf = (target: UpstreamTarget, region: string) => target.baseUrl || hostOf(region);

function publisherUrl(call: RelayCall, target: UpstreamTarget, publisher: string, model: string, method: string): string {
  const project = parseServiceAccount(target.key).projectId;
  const region = regionOf(target.other, [call.upstreamModel, call.model]);
  // "@" may stand in a path segment (RFC 3986), and Vertex's Claude ids carry one: it stays literal.
  const segment = encodeURIComponent(model).replaceAll("%40", "@");
  return `${baseOf(target, region)}/v1/projects/${project}/locations/${region}/publishers/${publisher}/models/${segment}:${method}`;
}

const accept = (call: RelayCall) => (call.stream ? "text/event-stream" : "application/json");

function refuseFormat(): never {
  throw new AppError("invalid", "Vertex AI 渠道的 Gemini 模型只接受 OpenAI 或 Gemini 格式的请求，Claude 模型只接受 OpenAI 或 Claude 格式的请求", undefined, {
    httpStatus: 501,
    code: "convert_request_failed",
  });
}

function geminiRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
  if (call.format === "claude") refuseFormat();
  if (call.endpoint !== "chat") throw unsupportedEndpoint();
  const { method, body } = geminiCallOf(call, currentGeminiSettings());
  return {
    url: publisherUrl(call, target, "google", bareModel(call.upstreamModel), method) + methodQuery(method),
    method: "POST",
    headers: { ...bearer(target), "content-type": "application/json", accept: accept(call) },
    body,
  };
}

function claudeRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
  if (call.format === "gemini") refuseFormat();
  if (call.endpoint !== "chat") throw unsupportedEndpoint();
  const { model, method, body } = vertexClaudeCall(call);
  const beta = call.vendorHeaders?.["anthropic-beta"];
  return {
    url: publisherUrl(call, target, "anthropic", model, method),
    method: "POST",
    headers: { ...bearer(target), "content-type": "application/json", accept: accept(call), ...(beta ? { "anthropic-beta": beta } : {}) },
    body: JSON.stringify(body),
  };
}

export const vertexAdaptor: ProviderAdaptor = {
  kind: 41,
  name: "Vertex AI",
  owner: "google",
  defaultBaseUrl: hostOf(defaultRegion),
  defaultModels: channelTypeInfo(41)?.models ?? [],
  nativeFormats: ["gemini", "claude"],
  credential: vertexCredential,

  buildRequest: (call, target) => (isClaudeCall(call) ? claudeRequest(call, target) : geminiRequest(call, target)),
  // Claude requires an output limit; Gemini models take the relay's usual allowance.
  defaultMaxTokens: (model) => (isClaudeModel(model) ? defaultMaxTokens(model) : 0),
  convertResponse(call, bytes, contentType) {
    if (isClaudeCall(call)) return convertClaudeResponse(call, bytes, contentType);
    if (call.format === "gemini") return convertNativeResponse(call, bytes, contentType);
    return convertGeminiChat(call, bytes);
  },
  createStreamConverter(call, countCompletion) {
    if (isClaudeCall(call)) {
      return call.format === "claude" ? createClaudeNativeStreamConverter(call, countCompletion) : createClaudeStreamConverter(call, countCompletion);
    }
    if (call.format === "gemini") return createNativeStreamConverter(countCompletion);
    return createGeminiStreamConverter(call, countCompletion);
  },
  parseError: parseVertexError,
  streamError: (event, call) => (isClaudeCall(call) ? claudeStreamError(event) : geminiStreamError(event, call)),

  buildModelsRequest(target) {
    return modelsRequest(`${baseOf(target, regionOf(target.other, []))}/v1beta1/publishers/google/models`, bearer(target));
  },
  parseModels(body) {
    const list = JSON.parse(body) as { publisherModels?: { name?: unknown }[] };
    if (!Array.isArray(list.publisherModels)) throw new Error("no model list");
    return list.publisherModels
      .map((model) => (typeof model.name === "string" ? model.name.replace(/^publishers\/[^/]+\/models\//, "") : ""))
      .filter((name) => name !== "");
  },
  nextModelsRequest(target, body) {
    const token = nextPageToken(body);
    if (!token) return null;
    return modelsRequest(`${baseOf(target, regionOf(target.other, []))}/v1beta1/publishers/google/models`, bearer(target), token);
  },
};
