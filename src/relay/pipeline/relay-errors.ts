// Every way a relay request can fail, as one OpenAI error object with a truthful status and the
// request id (new-api appends " (request id: …)" and sends X-Oneapi-Request-Id; clients and
// operators quote it). Our own messages are translated; an upstream's words pass through
// scrubbed, except a final 429, which says the group's upstreams are saturated.
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

export function upstreamErrorBody(failure: UpstreamFailure, translate: Translate, requestId: string) {
  const message =
    failure.status === 429
      ? translate("当前分组上游负载已饱和，请稍后再试")
      : failure.localMessage
        ? translate(failure.details.message)
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

type OpenAIErrorObject = { message: string; type: string; param: string | null; code: string | number | null };

/**
 * Every 429 says when to come back: the limit's own wait, the upstream's Retry-After, or else a
 * short default (the group's upstreams were all saturated a moment ago).
 */
const defaultRetryAfterSeconds = 5;
const retryAfterHeader = (status: number, seconds: unknown) =>
  status === 429 ? { "retry-after": String(typeof seconds === "number" && seconds > 0 ? Math.ceil(seconds) : defaultRetryAfterSeconds) } : undefined;

/** The error object in the client's format (OpenAI's own, or the native format's shape). */
function errorResponse(status: number, error: OpenAIErrorObject, requestId: string, format: InboundFormat, extra?: Record<string, string>): Response {
  const body = format === "openai" ? { error } : errorBodyIn(format, { status, ...error });
  return json(status, body, requestId, extra);
}

export function relayErrorResponse(error: unknown, translate: Translate, requestId: string, format: InboundFormat = "openai"): Response {
  if (error instanceof UpstreamCallError) {
    const { status, retryAfterSeconds } = error.failure;
    return errorResponse(status, upstreamErrorBody(error.failure, translate, requestId).error, requestId, format, retryAfterHeader(status, retryAfterSeconds));
  }
  if (isAppError(error)) {
    const { status, body } = toOpenAIError(error, translate, requestId);
    return errorResponse(status, body.error, requestId, format, retryAfterHeader(status, error.params?.seconds));
  }
  logger.error("relay request failed", { requestId, error: error instanceof Error ? error.stack : String(error) });
  const message = translate("服务器内部错误，请联系管理员");
  return errorResponse(500, { message: `${message} (request id: ${requestId})`, type: "new_api_error", param: null, code: "internal_error" }, requestId, format);
}
