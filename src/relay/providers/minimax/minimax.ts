// MiniMax (channel type 35) on chat completion v2 (POST /v1/text/chatcompletion_v2): OpenAI's
// request shape with a Bearer key, sampling values inside (0, 1], answers carrying base_resp
// (minimax-errors.ts), and a stream whose last event is a whole chat.completion
// (minimax-stream.ts). Chat only; MiniMax documents no model list or balance query for this key.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { minimaxErrorOf, minimaxStreamError, parseMinimaxError } from "./minimax-errors.ts";
import { readMinimaxEvent } from "./minimax-stream.ts";

const vendor = { defaultBaseUrl: "https://api.minimaxi.com" };

/** MiniMax refuses 0 (its ranges are (0, 1]): values are moved inside. */
const intoOpenUnit = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0.01, value)) : value);

export function minimaxCall(call: RelayCall): RelayCall {
  const json = call.json;
  if (!json || (json.temperature === undefined && json.top_p === undefined)) return call;
  const body = { ...json };
  if (body.temperature !== undefined) body.temperature = intoOpenUnit(body.temperature);
  if (body.top_p !== undefined) body.top_p = intoOpenUnit(body.top_p);
  return { ...call, json: body, rawBody: new TextEncoder().encode(JSON.stringify(body)) };
}

const compatible = createCompatibleAdaptor({
  type: ChannelType.MiniMax,
  name: "MiniMax",
  owner: "minimax",
  ...vendor,
  streamUsage: false,
  url(endpoint, target) {
    if (endpoint !== "chat") throw unsupportedEndpoint();
    return `${baseUrlOf(vendor, target).replace(/\/v1$/, "")}/v1/text/chatcompletion_v2`;
  },
  modelsUrl: null,
});

export const minimaxAdaptor: ProviderAdaptor = {
  ...compatible,
  buildRequest: (call, target) => compatible.buildRequest(minimaxCall(call), target),
  convertResponse(call, body, contentType) {
    const converted = compatible.convertResponse(call, body, contentType);
    if (converted.error) return converted;
    // An answer with usage can still be a failure here: base_resp decides.
    const text = new TextDecoder().decode(body);
    if (!text.includes('"base_resp"')) return converted;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return converted;
    }
    const error = minimaxErrorOf(parsed);
    return error ? { ...converted, usage: null, error } : converted;
  },
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readMinimaxEvent),
  parseError: parseMinimaxError,
  streamError: minimaxStreamError,
};
