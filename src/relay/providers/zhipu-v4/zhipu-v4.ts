// Zhipu GLM on the v4 API (channel type 26): OpenAI's wire format under /api/paas/v4 (chat with
// tools, embeddings, CogView images), authorised by the signed JWT as a Bearer token. Zhipu sends
// the usage in its last stream chunk by itself and does not know stream_options; fields it does
// not document are not forwarded. Errors are {error: {code, message}} with Zhipu's business
// codes, typed so an account in arrears (1113, sent as 429) disables the channel. Images: GLM-4V's
// reference (open.bigmodel.cn, "GLM-4V" API: image_url.url is "图片的 URL 地址或者 Base64 编码",
// its example passes the bare base64 of the file) takes base64 without a data: prefix, so a data:
// URL's prefix is taken off; links go as they are. The output limit is max_tokens (max_completion_tokens
// is sent under that name); reasoning_effort becomes GLM's thinking switch ("none" disabled, any
// other effort enabled: GLM has no levels); response_format json_object is its own; json_schema,
// parallel_tool_calls: false, service tiers and other modalities have no GLM field and are refused.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ConvertedResponse, EndpointKind, ProviderAdaptor, RelayCall, UpstreamErrorDetails } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { openAIStreamError, parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { encodeEmbeddings } from "../vendor-format-helpers/whole-answer.ts";
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
  "model",
  "messages",
  "stream",
  "temperature",
  "top_p",
  "max_tokens",
  "stop",
  "tools",
  "tool_choice",
  "tool_stream",
  "response_format",
  "do_sample",
  "request_id",
  "user_id",
  "thinking",
  "meta",
  "input",
  "dimensions",
  "prompt",
  "size",
  "quality",
]);

/** A numeric business code becomes the status and type it stands for. */
function typed(details: UpstreamErrorDetails): UpstreamErrorDetails {
  const code = Number(details.code);
  if (!Number.isInteger(code) || code < 1000) return details;
  const verdict = zhipuError(code, details.message);
  return { ...details, type: verdict.type, code: verdict.code, status: verdict.status };
}

const compatible = createCompatibleAdaptor({
  type: ChannelType.ZhipuV4,
  name: "Zhipu GLM-4",
  owner: "zhipu",
  ...vendor,
  streamUsage: false,
  allowedFields: documentedFields,
  maxTokensOnly: true,
  fieldSupport: { outputLimit: true, reasoningEffort: true, jsonObject: true },
  url(endpoint, target) {
    const path = paths[endpoint];
    if (!path) throw unsupportedEndpoint();
    return baseUrlOf(vendor, target).replace(/\/api\/paas\/v4$/, "") + path;
  },
  authHeaders: (target) => ({ authorization: `Bearer ${zhipuToken(target.key)}` }),
  modelsUrl: null,
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

/** reasoning_effort as GLM's thinking switch (a thinking the client set itself wins). */
function withThinking(call: RelayCall): RelayCall {
  const effort = call.json?.reasoning_effort;
  if (typeof effort !== "string" || call.json?.thinking !== undefined) return call;
  const json = { ...call.json, thinking: { type: effort === "none" ? "disabled" : "enabled" } };
  return { ...call, json, rawBody: new TextEncoder().encode(JSON.stringify(json)) };
}

const dataUrl = /^data:[^;,]+;base64,/;

type Part = { type?: unknown; image_url?: string | { url?: unknown } };

const imageUrlOf = (part: Part): unknown =>
  part?.type === "image_url" ? (typeof part.image_url === "string" ? part.image_url : part.image_url?.url) : undefined;
const isDataImage = (part: Part) => {
  const url = imageUrlOf(part);
  return typeof url === "string" && dataUrl.test(url);
};

/** The call with its data: image URLs as bare base64 (the form GLM-4V documents). */
function withBareBase64Images(call: RelayCall): RelayCall {
  const messages = call.json?.messages;
  if (!Array.isArray(messages)) return call;
  const hasData = messages.some((message: { content?: unknown }) => Array.isArray(message?.content) && message.content.some(isDataImage));
  if (!hasData) return call;
  const converted = messages.map((message: Record<string, any>) =>
    Array.isArray(message?.content)
      ? {
          ...message,
          content: message.content.map((part: Part) => {
            if (!isDataImage(part)) return part;
            const url = (imageUrlOf(part) as string).replace(dataUrl, "");
            return { ...part, image_url: typeof part.image_url === "string" ? { url } : { ...part.image_url, url } };
          }),
        }
      : message,
  );
  const json = { ...call.json, messages: converted };
  return { ...call, json, rawBody: new TextEncoder().encode(JSON.stringify(json)) };
}

export const zhipuV4Adaptor: ProviderAdaptor = {
  ...compatible,
  buildRequest: (call, target) =>
    compatible.buildRequest(call.endpoint === "chat" ? withThinking(withBareBase64Images(call)) : call, target),
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
