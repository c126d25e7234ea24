// Jina AI (channel type 38): embeddings (POST /v1/embeddings, OpenAI's shape plus Jina's task,
// dimensions, late_chunking and image inputs for the CLIP models) and rerank (POST /v1/rerank,
// the format the relay's /v1/rerank speaks) with a Bearer key. Jina's vectors are asked for as
// floats and encoded here when a client wants base64 (its own field is embedding_type, not
// encoding_format). Failures are {detail} with the status: 401 a bad key, 402 no balance left
// (both disable the channel), 429 a rate limit (retried).
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { EndpointKind, ProviderAdaptor, UpstreamErrorDetails } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { unsupportedEndpoint, withoutFields } from "../vendor-format-helpers/chat-request.ts";
import { encodeEmbeddings } from "../vendor-format-helpers/whole-answer.ts";

const vendor = { defaultBaseUrl: "https://api.jina.ai" };

const paths: Partial<Record<EndpointKind, string>> = { embeddings: "/v1/embeddings", rerank: "/v1/rerank" };

function typeOfStatus(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 402) return "insufficient_quota";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "upstream_error" : "invalid_request_error";
}

function parseJinaError(status: number, body: string): UpstreamErrorDetails {
  let detail: unknown;
  try {
    detail = (JSON.parse(body) as { detail?: unknown }).detail;
  } catch {
    detail = undefined;
  }
  // FastAPI's validation errors list the fields at fault.
  if (Array.isArray(detail))
    detail = detail
      .map((item) => (item as { msg?: string })?.msg ?? "")
      .filter(Boolean)
      .join("; ");
  if (typeof detail === "string" && detail) return { message: detail, type: typeOfStatus(status), code: null, param: null };
  return { ...parseOpenAIError(status, body), type: typeOfStatus(status) };
}

const compatible = createCompatibleAdaptor({
  type: ChannelType.Jina,
  name: "Jina",
  owner: "jina",
  ...vendor,
  streamUsage: false,
  url(endpoint, target) {
    const path = paths[endpoint];
    if (!path) throw unsupportedEndpoint();
    return baseUrlOf(vendor, target).replace(/\/v1$/, "") + path;
  },
  modelsUrl: null,
});

export const jinaAdaptor: ProviderAdaptor = {
  ...compatible,
  buildRequest: (call, target) =>
    compatible.buildRequest(call.endpoint === "embeddings" ? withoutFields(call, ["encoding_format"]) : call, target),
  convertResponse: (call, body, contentType) => encodeEmbeddings(call, compatible.convertResponse(call, body, contentType)),
  parseError: parseJinaError,
};
