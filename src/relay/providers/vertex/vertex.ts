// Google Vertex AI (channel type 41): models of Google's publisher (Gemini) and of Anthropic's
// (Claude), called in a project's region with an OAuth token obtained from the channel's
// service-account key (vertex-token.ts). Gemini models take the Gemini API's body (the Gemini
// adaptor's conversion) at .../publishers/google/models/{m}:generateContent or
// :streamGenerateContent?alt=sse; Claude models take Claude's body (vertex-claude.ts) at
// .../publishers/anthropic/models/{m}:rawPredict or :streamRawPredict. A call in Gemini's own
// format to a Gemini model, or in Claude's to a Claude model, passes through with the model
// replaced; the other pairings are refused (501: another channel may take them).
//
// A channel whose key is an API key uses Vertex AI in express mode (Google's express-mode REST
// reference): https://aiplatform.googleapis.com/v1/publishers/google/models/{m}:generateContent,
// no project or location, the key as x-goog-api-key (what Google's @google/genai client sends),
// no token exchange. Express mode serves Google's models only: a Claude model is refused (501).
import { AppError } from "../../../errors/app-error.ts";
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { claudeStreamError } from "../claude/claude-to-chat-errors.ts";
import { defaultMaxTokens } from "../claude/claude-models.ts";
import { createClaudeNativeStreamConverter } from "../claude/claude-native.ts";
import { convertClaudeResponse } from "../claude/claude-to-chat-response.ts";
import { createClaudeStreamConverter } from "../claude/claude-to-chat-stream.ts";
import { geminiStreamError } from "../gemini/gemini-to-chat-errors.ts";
import { currentGeminiSettings, geminiCallOf, methodQuery } from "../gemini/gemini.ts";
import { nextPageToken, modelsRequest } from "../gemini/gemini-models.ts";
import { convertNativeResponse, createNativeStreamConverter } from "../gemini/gemini-native.ts";
import { convertGeminiChat } from "../gemini/gemini-to-chat-response.ts";
import { bareModel } from "../gemini/gemini-settings.ts";
import { createGeminiStreamConverter } from "../gemini/gemini-to-chat-stream.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { withInlineImages } from "../vendor-format-helpers/inline-images.ts";
import { vertexClaudeCall } from "./vertex-claude.ts";
import { parseVertexError } from "./vertex-errors.ts";
import { isVertexApiKey, parseServiceAccount } from "./vertex-key.ts";
import { defaultRegion, hostOf, regionOf } from "./vertex-region.ts";
import { vertexCredential } from "./vertex-token.ts";

const isClaudeModel = (model: string) => bareModel(model).startsWith("claude");
const isClaudeCall = (call: Pick<RelayCall, "upstreamModel">) => isClaudeModel(call.upstreamModel);

/** The express-mode host: the global endpoint. */
const expressHost = "https://aiplatform.googleapis.com";

/** The credential headers: the exchanged token, or an express-mode API key as it is. */
function bearer(target: UpstreamTarget): Record<string, string> {
  if (isVertexApiKey(target.key)) return { "x-goog-api-key": target.key.trim() };
  return { authorization: `Bearer ${target.credential ?? ""}` };
}

/** The base of a region's URLs: the channel's base URL override, else the region's host. */
const baseOf = (target: UpstreamTarget, region: string) => target.baseUrl || (isVertexApiKey(target.key) ? expressHost : hostOf(region));

function publisherUrl(call: RelayCall, target: UpstreamTarget, publisher: string, model: string, method: string): string {
  if (isVertexApiKey(target.key))
    return `${baseOf(target, "global")}/v1/publishers/${publisher}/models/${encodeURIComponent(model)}:${method}`;
  const project = parseServiceAccount(target.key).projectId;
  const region = regionOf(target.other, [call.upstreamModel, call.model]);
  // "@" may stand in a path segment (RFC 3986), and Vertex's Claude ids carry one: it stays literal.
  const segment = encodeURIComponent(model).replaceAll("%40", "@");
  return `${baseOf(target, region)}/v1/projects/${project}/locations/${region}/publishers/${publisher}/models/${segment}:${method}`;
}

const accept = (call: RelayCall) => (call.stream ? "text/event-stream" : "application/json");

function refuseFormat(): never {
  throw new AppError(
    "invalid",
    "Vertex AI 渠道的 Gemini 模型只接受 OpenAI 或 Gemini 格式的请求，Claude 模型只接受 OpenAI 或 Claude 格式的请求",
    undefined,
    {
      httpStatus: 501,
      code: "convert_request_failed",
    },
  );
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

function refuseExpressClaude(): never {
  throw new AppError("invalid", "Vertex AI 快速模式（API Key）只提供 Google 的模型，Claude 模型需要服务账号密钥", undefined, {
    httpStatus: 501,
    code: "convert_request_failed",
  });
}

async function claudeRequest(call: RelayCall, target: UpstreamTarget): Promise<UpstreamRequest> {
  if (call.format === "gemini") refuseFormat();
  if (isVertexApiKey(target.key)) refuseExpressClaude();
  if (call.endpoint !== "chat") throw unsupportedEndpoint();
  // Anthropic's publisher on Vertex takes images as base64 only: links are downloaded and inlined.
  const { model, method, body } = vertexClaudeCall(await withInlineImages(call));
  const beta = call.vendorHeaders?.["anthropic-beta"];
  return {
    url: publisherUrl(call, target, "anthropic", model, method),
    method: "POST",
    headers: { ...bearer(target), "content-type": "application/json", accept: accept(call), ...(beta ? { "anthropic-beta": beta } : {}) },
    body: JSON.stringify(body),
  };
}

export const vertexAdaptor: ProviderAdaptor = {
  type: ChannelType.Vertex,
  name: "Vertex AI",
  owner: "google",
  defaultBaseUrl: hostOf(defaultRegion),
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
      return call.format === "claude"
        ? createClaudeNativeStreamConverter(call, countCompletion)
        : createClaudeStreamConverter(call, countCompletion);
    }
    if (call.format === "gemini") return createNativeStreamConverter(countCompletion);
    return createGeminiStreamConverter(call, countCompletion);
  },
  parseError: parseVertexError,
  streamError: (event, call) => (isClaudeCall(call) ? claudeStreamError(event) : geminiStreamError(event, call)),
  modelList: {
    request(target) {
      return modelsRequest(`${baseOf(target, regionOf(target.other, []))}/v1beta1/publishers/google/models`, bearer(target));
    },
    parse(body) {
      const list = JSON.parse(body) as { publisherModels?: { name?: unknown }[] };
      if (!Array.isArray(list.publisherModels)) throw new Error("no model list");
      return list.publisherModels
        .map((model) => (typeof model.name === "string" ? model.name.replace(/^publishers\/[^/]+\/models\//, "") : ""))
        .filter((name) => name !== "");
    },
    next(target, body) {
      const token = nextPageToken(body);
      if (!token) return null;
      return modelsRequest(`${baseOf(target, regionOf(target.other, []))}/v1beta1/publishers/google/models`, bearer(target), token);
    },
  },
};
