// Alibaba Qwen on DashScope's native API (channel type 17): Bearer key; chat on text generation
// (multimodal generation for the vision models) streamed with X-DashScope-SSE and incremental
// output; embeddings; image generation as an asynchronous task polled to its end inside the call
// (dashscope-task.ts). The channel's other field is the X-DashScope-Plugin header (插件参数).
// Which models take images is data (dashscope-models.ts): images for a text model are refused.
// DashScope reports no balance on this API; it lists no models on it either.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { stringField, unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertNativeResponse, readNativeEvent } from "./dashscope-answer.ts";
import { dashScopeStreamError, parseDashScopeError } from "./dashscope-errors.ts";
import { multimodalCall, nativeChatBody, nativeEmbeddingBody, nativeImageBody } from "./dashscope-request.ts";
import { imageFormatHeader, sendDashScope } from "./dashscope-task.ts";

const defaultBaseUrl = "https://dashscope.aliyuncs.com";
const baseOf = (target: UpstreamTarget) => target.baseUrl || defaultBaseUrl;

function route(call: RelayCall): { path: string; body: Record<string, unknown> } {
  switch (call.endpoint) {
    case "chat": {
      const multimodal = multimodalCall(call);
      return {
        path: multimodal ? "/api/v1/services/aigc/multimodal-generation/generation" : "/api/v1/services/aigc/text-generation/generation",
        body: nativeChatBody(call, multimodal),
      };
    }
    case "embeddings":
      return { path: "/api/v1/services/embeddings/text-embedding/text-embedding", body: nativeEmbeddingBody(call) };
    case "image-generation":
      return { path: "/api/v1/services/aigc/text2image/image-synthesis", body: nativeImageBody(call) };
    default:
      throw unsupportedEndpoint();
  }
}

export const dashScopeAdaptor: ProviderAdaptor = {
  type: ChannelType.DashScope,
  name: "Alibaba Qwen",
  owner: "ali",
  defaultBaseUrl,

  buildRequest(call, target): UpstreamRequest {
    const { path, body } = route(call);
    const headers: Record<string, string> = { authorization: `Bearer ${target.key}`, "content-type": "application/json" };
    if (call.stream) {
      headers["x-dashscope-sse"] = "enable";
      headers.accept = "text/event-stream";
    } else headers.accept = "application/json";
    if (call.endpoint === "image-generation") {
      headers["x-dashscope-async"] = "enable";
      const format = stringField(call, "response_format");
      if (format) headers[imageFormatHeader] = format;
    }
    if (target.other) headers["x-dashscope-plugin"] = target.other;
    return { url: baseOf(target) + path, method: "POST", headers, body: JSON.stringify(body) };
  },
  send: sendDashScope,
  convertResponse: (call, body) => convertNativeResponse(call, body),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readNativeEvent),
  parseError: parseDashScopeError,
  streamError: dashScopeStreamError,
};
