// Google PaLM 2 (channel type 11): the legacy chat API, POST {base}/v1beta2/models/{model}:generateMessage
// with the key in x-goog-api-key. Any model name that is not a PaLM chat model (the catalogue's
// "PaLM-2") is served by chat-bison-001. Errors have Gemini's google.rpc shape.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { parseGeminiError } from "../gemini/gemini-to-chat-errors.ts";
import { modelsRequest, nextPageToken, parseGeminiModels } from "../gemini/gemini-models.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import { palmMessageBody } from "./palm-request.ts";
import { convertPalmResponse, createPalmStreamConverter, palmStreamError } from "./palm-response.ts";
import { wholeBodyDecoder } from "./palm-whole-body.ts";

const defaultBaseUrl = "https://generativelanguage.googleapis.com";
const defaultChatModel = "chat-bison-001";

export function palmModelOf(model: string): string {
  const bare = model.replace(/^models\//, "");
  return /^chat-bison/.test(bare) ? bare : defaultChatModel;
}

const baseOf = (target: UpstreamTarget) => target.baseUrl || defaultBaseUrl;
const keyHeaders = (target: UpstreamTarget) => ({ "x-goog-api-key": target.key });

export const palmAdaptor: ProviderAdaptor = {
  type: ChannelType.PaLM,
  name: "Google PaLM2",
  owner: "google",
  defaultBaseUrl,

  buildRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
    if (call.endpoint !== "chat") throw unsupportedEndpoint();
    return {
      url: `${baseOf(target)}/v1beta2/models/${palmModelOf(call.upstreamModel)}:generateMessage`,
      method: "POST",
      headers: { ...keyHeaders(target), "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify((refuseUnsupportedFields(call, "PaLM 2", { outputLimit: false }), palmMessageBody(call.json ?? {}))),
    };
  },
  streamDecoder: wholeBodyDecoder,
  convertResponse: convertPalmResponse,
  createStreamConverter: createPalmStreamConverter,
  parseError: parseGeminiError,
  streamError: palmStreamError,
  modelList: {
    request: (target) => modelsRequest(`${baseOf(target)}/v1beta2/models`, keyHeaders(target)),
    parse: parseGeminiModels,
    next(target, body) {
      const token = nextPageToken(body);
      return token ? modelsRequest(`${baseOf(target)}/v1beta2/models`, keyHeaders(target), token) : null;
    },
  },
};
