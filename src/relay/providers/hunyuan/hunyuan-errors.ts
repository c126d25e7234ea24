// Tencent Cloud's failures. API 3.0 answers HTTP 200 with {Response: {Error: {Code, Message},
// RequestId}} (also in place of a stream); a stream that fails midway carries ErrorMsg {Code,
// Msg} (4000 internal, 4001 model timeout). Each code gets the HTTP status it stands for, so the
// relay's rules decide as for other vendors: bad credentials (AuthFailure.*) and dead or unpaid
// accounts (arrears, exhausted resource packs, a stopped service) disable the channel; rate
// limits are retried. Codes from the common error codes page and the Hunyuan product codes
// (tencentcloud-sdk hunyuan/v20230901 errors).
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

type Verdict = { status: number; type: string };

const unpaid = new Set([
  "ResourceInsufficient.ChargeResourceExhaust",
  "ResourceUnavailable.InArrears",
  "ResourceUnavailable.LowBalance",
  "FailedOperation.ServiceStopArrears",
  "FailedOperation.FreeResourcePackExhausted",
  "FailedOperation.ResourcePackExhausted",
]);
const unavailable = new Set([
  "FailedOperation.ServiceNotActivated",
  "FailedOperation.ServiceStop",
  "FailedOperation.UserUnAuthError",
  "ResourceUnavailable.StopUsing",
  "ResourceUnavailable.NotExist",
  "AuthFailure.UnauthorizedOperation",
]);

function hunyuanVerdict(code: string): Verdict {
  // Our clock, not the key: a signature Tencent finds expired is retried, never a dead key.
  if (code === "AuthFailure.SignatureExpire") return { status: 500, type: "upstream_error" };
  if (unavailable.has(code)) return { status: 403, type: "permission_error" };
  if (code.startsWith("AuthFailure")) return { status: 401, type: "authentication_error" };
  if (unpaid.has(code)) return { status: 429, type: "insufficient_quota" };
  if (code.startsWith("RequestLimitExceeded") || code === "LimitExceeded" || code === "FailedOperation.EngineServerLimitExceeded") {
    return { status: 429, type: "rate_limit_error" };
  }
  if (code === "FailedOperation.EngineRequestTimeout") return { status: 504, type: "upstream_error" };
  if (code.startsWith("OperationDenied")) return { status: 400, type: "content_filter" };
  if (/^(InvalidParameter|MissingParameter|UnknownParameter|InvalidAction|UnsupportedOperation)/.test(code)) {
    return { status: 400, type: "invalid_request_error" };
  }
  return { status: 500, type: "upstream_error" };
}

export function hunyuanError(code: string, message: string): UpstreamErrorDetails {
  return { message: message || code, code, param: null, ...hunyuanVerdict(code) };
}

type TencentBody = { Response?: { Error?: { Code?: unknown; Message?: unknown } }; ErrorMsg?: { Code?: unknown; Msg?: unknown } | null };

/** The error a Tencent body carries (the Response.Error envelope, or a stream's ErrorMsg). */
export function tencentErrorOf(body: unknown): UpstreamErrorDetails | undefined {
  if (!body || typeof body !== "object") return undefined;
  const record = body as TencentBody;
  const error = record.Response?.Error;
  if (error && typeof error.Code === "string") return hunyuanError(error.Code, typeof error.Message === "string" ? error.Message : "");
  const failure = record.ErrorMsg;
  if (failure && (typeof failure.Code === "number" || typeof failure.Msg === "string")) {
    const code = Number(failure.Code);
    return {
      message: typeof failure.Msg === "string" && failure.Msg ? failure.Msg : `ErrorMsg ${code}`,
      type: "upstream_error",
      code,
      param: null,
      status: code === 4001 ? 504 : 500,
    };
  }
  return undefined;
}

export function parseHunyuanError(status: number, body: string): UpstreamErrorDetails {
  return tencentErrorOf(jsonOrUndefined(body)) ?? parseOpenAIError(status, body);
}

export function hunyuanStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  if (!event.data.includes('"Error')) return undefined;
  return tencentErrorOf(jsonOrUndefined(event.data));
}
