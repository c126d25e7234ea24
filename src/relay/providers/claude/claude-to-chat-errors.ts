// Claude's errors: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}},
// as an HTTP answer or as an `error` event inside a stream. The error type is kept as ours, so the
// relay's rules read it: authentication_error and permission_error take the channel out of
// service (channel-health.ts); the statuses decide retries (429 rate_limit_error, 500 api_error
// and 529 overloaded_error are retried on another channel; 400 invalid_request_error,
// 404 not_found_error and 413 request_too_large are the request's fault and are not).
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { unverified } from "../unverified.ts";
import type { ClaudeError, ClaudeErrorBody } from "./claude-wire.ts";

/** The details of a parsed Claude error object, or undefined when it is not one. */
export function claudeErrorOf(value: unknown): UpstreamErrorDetails | undefined {
  const body = unverified<ClaudeErrorBody>(value);
  const error = unverified<ClaudeError>(body?.error);
  if (body?.type !== "error" || !error) return undefined;
  const type = typeof error.type === "string" && error.type !== "" ? error.type : "api_error";
  const message = typeof error.message === "string" && error.message !== "" ? error.message : type;
  return { message, type, code: type, param: null };
}

export function parseClaudeError(status: number, body: string): UpstreamErrorDetails {
  try {
    const details = claudeErrorOf(JSON.parse(body));
    if (details) return details;
  } catch {
    // Not JSON (a proxy's HTML page): described by its status below.
  }
  return parseOpenAIError(status, body);
}

/** An `error` event: the stream failed (before the answer: retried; later: told to the client). */
export function claudeStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  if (event.event !== "error" && !event.data.startsWith('{"type":"error"')) return undefined;
  try {
    return claudeErrorOf(JSON.parse(event.data)) ?? { message: event.data, type: "api_error", code: null, param: null };
  } catch {
    return { message: event.data || "stream error", type: "api_error", code: null, param: null };
  }
}
