// Baidu Qianfan's v2 inference API (channel type 46): OpenAI's wire format under /v2, with
// Qianfan's own authentication: the console's API Key (bce-v3/ALTAK-…/…) as a Bearer token, and
// optionally the `appid` header naming the v2 application to bill. The appid is written after the
// key (`key|appid`, the form new-api stores, so one channel can hold keys of several apps) or in
// the channel's other field. Chat (with stream usage), embeddings and the model list (GET /v2/models).
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { EndpointKind, ProviderAdaptor, UpstreamTarget } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { unsupportedEndpoint, withoutFields } from "../vendor-format-helpers/chat-request.ts";
import { encodeEmbeddings } from "../vendor-format-helpers/whole-answer.ts";

const vendor = { defaultBaseUrl: "https://qianfan.baidubce.com" };

const paths: Partial<Record<EndpointKind, string>> = {
  chat: "/v2/chat/completions",
  embeddings: "/v2/embeddings",
};

/** The base URL with a pasted "/v2" removed, so paths are not doubled. */
const rootOf = (target: UpstreamTarget) => baseUrlOf(vendor, target).replace(/\/v2$/, "");

/** The API key and the appid of a channel key `key` or `key|appid` (the other field names a default appid). */
function qianfanKey(target: Pick<UpstreamTarget, "key" | "other">): { apiKey: string; appId: string } {
  const bar = target.key.indexOf("|");
  if (bar < 0) return { apiKey: target.key.trim(), appId: target.other.trim() };
  return { apiKey: target.key.slice(0, bar).trim(), appId: target.key.slice(bar + 1).trim() || target.other.trim() };
}

const compatible = createCompatibleAdaptor({
  type: ChannelType.BaiduV2,
  name: "Baidu Qianfan V2",
  owner: "baidu",
  ...vendor,
  streamUsage: true,
  url(endpoint, target) {
    const path = paths[endpoint];
    if (!path) throw unsupportedEndpoint();
    return rootOf(target) + path;
  },
  authHeaders(target) {
    const { apiKey, appId } = qianfanKey(target);
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    if (appId) headers.appid = appId;
    return headers;
  },
  modelsUrl: (target) => `${rootOf(target)}/v2/models`,
});

/** Vectors come back as float lists; the base64 the official SDKs ask for is encoded here. */
export const baiduV2Adaptor: ProviderAdaptor = {
  ...compatible,
  buildRequest: (call, target) => compatible.buildRequest(withoutFields(call, ["encoding_format"]), target),
  convertResponse: (call, body, contentType) => encodeEmbeddings(call, compatible.convertResponse(call, body, contentType)),
};
