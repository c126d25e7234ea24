// MokaAI M3E (channel type 44): the M3E embedding models served by a self-hosted M3E API
// (FastGPT's guide: the m3e-large-api image, port 6008), which speaks OpenAI's POST /v1/embeddings
// with the deployment's sk- key as a Bearer token. It answers floats only, so the base64 the
// official SDKs ask for is encoded here. Embeddings only; there is no model list or balance.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { unsupportedEndpoint, withoutFields } from "../vendor-format-helpers/chat-request.ts";
import { encodeEmbeddings } from "../vendor-format-helpers/whole-answer.ts";

const vendor = { defaultBaseUrl: "http://localhost:6008" };

const compatible = createCompatibleAdaptor({
  type: ChannelType.MokaAI,
  name: "MokaAI M3E",
  owner: "moka-ai",
  ...vendor,
  streamUsage: false,
  url(endpoint, target) {
    if (endpoint !== "embeddings") throw unsupportedEndpoint();
    return `${baseUrlOf(vendor, target).replace(/\/v1$/, "")}/v1/embeddings`;
  },
  modelsUrl: null,
});

export const mokaAIAdaptor: ProviderAdaptor = {
  ...compatible,
  buildRequest: (call, target) => compatible.buildRequest(withoutFields(call, ["encoding_format"]), target),
  convertResponse: (call, body, contentType) => encodeEmbeddings(call, compatible.convertResponse(call, body, contentType)),
};
