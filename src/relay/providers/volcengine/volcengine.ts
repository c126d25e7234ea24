// Volcano Engine Ark (channel type 45, 火山方舟/豆包): OpenAI's wire format under /api/v3 with the
// Ark API key as a Bearer token (volcengine.com/docs/82379, "API 调用指南", "应用(Bot) API").
// Models are inference endpoint ids (ep-…) or model ids; application ids (bot-…) are served by
// /api/v3/bots/chat/completions instead. Chat (stream usage through stream_options) and
// embeddings (Ark answers floats only: the base64 the official SDKs ask for is encoded here).
// Ark's errors are {error: {code, message, type}} where `type` is an HTTP reason ("Unauthorized",
// "Forbidden"): the code is typed so an account in arrears disables the channel.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { EndpointKind, ProviderAdaptor, UpstreamErrorDetails, UpstreamTarget } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { openAIStreamError, parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { unsupportedEndpoint, withoutFields } from "../vendor-format-helpers/chat-request.ts";
import { encodeEmbeddings } from "../vendor-format-helpers/whole-answer.ts";

const vendor = { defaultBaseUrl: "https://ark.cn-beijing.volces.com" };

const paths: Partial<Record<EndpointKind, string>> = {
  chat: "/api/v3/chat/completions",
  embeddings: "/api/v3/embeddings",
};

/** The base URL with a pasted "/api/v3" removed, so paths are not doubled. */
const rootOf = (target: UpstreamTarget) => baseUrlOf(vendor, target).replace(/\/api\/v3$/, "");

/** Ark's public error codes (公共错误码) as the types the health rules read. */
function typedArkError(details: UpstreamErrorDetails): UpstreamErrorDetails {
  const code = typeof details.code === "string" ? details.code : "";
  if (code.startsWith("AuthenticationError")) return { ...details, type: "authentication_error" };
  if (code === "AccountOverdueError") return { ...details, type: "insufficient_quota" };
  if (code === "AccessDenied") return { ...details, type: "permission_error" };
  if (code.startsWith("RateLimitExceeded") || code === "ServerOverloaded") return { ...details, type: "rate_limit_error" };
  if (code.startsWith("InvalidEndpoint") || code.startsWith("ModelNotOpen")) return { ...details, type: "invalid_request_error" };
  return details;
}

const compatible = createCompatibleAdaptor({
  type: ChannelType.Volcengine,
  name: "Volcano Ark",
  owner: "volcengine",
  ...vendor,
  streamUsage: true,
  url(endpoint, target, upstreamModel) {
    if (endpoint === "chat" && upstreamModel.startsWith("bot-")) return `${rootOf(target)}/api/v3/bots/chat/completions`;
    const path = paths[endpoint];
    if (!path) throw unsupportedEndpoint();
    return rootOf(target) + path;
  },
  // Ark lists models only through its AK/SK-signed management API, not with the API key.
  modelsUrl: null,
});

export const volcengineAdaptor: ProviderAdaptor = {
  ...compatible,
  buildRequest: (call, target) =>
    compatible.buildRequest(call.endpoint === "embeddings" ? withoutFields(call, ["encoding_format"]) : call, target),
  convertResponse(call, body, contentType) {
    const converted = encodeEmbeddings(call, compatible.convertResponse(call, body, contentType));
    return converted.error ? { ...converted, error: typedArkError(converted.error) } : converted;
  },
  parseError: (status, body) => typedArkError(parseOpenAIError(status, body)),
  streamError(event) {
    const error = openAIStreamError(event);
    return error && typedArkError(error);
  },
};
