// The OpenAI-compatible family as one adaptor factory: a vendor that speaks the OpenAI wire
// format is a page of data (base URL, models, quirks), and only what differs is a function
// (Azure's deployment URL and api-key header, Custom's full URL).
import type { ChannelType } from "../../../services/channels/channel-types.ts";
import type { BalanceQuery, EndpointKind, ModelListing, ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { openAIStreamError, parseOpenAIError } from "./openai-errors.ts";
import { joinBaseUrl, openAIPaths } from "./openai-paths.ts";
import { buildJsonBody, buildMultipartBody, type RequestRules } from "./openai-request.ts";
import { convertOpenAIResponse } from "./openai-response.ts";
import { createOpenAIStreamConverter } from "./openai-stream.ts";
import { buildResponsesBody, convertResponsesAnswer, createResponsesStreamConverter } from "./responses-passthrough.ts";
import { refuseUnsupportedFields, type FieldSupport } from "../vendor-format-helpers/field-support.ts";
import { imageLinksOf, withInlineImages } from "../vendor-format-helpers/inline-images.ts";

export type CompatibleVendor = {
  type: ChannelType;
  name: string;
  owner: string;
  defaultBaseUrl: string;
  /** Whether to ask for the usage chunk on streams (a function when it depends on the channel). */
  streamUsage: boolean | ((target: UpstreamTarget) => boolean);
  reasoningModels?: boolean;
  allowedFields?: ReadonlySet<string>;
  /** The vendor documents max_tokens only (not max_completion_tokens): the limit is renamed. */
  maxTokensOnly?: boolean;
  /**
   * For a vendor that refuses or ignores fields it does not know (an allow-list): the newer
   * OpenAI fields it can carry; the others are refused with 400 (vendor-format-helpers/field-support.ts).
   * Absent: the client's fields pass on and the vendor reads them itself.
   */
  fieldSupport?: FieldSupport;
  /** The URL of an endpoint; default: base URL + the OpenAI path. */
  url?: (endpoint: EndpointKind, target: UpstreamTarget, upstreamModel: string) => string;
  /** Authentication headers; default: Bearer key. */
  authHeaders?: (target: UpstreamTarget) => Record<string, string>;
  /** Where "fetch models" asks; default: base URL + /v1/models; null: the vendor lists none. */
  modelsUrl?: ((target: UpstreamTarget) => string) | null;
  balance?: BalanceQuery;
  /** The vendor takes images only inline (base64): a call's image links are downloaded first. */
  inlineImages?: boolean;
  /** The vendor serves OpenAI's Responses API itself: where, and under which model name. */
  responses?: { url: (target: UpstreamTarget) => string; model?: (upstreamModel: string) => string };
};

export const baseUrlOf = (vendor: Pick<CompatibleVendor, "defaultBaseUrl">, target: UpstreamTarget) =>
  target.baseUrl || vendor.defaultBaseUrl;

export const bearer = (target: UpstreamTarget): Record<string, string> => (target.key ? { authorization: `Bearer ${target.key}` } : {});

const multipartEndpoints = new Set<EndpointKind>(["image-edit", "transcription", "translation"]);

export function createCompatibleAdaptor(vendor: CompatibleVendor): ProviderAdaptor {
  const authHeaders = vendor.authHeaders ?? bearer;
  const urlOf = vendor.url ?? ((endpoint, target) => joinBaseUrl(baseUrlOf(vendor, target), openAIPaths[endpoint]));
  const rulesFor = (target: UpstreamTarget): RequestRules => ({
    streamUsage: typeof vendor.streamUsage === "function" ? vendor.streamUsage(target) : vendor.streamUsage,
    reasoningModels: vendor.reasoningModels ?? false,
    allowedFields: vendor.allowedFields,
    maxTokensOnly: vendor.maxTokensOnly,
  });

  const build = (call: RelayCall, target: UpstreamTarget): UpstreamRequest => {
    if (vendor.fieldSupport) refuseUnsupportedFields(call, vendor.name, vendor.fieldSupport);
    const headers: Record<string, string> = { ...authHeaders(target), accept: call.stream ? "text/event-stream" : "application/json" };
    if (call.format === "responses" && vendor.responses) {
      const model = vendor.responses.model?.(call.upstreamModel) ?? call.upstreamModel;
      headers["content-type"] = "application/json";
      return { url: vendor.responses.url(target), method: "POST", headers, body: buildResponsesBody(call, model) };
    }
    let body: BodyInit;
    if (multipartEndpoints.has(call.endpoint)) {
      const multipart = buildMultipartBody(call);
      body = multipart.body;
      if (multipart.contentType) headers["content-type"] = multipart.contentType;
    } else {
      body = buildJsonBody(call, rulesFor(target));
      headers["content-type"] = "application/json";
    }
    return { url: urlOf(call.endpoint, target, call.upstreamModel), method: "POST", headers, body };
  };

  const modelsUrl = vendor.modelsUrl;
  const modelList: ModelListing | undefined =
    modelsUrl === null
      ? undefined
      : {
          request: (target) => ({
            url: modelsUrl ? modelsUrl(target) : joinBaseUrl(baseUrlOf(vendor, target), "/v1/models"),
            method: "GET",
            headers: authHeaders(target),
          }),
          parse(body) {
            const parsed = JSON.parse(body) as { data?: { id?: unknown }[] };
            const list = parsed.data ?? [];
            return list.map((model) => model.id).filter((id): id is string => typeof id === "string" && id !== "");
          },
        };

  return {
    type: vendor.type,
    name: vendor.name,
    owner: vendor.owner,
    defaultBaseUrl: vendor.defaultBaseUrl,
    ...(vendor.responses ? { nativeFormats: ["responses"] as const } : {}),

    buildRequest: vendor.inlineImages
      ? (call, target) => (imageLinksOf(call).length ? withInlineImages(call).then((inline) => build(inline, target)) : build(call, target))
      : build,
    ...(vendor.responses
      ? {
          buildResponsesStateRequest: (target: UpstreamTarget, method: "GET" | "DELETE", path: string): UpstreamRequest => ({
            url: `${vendor.responses!.url(target)}${path}`,
            method,
            headers: { ...authHeaders(target), accept: "application/json" },
          }),
        }
      : {}),
    convertResponse: (call, body, contentType) =>
      call.format === "responses" ? convertResponsesAnswer(call, body, contentType) : convertOpenAIResponse(call, body, contentType),
    createStreamConverter: (call, count) =>
      call.format === "responses" ? createResponsesStreamConverter(call, count) : createOpenAIStreamConverter(call, count),
    parseError: parseOpenAIError,
    streamError: openAIStreamError,
    ...(modelList ? { modelList } : {}),
    ...(vendor.balance ? { balance: vendor.balance } : {}),
  };
}
