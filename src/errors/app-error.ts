// The one error family of the core. Services throw AppError; each face (relay, /api, pages)
// formats it exactly once (to-openai-error.ts, to-envelope.ts). The message is an i18n key,
// which is the specification's exact Chinese text, translated when the client asked for English.

export type ErrorKind =
  | "invalid" // the request is malformed or breaks a rule
  | "unauthorized" // no or bad credentials
  | "forbidden" // authenticated, but not allowed
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "too_large" // the request body is over the endpoint's limit
  | "insufficient_quota"
  | "unavailable" // nothing can serve it right now (no channel, store down)
  | "upstream" // the provider failed
  | "internal";

export type ErrorParams = Record<string, string | number>;

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly messageKey: string;
  readonly params: ErrorParams | undefined;
  /** Overrides the status the face would pick from the kind (e.g. an upstream's own status). */
  readonly httpStatus: number | undefined;
  /** OpenAI-style machine code, e.g. "insufficient_user_quota". */
  readonly code: string | undefined;
  /** What the /api envelope carries as `data` beside the message, for a client to act on. */
  readonly data: Record<string, unknown> | undefined;

  constructor(
    kind: ErrorKind,
    messageKey: string,
    params?: ErrorParams,
    options?: { httpStatus?: number; code?: string; cause?: unknown; data?: Record<string, unknown> },
  ) {
    super(interpolate(messageKey, params), { cause: options?.cause });
    this.name = "AppError";
    this.kind = kind;
    this.messageKey = messageKey;
    this.params = params;
    this.httpStatus = options?.httpStatus;
    this.code = options?.code;
    this.data = options?.data;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Fills {{name}} placeholders; used for the untranslated (Chinese) message. */
function interpolate(text: string, params?: ErrorParams): string {
  if (!params) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

// Short constructors keep service code readable: `throw invalid("请输入用户名和密码！")`.
export const invalid = (key: string, params?: ErrorParams) => new AppError("invalid", key, params);
/** A broken rule that belongs to one input: `data.field` names it, so a form shows the message beside it. */
export const invalidField = (field: string, key: string, params?: ErrorParams) => new AppError("invalid", key, params, { data: { field } });
export const forbidden = (key: string, params?: ErrorParams) => new AppError("forbidden", key, params);
export const notFound = (key: string, params?: ErrorParams) => new AppError("not_found", key, params);
export const unauthorized = (key: string, params?: ErrorParams) => new AppError("unauthorized", key, params);
