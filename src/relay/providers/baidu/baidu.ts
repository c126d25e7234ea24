// Baidu Wenxin (ERNIE) on the v1 API (channel type 15). The channel key is `APIKey|SecretKey`,
// exchanged at /oauth/2.0/token for an access token (valid 30 days) that every call carries as
// ?access_token=; the relay caches it and exchanges once for concurrent calls. Chat and
// embeddings; each model has its own endpoint (baidu-endpoints.ts). Baidu lists no models and
// reports no balance on this API.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { CredentialExchange, ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertErnieResponse, readErnieEvent } from "./baidu-answer.ts";
import { chatEndpointOf, embeddingEndpointOf } from "./baidu-endpoints.ts";
import { baiduStreamError, parseBaiduError, rejectedTokenCodes } from "./baidu-errors.ts";
import { ernieChatBody, ernieEmbeddingBody } from "./baidu-request.ts";

const defaultBaseUrl = "https://aip.baidubce.com";
const baseOf = (target: UpstreamTarget) => target.baseUrl || defaultBaseUrl;

/** `APIKey|SecretKey` (surrounding spaces forgiven). */
function baiduKeyParts(key: string): { apiKey: string; secretKey: string } {
  const [apiKey = "", secretKey = ""] = key.split("|").map((part) => part.trim());
  return { apiKey, secretKey };
}

export const baiduAccessToken: CredentialExchange = {
  cacheKey: (target) => `${baseOf(target)}|${target.key}`,
  request(target) {
    const { apiKey, secretKey } = baiduKeyParts(target.key);
    const query = new URLSearchParams({ grant_type: "client_credentials", client_id: apiKey, client_secret: secretKey });
    return {
      url: `${baseOf(target)}/oauth/2.0/token?${query}`,
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: "",
    };
  },
  parse(body, nowSeconds) {
    const parsed = JSON.parse(body) as { access_token?: unknown; expires_in?: unknown };
    if (typeof parsed.access_token !== "string" || parsed.access_token === "") throw new Error("no access token");
    const lifetime = typeof parsed.expires_in === "number" && parsed.expires_in > 0 ? parsed.expires_in : 86_400;
    return { value: parsed.access_token, expiresAt: nowSeconds + lifetime };
  },
  rejected: (details) => typeof details.code === "number" && rejectedTokenCodes.has(details.code),
};

function pathOf(call: RelayCall): string {
  if (call.endpoint === "chat") return `chat/${chatEndpointOf(call.upstreamModel)}`;
  if (call.endpoint === "embeddings") return `embeddings/${embeddingEndpointOf(call.upstreamModel)}`;
  throw unsupportedEndpoint();
}

export const baiduAdaptor: ProviderAdaptor = {
  type: ChannelType.Baidu,
  name: "Baidu Wenxin",
  owner: "baidu",
  defaultBaseUrl,
  credential: baiduAccessToken,

  buildRequest(call, target): UpstreamRequest {
    const path = pathOf(call);
    const body = call.endpoint === "chat" ? ernieChatBody(call) : ernieEmbeddingBody(call);
    const token = encodeURIComponent(target.credential ?? "");
    return {
      url: `${baseOf(target)}/rpc/2.0/ai_custom/v1/wenxinworkshop/${path}?access_token=${token}`,
      method: "POST",
      headers: { "content-type": "application/json", accept: call.stream ? "text/event-stream" : "application/json" },
      body: JSON.stringify(body),
    };
  },
  convertResponse: (call, body) => convertErnieResponse(call, body),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readErnieEvent),
  parseError: parseBaiduError,
  streamError: baiduStreamError,
};
