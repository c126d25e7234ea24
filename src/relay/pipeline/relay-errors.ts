// Every way a relay request can fail, as one OpenAI error object with a truthful status and the
// request id (new-api appends " (request id: …)" and sends X-Oneapi-Request-Id; clients and
// operators quote it). Our own messages are translated; an upstream's words pass through
// scrubbed, except a final 429, which says the group's upstreams are saturated.
import { isAppError } from "../../errors/app-error.ts";
import { toOpenAIError } from "../../errors/to-openai-error.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";

/** The last upstream failure of a request that could not be served. */
export class UpstreamCallError extends Error {
  constructor(readonly failure: UpstreamFailure) {
    super(failure.details.message);
    this.name = "UpstreamCallError";
  }
}

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

export function relayErrorResponse(error: unknown, translate: Translate, requestId: string): Response {
  if (error instanceof UpstreamCallError) {
    return json(error.failure.status, upstreamErrorBody(error.failure, translate, requestId), requestId);
  }
  if (isAppError(error)) {
    const { status, body } = toOpenAIError(error, translate, requestId);
    const retryAfter = error.kind === "rate_limited" && error.params?.seconds ? { "retry-after": String(error.params.seconds) } : undefined;
    return json(status, body, requestId, retryAfter);
  }
  logger.error("relay request failed", { requestId, error: error instanceof Error ? error.stack : String(error) });
  const message = translate("服务器内部错误，请联系管理员");
  return json(500, { error: { message: `${message} (request id: ${requestId})`, type: "new_api_error", param: null, code: "internal_error" } }, requestId);
}
