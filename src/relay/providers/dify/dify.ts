// Dify (channel type 37): an app's Service API, POST /v1/chat-messages with the app's API key as
// a Bearer token, always in streaming mode (dify-request.ts says how the conversation is carried,
// dify-answer.ts how the events are read). The channel's model names are labels for the app: the
// app decides its model. Chat only; Dify lists no models and reports no balance for an app key.
// Inline images are uploaded through Dify's file upload before the message (dify-upload.ts).
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, UpstreamRequest } from "../adaptor.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { failedAnswer } from "../vendor-format-helpers/whole-answer.ts";
import { difyStreamError, parseDifyError, readDifyEvent } from "./dify-answer.ts";
import { difyBody } from "./dify-request.ts";
import { sendDify } from "./dify-upload.ts";

const defaultBaseUrl = "https://api.dify.ai";

export const difyAdaptor: ProviderAdaptor = {
  type: ChannelType.Dify,
  name: "Dify",
  owner: "dify",
  defaultBaseUrl,

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
  // Inline images are uploaded to Dify first (dify-upload.ts).
  send: sendDify,
  // Only reached when Dify answers a whole JSON body anyway; it has no usable answer for us then.
  convertResponse: () =>
    failedAnswer({ message: "Dify answered without a stream", type: "upstream_error", code: "bad_response_body", param: null }),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readDifyEvent),
  parseError: parseDifyError,
  streamError: difyStreamError,
};
