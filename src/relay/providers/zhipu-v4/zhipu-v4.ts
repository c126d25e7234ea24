// Zhipu GLM on the v4 API (channel type 26): OpenAI's wire format under /api/paas/v4 (chat with
// tools, embeddings, CogView images), authorised by the signed JWT as a Bearer token. Zhipu sends
// the usage in its last stream chunk by itself and does not know stream_options; fields it does
// not document are not forwarded. Errors are {error: {code, message}} with Zhipu's business
// codes, typed so an account in arrears (1113, sent as 429) disables the channel.
import type { ConvertedResponse, EndpointKind, ProviderAdaptor, RelayCall, UpstreamErrorDetails } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { openAIStreamError, parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { unsupportedEndpoint } from "../openai-format/chat-request.ts";
import { encodeEmbeddings } from "../openai-format/whole-answer.ts";
import { zhipuError } from "../zhipu/zhipu-errors.ts";
import { zhipuToken } from "../zhipu/zhipu-jwt.ts";

const vendor = { defaultBaseUrl: "https://open.bigmodel.cn" };

const paths: Partial<Record<EndpointKind, string>> = {
  chat: "/api/paas/v4/chat/completions",
  embeddings: "/api/paas/v4/embeddings",
  "image-generation": "/api/paas/v4/images/generations",
};

/** The request fields of Zhipu's v4 reference (chat, embeddings, images). */
const documentedFields = new Set([
  "model", "messages", "stream", "temperature", "top_p", "max_tokens", "stop", "tools", "tool_choice", "tool_stream",
  "response_format", "do_sample", "request_id", "user_id", "thinking", "meta",
  "input", "dimensions", "prompt", "size", "quality",
]);

/** A numeric business code becomes the status and type it stands for. */
function typed(details: UpstreamErrorDetails): UpstreamErrorDetails {
  const code = Number(details.code);
  if (!Number.isInteger(code) || code < 1000) return details;
  const verdict = zhipuError(code, details.message);
  return { ...details, type: verdict.type, code: verdict.code, status: verdict.status };
}

const compatible = createCompatibleAdaptor({
  kind: 26,
  name: "Zhipu GLM-4",
  owner: "zhipu",
  ...vendor,
  streamUsage: false,
  allowedFields: documentedFields,
  url(endpoint, target) {
    const path = paths[endpoint];
    if (!path) throw unsupportedEndpoint();
    return baseUrlOf(vendor, target).replace(/\/api\/paas\/v4$/, "") + path;
  },
  authHeaders: (target) => ({ authorization: `Bearer ${zhipuToken(target.key)}` }),
  modelsUrl: () => null,
});

/** Zhipu's whole chat answer has no `object`; the chat.completion it is gets one. */
function asChatCompletion(call: RelayCall, converted: ConvertedResponse): ConvertedResponse {
  if (call.endpoint !== "chat") return converted;
  const text = typeof converted.body === "string" ? converted.body : new TextDecoder().decode(converted.body);
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(text);
  } catch {
    return converted;
  }
  if (!answer || typeof answer !== "object" || "object" in answer) return converted;
  return { ...converted, body: JSON.stringify({ object: "chat.completion", ...answer }) };
}

export const zhipuV4Adaptor: ProviderAdaptor = {
  ...compatible,
  convertResponse(call, body, contentType) {
    // encoding_format is not Zhipu's: float vectors are encoded here for clients that want base64.
    const converted = encodeEmbeddings(call, compatible.convertResponse(call, body, contentType));
    return converted.error ? { ...converted, error: typed(converted.error) } : asChatCompletion(call, converted);
  },
  parseError: (status, body) => typed(parseOpenAIError(status, body)),
  streamError(event) {
    const error = openAIStreamError(event);
    return error && typed(error);
  },
};
