// Tencent Hunyuan (channel type 23) on Tencent Cloud API 3.0: every call is a POST to the
// product host with the action and version in headers (X-TC-Action: ChatCompletions or
// GetEmbedding, X-TC-Version: 2023-09-01, X-TC-Timestamp), signed with TC3-HMAC-SHA256
// (hunyuan-sign.ts). The key is AppId|SecretId|SecretKey as the console shows them; API 3.0
// signs with SecretId and SecretKey only, so the AppId is accepted and not sent (SecretId|SecretKey
// alone works too). Streams are server-sent events of the answer's fields; failures are 200
// answers with Response.Error (hunyuan-errors.ts). Tencent has no model list or balance on this API.
import { nowSeconds } from "../../../clock.ts";
import { AppError } from "../../../errors/app-error.ts";
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertHunyuanResponse, hunyuanStreamReader } from "./hunyuan-answer.ts";
import { hunyuanStreamError, parseHunyuanError } from "./hunyuan-errors.ts";
import { hunyuanChatBody, hunyuanEmbeddingBody } from "./hunyuan-request.ts";
import { signTc3 } from "./hunyuan-sign.ts";

const defaultBaseUrl = "https://hunyuan.tencentcloudapi.com";
const apiVersion = "2023-09-01";
const contentType = "application/json";

/** SecretId and SecretKey from `AppId|SecretId|SecretKey` (or `SecretId|SecretKey`). */
export function hunyuanCredentials(key: string): { secretId: string; secretKey: string } {
  const parts = key.split("|").map((part) => part.trim());
  const [secretId, secretKey] = parts.length >= 3 ? [parts[1], parts[2]] : [parts[0], parts[1]];
  if (!secretId || !secretKey) {
    throw new AppError("invalid", "按照如下格式输入：AppId|SecretId|SecretKey", undefined, {
      httpStatus: 500,
      code: "invalid_channel_key",
    });
  }
  return { secretId, secretKey };
}

function route(call: RelayCall): { action: string; body: Record<string, unknown> } {
  if (call.endpoint === "chat") return { action: "ChatCompletions", body: hunyuanChatBody(call) };
  if (call.endpoint === "embeddings") return { action: "GetEmbedding", body: hunyuanEmbeddingBody(call) };
  throw unsupportedEndpoint();
}

export function buildHunyuanRequest(call: RelayCall, target: UpstreamTarget, timestamp: number): UpstreamRequest {
  const { action, body } = route(call);
  const url = `${target.baseUrl || defaultBaseUrl}/`;
  const payload = JSON.stringify(body);
  const { secretId, secretKey } = hunyuanCredentials(target.key);
  // The host signed is the name alone, as Tencent's SDK signs it (tencentcloud-sdk-nodejs-common
  // sign.js: `host:${urlObj.hostname}`); Tencent's endpoints have no port.
  const host = new URL(url).hostname;
  const { authorization } = signTc3({ secretId, secretKey, service: "hunyuan", host, timestamp, contentType, payload });
  return {
    url,
    method: "POST",
    headers: {
      authorization,
      "content-type": contentType,
      "x-tc-action": action,
      "x-tc-version": apiVersion,
      "x-tc-timestamp": String(timestamp),
      accept: call.stream ? "text/event-stream" : "application/json",
    },
    body: payload,
  };
}

export const hunyuanAdaptor: ProviderAdaptor = {
  type: ChannelType.Hunyuan,
  name: "Tencent Hunyuan",
  owner: "tencent",
  defaultBaseUrl,

  buildRequest: (call, target) => buildHunyuanRequest(call, target, nowSeconds()),
  convertResponse: (call, body) => convertHunyuanResponse(call, body),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, hunyuanStreamReader()),
  parseError: parseHunyuanError,
  streamError: hunyuanStreamError,
};
