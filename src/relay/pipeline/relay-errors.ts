// Every way a relay request can fail, as one OpenAI error object with a truthful status and the
// request id (new-api appends " (request id: …)" and sends X-Oneapi-Request-Id; clients and
// operators quote it). Our own messages are translated (the client's language, relay-language.ts);
// an upstream's words pass through scrubbed. A final 429 says the group's upstreams are saturated
// and adds the upstream's own reason (scrubbed), so a client can tell a quota from a burst limit.
import { isAppError } from "../../errors/app-error.ts";
import { toOpenAIError } from "../../errors/to-openai-error.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import { errorBodyIn } from "../inbound/codecs.ts";
import type { InboundFormat } from "../providers/adaptor.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";

/** The last upstream failure of a request that could not be served. */
export class UpstreamCallError extends Error {
  constructor(readonly failure: UpstreamFailure) {
    super(failure.details.message);
    this.name = "UpstreamCallError";
  }
}

/** A relay request that arrives while the server stops, or is cut by the stop (in-flight.ts). */
export const serverStoppingMessage = "服务正在停止，请稍后重试";

export const relayHeaders = (requestId: string): Record<string, string> => ({
  "x-oneapi-request-id": requestId,
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "x-oneapi-request-id",
  "x-content-type-options": "nosniff",
});

function json(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId), ...extra },
  });
}

/** The saturated-group message, with the upstream's own reason when it gave one. */
function saturatedMessage(failure: UpstreamFailure, translate: Translate): string {
  const message = translate("当前分组上游负载已饱和，请稍后再试");
  const reason = failure.localMessage ? "" : failure.details.message.trim();
  return reason ? translate("{{message}}（上游原因：{{reason}}）", { message, reason }) : message;
}

function upstreamErrorBody(failure: UpstreamFailure, translate: Translate, requestId: string) {
  const message =
    failure.status === 429
      ? saturatedMessage(failure, translate)
      : failure.localMessage
        ? translate(failure.details.message, failure.localParams)
        : failure.details.message;
  return {
    error: {
      message: `${message} (request id: ${requestId})`,
      type: failure.details.type || "upstream_error",
      param: failure.details.param ?? "",
      code: failure.details.code ?? null,
    },
  };
}

export type OpenAIErrorObject = { message: string; type: string; param: string | null; code: string | number | null };

/**
 * Every 429 says when to come back: the limit's own wait, the upstream's Retry-After, or else a
 * short default (the group's upstreams were all saturated a moment ago).
 */
const defaultRetryAfterSeconds = 5;
/**
 * The official SDKs sleep for whatever Retry-After says: a wait longer than this (a token's
 * budget spent until its period ends) also says x-should-retry: false, so they give up at once
 * instead of hanging for hours.
 */
const longestRetryWaitSeconds = 60;
export const retryAfterHeader = (status: number, seconds: unknown): Record<string, string> | undefined => {
  if (status !== 429) return undefined;
  const wait = typeof seconds === "number" && seconds > 0 ? Math.ceil(seconds) : defaultRetryAfterSeconds;
  return wait > longestRetryWaitSeconds ? { "retry-after": String(wait), "x-should-retry": "false" } : { "retry-after": String(wait) };
};

/** The error object in the client's format (OpenAI's own, or the native format's shape). */
function errorResponse(
  status: number,
  error: OpenAIErrorObject,
  requestId: string,
  format: InboundFormat,
  extra?: Record<string, string>,
): Response {
  const body = format === "openai" ? { error } : errorBodyIn(format, { status, ...error });
  return json(status, body, requestId, extra);
}

/** What a failed relay request answers: the status, the OpenAI error object and extra headers. */
export type RelayErrorParts = { status: number; error: OpenAIErrorObject; headers?: Record<string, string> };

export function relayErrorParts(error: unknown, translate: Translate, requestId: string): RelayErrorParts {
  if (error instanceof UpstreamCallError) {
    const { status, retryAfterSeconds } = error.failure;
    return {
      status,
      error: upstreamErrorBody(error.failure, translate, requestId).error,
      headers: retryAfterHeader(status, retryAfterSeconds),
    };
  }
  if (isAppError(error)) {
    const { status, body } = toOpenAIError(error, translate, requestId);
    // A model without a price cannot be served until the operator prices it: the official SDKs
    // read this header and do not repeat the call.
    const noRetry = error.code === "model_price_not_configured" ? { "x-should-retry": "false" } : undefined;
    return { status, error: body.error, headers: retryAfterHeader(status, error.params?.seconds) ?? noRetry };
  }
  logger.error("relay request failed", { requestId, error: error instanceof Error ? error.stack : String(error) });
  const message = translate("服务器内部错误，请联系管理员");
  return {
    status: 500,
    error: { message: `${message} (request id: ${requestId})`, type: "new_api_error", param: null, code: "internal_error" },
  };
}

/** The error in the client's format (OpenAI's own, or the native format's shape). */
export function relayErrorPartsResponse(parts: RelayErrorParts, requestId: string, format: InboundFormat = "openai"): Response {
  return errorResponse(parts.status, parts.error, requestId, format, parts.headers);
}

export function relayErrorResponse(error: unknown, translate: Translate, requestId: string, format: InboundFormat = "openai"): Response {
  return relayErrorPartsResponse(relayErrorParts(error, translate, requestId), requestId, format);
}
