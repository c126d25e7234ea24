// AppError -> the {success, message, data} envelope of /api (and the console's fragments).
// new-api answers most failures with HTTP 200 and success:false, and its clients rely on it;
// only missing authentication (401), bodies over the limit (413), rate limits (429) and our own
// faults (500) change the status.
import type { Translate } from "../i18n/i18n.ts";
import type { AppError, ErrorKind } from "./app-error.ts";

const statusByKind: Partial<Record<ErrorKind, number>> = {
  unauthorized: 401,
  rate_limited: 429,
  too_large: 413,
  internal: 500,
};

export type Envelope<T = unknown> = { success: boolean; message: string; data?: T };

export function toEnvelope(error: AppError, translate: Translate): { status: number; body: Envelope } {
  return {
    status: error.httpStatus ?? statusByKind[error.kind] ?? 200,
    body: { success: false, message: translate(error.messageKey, error.params), ...(error.data ? { data: error.data } : {}) },
  };
}

export function internalErrorEnvelope(translate: Translate): { status: number; body: Envelope } {
  return { status: 500, body: { success: false, message: translate("服务器内部错误，请联系管理员") } };
}
