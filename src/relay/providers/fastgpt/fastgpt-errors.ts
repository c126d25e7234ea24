// FastGPT's failures: HTTP 500 (or an `event: error` in a stream) with {code, statusText,
// message, data} (FastGPT's ERROR_RESPONSE table); statusText says what happened: unAuthApiKey
// and unAuthorization mean the key (the channel is disabled), insufficientQuota the account's
// balance (disabled, and retried elsewhere).
import type { UpstreamErrorDetails } from "../adaptor.ts";

type FastgptFailure = { code?: unknown; statusText?: unknown; message?: unknown };

export function fastgptError(body: unknown, status: number): UpstreamErrorDetails | undefined {
  if (!body || typeof body !== "object") return undefined;
  const failure = body as FastgptFailure;
  if (typeof failure.statusText !== "string" && typeof failure.message !== "string") return undefined;
  if (failure.code === 200) return undefined;
  const statusText = typeof failure.statusText === "string" ? failure.statusText : "";
  const message = typeof failure.message === "string" && failure.message ? failure.message : statusText || `status ${status}`;
  const code = typeof failure.code === "number" || typeof failure.code === "string" ? failure.code : statusText || null;
  if (statusText === "unAuthApiKey" || statusText === "unAuthorization")
    return { message, type: "authentication_error", code, param: null, status: 401 };
  if (statusText === "insufficientQuota") return { message, type: "insufficient_quota", code, param: null, status: 429 };
  return { message, type: "upstream_error", code, param: null, status: status >= 400 ? status : 500 };
}
