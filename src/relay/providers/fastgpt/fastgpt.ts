// FastGPT (channel type 22): an app's OpenAPI chat endpoint, POST /api/v1/chat/completions, which
// speaks OpenAI's format (FastGPT docs "对话接口"; the app's own workflow decides model and
// sampling, so those fields are ignored by FastGPT). The key is `APIKey-AppId`: FastGPT's docs
// recommend sending the appId in the body and keep the joined form as a compatibility key for
// clients that can only set a key; the relay sends the API key as the Bearer token and the app
// id as `appId`, and an app-specific key without the suffix (fastgpt-…) as it is. FastGPT does
// not report the tokens its workflow used (its docs say so; any usage numbers it sends are not
// the consumption), so they are dropped and usage is counted locally (fastgpt-stream.ts).
// Failures: fastgpt-errors.ts.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { Bytes, ConvertedResponse, ProviderAdaptor, RelayCall, SseEvent, UpstreamTarget } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { errorOfBody, openAIStreamError } from "../openai-compatible/openai-errors.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { fastgptError } from "./fastgpt-errors.ts";
import { readFastgptEvent } from "./fastgpt-stream.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

const vendor = { defaultBaseUrl: "https://api.fastgpt.in" };

/** `fastgpt-xxx-<24 hex app id>` split at its last dash; a key without an app id stays whole. */
export function fastgptKeyParts(key: string): { apiKey: string; appId?: string } {
  const match = /^(.+)-([0-9a-f]{24})$/i.exec(key.trim());
  return match ? { apiKey: match[1]!, appId: match[2]! } : { apiKey: key.trim() };
}

/** The root URL with a pasted /api or /api/v1 removed. */
const rootOf = (target: UpstreamTarget) => baseUrlOf(vendor, target).replace(/\/api(\/v1)?$/, "");

function withAppId(call: RelayCall, appId: string | undefined): RelayCall {
  if (!appId || !call.json || call.json.appId === appId) return call;
  const json = { ...call.json, appId };
  return { ...call, json, rawBody: new TextEncoder().encode(JSON.stringify(json)) };
}

const compatible = createCompatibleAdaptor({
  type: ChannelType.FastGPT,
  name: "FastGPT",
  owner: "fastgpt",
  ...vendor,
  streamUsage: false,
  url(endpoint, target) {
    if (endpoint !== "chat") throw unsupportedEndpoint();
    return `${rootOf(target)}/api/v1/chat/completions`;
  },
  authHeaders: (target) => ({ authorization: `Bearer ${fastgptKeyParts(target.key).apiKey}` }),
  modelsUrl: null,
});

/**
 * A whole answer without FastGPT's usage numbers, completed into a chat.completion: FastGPT
 * sends no `object` and an empty `model` (its stream is re-sent as the relay's own chunks).
 */
function withoutUsage(call: RelayCall, converted: ConvertedResponse, body: Bytes): ConvertedResponse {
  const parsed = jsonOrUndefined(new TextDecoder().decode(body)) as Record<string, unknown> | undefined;
  if (!parsed || typeof parsed !== "object") return { ...converted, usage: null };
  delete parsed.usage;
  const answer = { ...parsed, object: "chat.completion", model: parsed.model || call.model };
  return { ...converted, body: JSON.stringify(answer), usage: null };
}

export const fastgptAdaptor: ProviderAdaptor = {
  ...compatible,
  buildRequest: (call, target) => compatible.buildRequest(withAppId(call, fastgptKeyParts(target.key).appId), target),
  convertResponse(call, body, contentType) {
    const converted = compatible.convertResponse(call, body, contentType);
    if (converted.error) return converted;
    const failed = fastgptError(jsonOrUndefined(new TextDecoder().decode(body)), 500);
    return failed ? { ...converted, usage: null, error: failed } : withoutUsage(call, converted, body);
  },
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readFastgptEvent),
  parseError(status, body) {
    const parsed = jsonOrUndefined(body);
    return (
      fastgptError(parsed, status) ??
      errorOfBody(parsed) ?? {
        message: `bad response status code ${status}`,
        type: "upstream_error",
        code: "bad_response_status_code",
        param: String(status),
      }
    );
  },
  streamError(event: SseEvent) {
    if (event.event === "error")
      return (
        fastgptError(jsonOrUndefined(event.data), 500) ?? {
          message: event.data || "error",
          type: "upstream_error",
          code: null,
          param: null,
          status: 500,
        }
      );
    return openAIStreamError(event);
  },
};
