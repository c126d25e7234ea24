// Gemini's failures, reduced to what the client and the relay's rules need. Errors come in the
// google.rpc.Status shape ({error: {code, message, status, details}}; wrapped in a list by the
// JSON-array stream). The verdicts come from the type and code we give them:
//   - an invalid or expired API key (a 400 with reason API_KEY_INVALID, or UNAUTHENTICATED):
//     authentication_error / invalid_api_key, so the channel is disabled;
//   - PERMISSION_DENIED (403: key without access, API disabled for the project): permission_error,
//     disabled too;
//   - RESOURCE_EXHAUSTED (429) and 500/503: retried on another channel by their status;
//   - other 4xx (INVALID_ARGUMENT, NOT_FOUND...): the client's problem, neither retried nor disabling.
// A prompt Gemini refused to answer (promptFeedback.blockReason, no candidates) is a 200 that
// carries no answer: it is reported as the client's 400.
import type { RelayCall, SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { unverified, unverifiedList } from "../unverified.ts";
import type { GeminiErrorBody, GeminiPromptFeedback, GeminiResponse } from "./gemini-wire.ts";

type RpcStatus = GeminiErrorBody["error"];

const keyReasons = new Set(["API_KEY_INVALID", "API_KEY_EXPIRED", "API_KEY_SERVICE_BLOCKED"]);

function typeOf(status: string, reason: string): { type: string; code: string } {
  if (keyReasons.has(reason) || status === "UNAUTHENTICATED") return { type: "authentication_error", code: "invalid_api_key" };
  if (status === "PERMISSION_DENIED") return { type: "permission_error", code: status };
  if (status === "RESOURCE_EXHAUSTED") return { type: "rate_limit_error", code: status };
  if (status === "INTERNAL" || status === "UNAVAILABLE" || status === "DEADLINE_EXCEEDED") return { type: "server_error", code: status };
  return { type: "invalid_request_error", code: status || "upstream_error" };
}

/** The error of a parsed body (object or one-element list), or undefined when it holds none. */
export function rpcErrorOf(body: unknown): UpstreamErrorDetails | undefined {
  const value: unknown = Array.isArray(body) ? body[0] : body;
  const error = unverified<RpcStatus>(unverified<GeminiErrorBody>(value)?.error);
  if (!error) return undefined;
  const status = typeof error.status === "string" ? error.status : "";
  const reason =
    unverifiedList<NonNullable<RpcStatus["details"]>[number]>(error.details)
      .map((detail) => detail.reason)
      .find((value): value is string => typeof value === "string") ?? "";
  const message = typeof error.message === "string" && error.message ? error.message : status || "Gemini error";
  return { message, ...typeOf(status, reason), param: null };
}

export function parseGeminiError(status: number, body: string): UpstreamErrorDetails {
  try {
    const found = rpcErrorOf(JSON.parse(body));
    if (found) return found;
  } catch {
    // not JSON: an HTML error page or a proxy's text
  }
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code", param: String(status) };
}

/** A prompt Gemini blocked: no candidates, a blockReason. */
export function blockedPromptOf(body: unknown): UpstreamErrorDetails | undefined {
  const answer = unverified<GeminiResponse>(body);
  const feedback = unverified<GeminiPromptFeedback>(answer?.promptFeedback);
  const reason = feedback?.blockReason;
  if (typeof reason !== "string" || (Array.isArray(answer?.candidates) && answer.candidates.length > 0)) return undefined;
  const why = typeof feedback?.blockReasonMessage === "string" ? `: ${feedback.blockReasonMessage}` : "";
  return {
    message: `The prompt was blocked by Gemini (blockReason ${reason})${why}`,
    type: "invalid_request_error",
    code: "prompt_blocked",
    param: null,
    status: 400,
  };
}

/**
 * A stream whose first event is an error failed before answering; so did one whose prompt was
 * blocked, unless the client speaks Gemini's format and reads promptFeedback itself.
 */
export function geminiStreamError(event: SseEvent, call: Pick<RelayCall, "format">): UpstreamErrorDetails | undefined {
  if (!event.data.includes('"error"') && !event.data.includes('"blockReason"')) return undefined;
  try {
    const parsed = JSON.parse(event.data);
    return rpcErrorOf(parsed) ?? (call.format === "gemini" ? undefined : blockedPromptOf(parsed));
  } catch {
    return undefined;
  }
}
