// iFlytek Spark (channel type 18) over its WebSocket API. The key is `APPID|APISecret|APIKey`;
// each call opens a socket on a freshly signed URL (spark-auth.ts), sends one request frame and
// reads the answer frames (spark-socket.ts) as a stream, which the relay folds for clients that
// want a whole answer. The version picks path and domain (spark-request.ts). Chat only; iFlytek
// lists no models and reports no balance on this API.
import { nowMs } from "../../../clock.ts";
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { failedAnswer } from "../vendor-format-helpers/whole-answer.ts";
import { parseSparkError, sparkStreamError, sparkStreamReader } from "./spark-answer.ts";
import { signedSparkUrl, sparkKeyParts } from "./spark-auth.ts";
import { sparkFrame, sparkRouteOf, sparkVersionOf } from "./spark-request.ts";
import { sendSpark } from "./spark-socket.ts";

const defaultBaseUrl = "wss://spark-api.xf-yun.com";

/** The socket base: the channel's address with http(s) written as ws(s). */
function socketBaseOf(target: UpstreamTarget): string {
  return (target.baseUrl || defaultBaseUrl).replace(/^http(s?):\/\//i, "ws$1://");
}

export const sparkAdaptor: ProviderAdaptor = {
  type: ChannelType.Spark,
  name: "iFlytek Spark",
  owner: "xunfei",
  defaultBaseUrl,

  buildRequest(call, target): UpstreamRequest {
    if (call.endpoint !== "chat") throw unsupportedEndpoint();
    const credentials = sparkKeyParts(target.key);
    const { path, domain } = sparkRouteOf(sparkVersionOf(call.upstreamModel, target.other));
    const url = signedSparkUrl(socketBaseOf(target) + path, credentials, new Date(nowMs()));
    return { url, method: "GET", headers: {}, body: JSON.stringify(sparkFrame(call, credentials.appId, domain)) };
  },
  send: sendSpark,
  // Spark always streams; a failed first frame arrives as a whole body (see spark-socket.ts).
  convertResponse: (_call, body, _contentType) => failedAnswer(parseSparkError(200, new TextDecoder().decode(body))),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, sparkStreamReader()),
  parseError: parseSparkError,
  streamError: sparkStreamError,
};
