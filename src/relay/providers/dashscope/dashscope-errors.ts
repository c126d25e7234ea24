// DashScope's failures: an HTTP status with {code, message, request_id}, or on a stream an
// `event:error` with the same object. The codes that mean a dead key or an unpaid account are
// typed so the channel is disabled (InvalidApiKey, Arrearage, AccessDenied); Throttling.* are
// rate limits (429, retried, never disabling). Codes from Model Studio's error code page.
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

function typeOf(code: string): string {
  if (code === "InvalidApiKey") return "authentication_error";
  if (code === "Arrearage") return "insufficient_quota";
  if (code.startsWith("AccessDenied")) return "permission_error";
  if (code.startsWith("Throttling")) return "rate_limit_error";
  if (code === "DataInspectionFailed") return "content_filter";
  return "upstream_error";
}

/** The status an error code stands for, when it comes without one (a stream, a failed task). */
export function statusOfCode(code: string): number {
  if (code === "InvalidApiKey") return 401;
  if (code.startsWith("AccessDenied")) return 403;
  if (code.startsWith("Throttling")) return 429;
  if (code === "InternalError" || code.startsWith("InternalError") || code === "SystemError") return 500;
  if (code === "ServiceUnavailable" || code === "ModelServiceFailed") return 503;
  return 400;
}

export function dashScopeErrorOf(body: unknown): UpstreamErrorDetails | undefined {
  if (!body || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  const output = record.output as Record<string, unknown> | undefined;
  // A failed task reports its code inside the output.
  const source =
    typeof record.code === "string" && record.code ? record : typeof output?.code === "string" && output.code ? output : undefined;
  if (!source) return undefined;
  const code = source.code as string;
  const message = typeof source.message === "string" && source.message ? source.message : code;
  return { message, type: typeOf(code), code, param: null, status: statusOfCode(code) };
}

export function parseDashScopeError(status: number, body: string): UpstreamErrorDetails {
  return dashScopeErrorOf(jsonOrUndefined(body)) ?? parseOpenAIError(status, body);
}

export function dashScopeStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  if (event.event !== "error" && !event.data.includes('"code"')) return undefined;
  return dashScopeErrorOf(jsonOrUndefined(event.data)) ?? (event.event === "error" ? parseOpenAIError(500, event.data) : undefined);
}
