// MiniMax's failures: HTTP 200 with base_resp {status_code, status_msg} (status_code 0 = success),
// also as the only event of a stream that failed before answering. Codes from MiniMax's "错误码
// 查询" page: 1000/1001/1024/1033 are its own faults (retried), 1002 and 1039/1041 rate, token and
// connection limits (429, retried), 1004 and 2049 a bad key (disabled), 1008 an empty balance
// (disabled, and retried elsewhere), 1026/1027 sensitive content, 2013 invalid parameters.
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

function minimaxVerdict(code: number): { status: number; type: string } {
  if (code === 1004 || code === 2049) return { status: 401, type: "authentication_error" };
  if (code === 1008) return { status: 429, type: "insufficient_quota" };
  if (code === 1002 || code === 1039 || code === 1041) return { status: 429, type: "rate_limit_error" };
  if (code === 1001) return { status: 504, type: "upstream_error" };
  if (code === 1026 || code === 1027) return { status: 400, type: "content_filter" };
  if (code === 2013 || (code >= 2000 && code < 3000)) return { status: 400, type: "invalid_request_error" };
  return { status: 500, type: "upstream_error" };
}

type BaseResp = { status_code?: unknown; status_msg?: unknown };

/** The error of a body whose base_resp says it failed. */
export function minimaxErrorOf(body: unknown): UpstreamErrorDetails | undefined {
  const base = (body as { base_resp?: BaseResp } | null)?.base_resp;
  const code = Number(base?.status_code);
  if (!base || !Number.isFinite(code) || code === 0) return undefined;
  const message = typeof base.status_msg === "string" && base.status_msg ? base.status_msg : `status_code ${code}`;
  return { message, code, param: null, ...minimaxVerdict(code) };
}

export function parseMinimaxError(status: number, body: string): UpstreamErrorDetails {
  return minimaxErrorOf(jsonOrUndefined(body)) ?? parseOpenAIError(status, body);
}

export function minimaxStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  if (!event.data.includes('"base_resp"')) return undefined;
  return minimaxErrorOf(jsonOrUndefined(event.data));
}
