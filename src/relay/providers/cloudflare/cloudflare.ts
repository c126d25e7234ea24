// Cloudflare Workers AI (channel type 39): the OpenAI-compatible endpoints Cloudflare documents,
// {base}/client/v4/accounts/{account id}/ai/v1/chat/completions and …/ai/v1/embeddings, with an
// API token as Bearer; the account id is the channel's other field. "Fetch models" reads the
// account's model catalogue (…/ai/models/search). Failures come in Cloudflare's API envelope
// {success: false, errors: [{code, message}]} (or OpenAI's error object); codes that mean the
// account cannot serve (3036 daily allocation used up, 3023 account blocked, 10000 bad token)
// disable the channel, 3040 (out of capacity) is retried. Cloudflare reports no balance here.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { AppError } from "../../../errors/app-error.ts";
import type { EndpointKind, ProviderAdaptor, SseEvent, UpstreamErrorDetails, UpstreamTarget } from "../adaptor.ts";
import { baseUrlOf, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { errorOfBody, openAIStreamError } from "../openai-compatible/openai-errors.ts";
import { unsupportedEndpoint, withoutFields } from "../vendor-format-helpers/chat-request.ts";
import { encodeEmbeddings } from "../vendor-format-helpers/whole-answer.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

const vendor = { defaultBaseUrl: "https://api.cloudflare.com" };

const paths: Partial<Record<EndpointKind, string>> = { chat: "/ai/v1/chat/completions", embeddings: "/ai/v1/embeddings" };

function accountRoot(target: UpstreamTarget): string {
  if (!target.other)
    throw new AppError("invalid", "请输入 Account ID，例如：d6b5da8hk1awo8nap34ube6gh", undefined, {
      httpStatus: 500,
      code: "channel_account_missing",
    });
  const base = baseUrlOf(vendor, target).replace(/\/client\/v4$/, "");
  return `${base}/client/v4/accounts/${encodeURIComponent(target.other)}`;
}

function typed(code: number, status: number): { type: string; status: number } {
  if (code === 10000 || status === 401) return { type: "authentication_error", status: 401 };
  if (code === 3036) return { type: "insufficient_quota", status: 429 };
  if (code === 3023) return { type: "permission_error", status: 403 };
  if (code === 3040 || status === 429) return { type: "rate_limit_error", status: 429 };
  if (code === 3007 || code === 3008) return { type: "upstream_error", status: 504 };
  return { type: status >= 500 ? "upstream_error" : "invalid_request_error", status };
}

type Envelope = { success?: boolean; errors?: { code?: unknown; message?: unknown }[] };

function cloudflareError(body: unknown, status: number): UpstreamErrorDetails | undefined {
  const envelope = body as Envelope | null;
  const first = Array.isArray(envelope?.errors) ? envelope.errors[0] : undefined;
  if (first && typeof first.message === "string") {
    const code = Number(first.code);
    return { message: first.message, code: Number.isFinite(code) ? code : null, param: null, ...typed(code, status) };
  }
  const openai = errorOfBody(body);
  return openai && { ...openai, ...typed(Number(openai.code), status) };
}

const compatible = createCompatibleAdaptor({
  type: ChannelType.Cloudflare,
  name: "Cloudflare Workers AI",
  owner: "cloudflare",
  ...vendor,
  // Its chat reference documents max_tokens, not max_completion_tokens.
  maxTokensOnly: true,
  streamUsage: false,
  url(endpoint, target) {
    const path = paths[endpoint];
    if (!path) throw unsupportedEndpoint();
    return accountRoot(target) + path;
  },
  modelsUrl: (target) => `${accountRoot(target)}/ai/models/search?per_page=1000`,
});

type ModelSearch = { result?: { name?: unknown; task?: { name?: unknown } }[] };
const servedTasks = new Set(["Text Generation", "Text Embeddings"]);

export const cloudflareAdaptor: ProviderAdaptor = {
  ...compatible,
  // Vectors are asked for as floats (Cloudflare's documented answer) and encoded for base64 clients.
  buildRequest: (call, target) =>
    compatible.buildRequest(call.endpoint === "embeddings" ? withoutFields(call, ["encoding_format"]) : call, target),
  convertResponse(call, body, contentType) {
    const converted = encodeEmbeddings(call, compatible.convertResponse(call, body, contentType));
    if (converted.usage || converted.error) return converted;
    // Cloudflare's envelope can also say {success: false} with a 200.
    const failed = cloudflareError(jsonOrUndefined(new TextDecoder().decode(body)), 502);
    return failed ? { ...converted, error: failed } : converted;
  },
  parseError: (status, body) =>
    cloudflareError(jsonOrUndefined(body), status) ?? {
      message: `bad response status code ${status}`,
      type: typed(0, status).type,
      code: "bad_response_status_code",
      param: String(status),
    },
  streamError(event: SseEvent) {
    if (!event.data.includes('"errors"')) return openAIStreamError(event);
    return cloudflareError(jsonOrUndefined(event.data), 500);
  },
  modelList: {
    request: compatible.modelList!.request,
    parse(body) {
      const models = (JSON.parse(body) as ModelSearch).result ?? [];
      return models
        .filter((model) => typeof model.task?.name !== "string" || servedTasks.has(model.task.name))
        .map((model) => model.name)
        .filter((name): name is string => typeof name === "string" && name !== "");
    },
  },
};
