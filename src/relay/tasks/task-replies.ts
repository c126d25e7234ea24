// The answers of the task routes in the shapes their clients read: midjourney-proxy's
// {code, description, properties, result} on /mj, the Suno API proxies' {code, message, data}
// on /suno. Our own errors keep the status their kind has on the relay, and carry the request id
// and (a 429) the Retry-After like every relay error.
import { isAppError } from "../../errors/app-error.ts";
import { toOpenAIError } from "../../errors/to-openai-error.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import { relayHeaders, retryAfterHeader } from "../pipeline/relay-errors.ts";
import type { PlainAnswer } from "../upstream/send-once.ts";
import { scrubMessage } from "../upstream/upstream-failure.ts";
import type { UpstreamTarget } from "../providers/adaptor.ts";
import { AppError } from "../../errors/app-error.ts";

export function taskJson(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId), ...extra },
  });
}

type Described = { status: number; message: string; kind: string; code: string | null; headers?: Record<string, string> };

function describe(error: unknown, translate: Translate, requestId: string): Described {
  if (isAppError(error)) {
    const { status, body } = toOpenAIError(error, translate, requestId);
    const code = typeof body.error.code === "string" ? body.error.code : null;
    return { status, message: body.error.message, kind: error.kind, code, headers: retryAfterHeader(status, error.params?.seconds) };
  }
  logger.error("task request failed", { requestId, error: error instanceof Error ? error.stack : String(error) });
  const message = translate("服务器内部错误，请联系管理员");
  return { status: 500, message: `${message} (request id: ${requestId})`, kind: "internal", code: "internal_error" };
}

/** midjourney-proxy's return codes for what went wrong here: 3 not found, 4 refused, 9 failed. */
const mjCodeByKind: Record<string, number> = {
  not_found: 3,
  invalid: 4,
  forbidden: 4,
  unauthorized: 4,
  insufficient_quota: 4,
  rate_limited: 4,
  too_large: 4,
};

export function mjErrorResponse(error: unknown, translate: Translate, requestId: string): Response {
  const { status, message, kind, code, headers } = describe(error, translate, requestId);
  const body = {
    code: mjCodeByKind[kind] ?? 9,
    description: message,
    type: kind === "upstream" ? "upstream_error" : "new_api_error",
    // The proxy's code is a number for every refusal: our own code tells them apart.
    properties: code ? { error_code: code } : {},
    result: null,
  };
  return taskJson(status, body, requestId, headers);
}

export function sunoErrorResponse(error: unknown, translate: Translate, requestId: string): Response {
  const { status, message, kind, code, headers } = describe(error, translate, requestId);
  return taskJson(status, { code: code ?? kind, message, data: null }, requestId, headers);
}

/** An upstream that did not answer, or answered with an HTTP error, as our error (scrubbed). */
export function upstreamAnswerError(answer: PlainAnswer, target: UpstreamTarget): AppError {
  const detail = answer.failure ?? (answer.text.trim().slice(0, 300) || `HTTP ${answer.status}`);
  return new AppError(
    "upstream",
    "上游返回错误：{{message}}",
    { message: scrubMessage(detail, target) },
    { httpStatus: answer.status === 429 ? 429 : 502 },
  );
}
