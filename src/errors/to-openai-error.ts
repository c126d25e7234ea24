// AppError -> the OpenAI error object of the relay face: {"error":{message,type,param,code}}
// with a status that says what happened. Messages stay in Chinese by default: scripts written
// for new-api match on them.
import type { Translate } from "../i18n/i18n.ts";
import type { AppError, ErrorKind } from "./app-error.ts";

const statusByKind: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  too_large: 413,
  insufficient_quota: 403,
  unavailable: 503,
  upstream: 502,
  internal: 500,
};

export type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | number | null };
};

export function toOpenAIError(error: AppError, translate: Translate, requestId?: string): { status: number; body: OpenAIErrorBody } {
  const message = translate(error.messageKey, error.params);
  return {
    status: error.httpStatus ?? statusByKind[error.kind],
    body: {
      error: {
        message: requestId ? `${message} (request id: ${requestId})` : message,
        type: error.kind === "upstream" ? "upstream_error" : "new_api_error",
        param: null,
        code: error.code ?? null,
      },
    },
  };
}
