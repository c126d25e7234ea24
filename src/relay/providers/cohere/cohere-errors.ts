// Cohere's failures: the HTTP status with {id?, message} (docs.cohere.com "Errors"): 400 a bad
// request, 401 an invalid API key (498 in Cohere's table for an invalid token), 402 a payment
// method or credit missing, 404 an unknown model, 429 a rate or trial-key limit, 499 cancelled,
// 5xx Cohere's own. The statuses already carry the retry verdict; the types say which failures
// mean the key or the account is dead.
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { errorOfBody } from "../openai-compatible/openai-errors.ts";

function typeOfStatus(status: number): string {
  if (status === 401 || status === 498) return "authentication_error";
  if (status === 402) return "insufficient_quota";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "upstream_error";
  return "invalid_request_error";
}

export function parseCohereError(status: number, body: string): UpstreamErrorDetails {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const details = errorOfBody(parsed);
  const type = typeOfStatus(status);
  if (details) return { ...details, type, status };
  return { message: `bad response status code ${status}`, type, code: "bad_response_status_code", param: String(status), status };
}

/** Cohere reports a failure inside a stream only at its end (message-end with finish_reason ERROR). */
export function cohereStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  if (!event.data.includes('"ERROR"')) return undefined;
  try {
    const parsed = JSON.parse(event.data) as { type?: string; delta?: { finish_reason?: string; error?: string } };
    if (parsed.type !== "message-end" || parsed.delta?.finish_reason !== "ERROR") return undefined;
    return { message: parsed.delta.error || "generation failed", type: "upstream_error", code: "ERROR", param: null, status: 500 };
  } catch {
    return undefined;
  }
}
