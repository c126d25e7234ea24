// Baidu Qianfan's v2 inference API (channel type 46): OpenAI's wire format under /v2, with
// Qianfan's own authentication: the console's API Key (bce-v3/ALTAK-…/…) as a Bearer token, and
// optionally the `appid` header naming the v2 application to bill (the channel's other field).
// Chat (with stream usage), embeddings and the model list (GET /v2/models).
import type { EndpointKind, ProviderAdaptor, UpstreamTarget } from "../adaptor.ts";
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { unsupportedEndpoint, withoutFields } from "../openai-format/chat-request.ts";
import { encodeEmbeddings } from "../openai-format/whole-answer.ts";

const vendor = { defaultBaseUrl: "https://qianfan.baidubce.com" };

const paths: Partial<Record<EndpointKind, string>> = {
  chat: "/v2/chat/completions",
  embeddings: "/v2/embeddings",
};

/** The base URL with a pasted "/v2" removed, so paths are not doubled. */
const rootOf = (target: UpstreamTarget) => baseUrlOf(vendor, target).replace(/\/v2$/, "");

const compatible = createCompatibleAdaptor({
  kind: 46,
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
    const headers = bearer(target);
    if (target.other) headers.appid = target.other;
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
