// Baidu's failures. The v1 API answers 200 with {error_code, error_msg}; the OAuth token endpoint
// answers {error, error_description}. Each code is given the HTTP status it stands for, so the
// relay's rules decide as they do for other vendors: rate limits (4, 18, 336501, 336502) are 429
// and retried; a dead or unpaid account is disabled (6, 13, 14, 15 authentication, 17 and 19
// quota); an invalid or expired access token (100, 110, 111) is only forgotten and exchanged
// again. Codes from Baidu's "错误码" page and its Qianfan SDK.
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

/** Codes that mean our cached access token is no longer accepted (the key may still be good). */
export const rejectedTokenCodes = new Set([100, 110, 111]);

type Verdict = { status: number; type: string };

function verdictOf(code: number): Verdict {
  if (rejectedTokenCodes.has(code)) return { status: 502, type: "upstream_error" };
  if (code === 4 || code === 18 || code === 336501 || code === 336502) return { status: 429, type: "rate_limit_error" };
  if (code === 17 || code === 19) return { status: 429, type: "insufficient_quota" };
  if (code === 6 || code === 15) return { status: 403, type: "permission_error" };
  if (code === 13 || code === 14) return { status: 401, type: "authentication_error" };
  if (code === 2 || code === 336100) return { status: 503, type: "upstream_error" };
  if (code === 3) return { status: 404, type: "invalid_request_error" };
  if (code >= 336001 && code < 336100) return { status: 400, type: "invalid_request_error" };
  if (code === 336104 || code === 336105) return { status: 400, type: "invalid_request_error" };
  return { status: 500, type: "upstream_error" };
}

/** The error a Baidu body carries, or undefined when it is an answer. */
export function baiduErrorOf(body: unknown): UpstreamErrorDetails | undefined {
  if (!body || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.error_code === "number" && record.error_code !== 0) {
    const { status, type } = verdictOf(record.error_code);
    const message = typeof record.error_msg === "string" && record.error_msg ? record.error_msg : `error_code ${record.error_code}`;
    return { message, type, code: record.error_code, param: null, status };
  }
  if (typeof record.error === "string" && record.error) {
    // The OAuth endpoint: invalid_client (unknown API key, wrong secret key) and the like.
    const message = typeof record.error_description === "string" && record.error_description ? record.error_description : record.error;
    return { message, type: "authentication_error", code: record.error, param: null, status: 401 };
  }
  return undefined;
}

export function parseBaiduError(status: number, body: string): UpstreamErrorDetails {
  return baiduErrorOf(jsonOrUndefined(body)) ?? parseOpenAIError(status, body);
}

export function baiduStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  if (!event.data.includes('"error_code"')) return undefined;
  return baiduErrorOf(jsonOrUndefined(event.data));
}
