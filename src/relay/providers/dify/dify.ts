// Dify (channel type 37): an app's Service API, POST /v1/chat-messages with the app's API key as
// a Bearer token, always in streaming mode (dify-request.ts says how the conversation is carried,
// dify-answer.ts how the events are read). The channel's model names are labels for the app: the
// app decides its model. Chat only; Dify lists no models and reports no balance for an app key.
import { channelTypeInfo } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, UpstreamRequest } from "../adaptor.ts";
import { unsupportedEndpoint } from "../openai-format/chat-request.ts";
import { createChunkStream } from "../openai-format/chunk-stream.ts";
import { failedAnswer } from "../openai-format/whole-answer.ts";
import { difyStreamError, parseDifyError, readDifyEvent } from "./dify-answer.ts";
import { difyBody } from "./dify-request.ts";

const defaultBaseUrl = "https://api.dify.ai";

export const difyAdaptor: ProviderAdaptor = {
  kind: 37,
  name: "Dify",
  owner: "dify",
  defaultBaseUrl,
  defaultModels: channelTypeInfo(37)?.models ?? [],

  buildRequest(call, target): UpstreamRequest {
    if (call.endpoint !== "chat") throw unsupportedEndpoint();
    const base = (target.baseUrl || defaultBaseUrl).replace(/\/v1$/, "");
    return {
      url: `${base}/v1/chat-messages`,
      method: "POST",
      headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(difyBody(call)),
    };
  },
  // Only reached when Dify answers a whole JSON body anyway; it has no usable answer for us then.
  convertResponse: () => failedAnswer({ message: "Dify answered without a stream", type: "upstream_error", code: "bad_response_body", param: null }),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readDifyEvent),
  parseError: parseDifyError,
  streamError: difyStreamError,
  buildModelsRequest: () => null,
  parseModels: () => [],
};
