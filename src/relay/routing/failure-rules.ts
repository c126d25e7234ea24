// What a failed attempt means: try another channel, and/or take this channel out of service.
//
// Retry (issue 3 §4): network errors, timeouts, 429 and 5xx, judged on the status after the
// channel's status_code_mapping, so an operator can make any status retryable by mapping it to
// 500. 4xx answers are the client's or the key's problem and another channel would say the same
// (an auth failure disables the channel instead; see below).
//
// Auto-disable (new-api service/channel.go): HTTP 401, key or billing error codes, auth and
// quota error types, or a configured keyword in the message. Rate limits (429) and "model not
// found" never disable a channel (one-api#90).
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";

export function isRetryable(failure: UpstreamFailure): boolean {
  if (failure.kind === "network" || failure.kind === "timeout") return true;
  return failure.status === 429 || (failure.status >= 500 && failure.status <= 599);
}

const disablingCodes = new Set(["invalid_api_key", "account_deactivated", "billing_not_active"]);
const disablingTypes = new Set(["insufficient_quota", "insufficient_user_quota", "authentication_error", "permission_error", "forbidden"]);

/** Keywords as the option stores them: one per line, compared in lower case. */
export function parseDisableKeywords(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== "");
}

/** Why this failure should take the channel out of service, or undefined if it should not. */
export function disableReasonFor(failure: UpstreamFailure, keywords: readonly string[]): string | undefined {
  if (failure.kind === "network" || failure.kind === "timeout") return undefined;
  const { message, type, code } = failure.details;
  const described = `status ${failure.upstreamStatus || failure.status}: ${message}`;
  if (failure.status === 401) return described;
  if (typeof code === "string" && disablingCodes.has(code)) return described;
  if (disablingTypes.has(type)) return described;
  const lower = message.toLowerCase();
  if (keywords.some((keyword) => lower.includes(keyword))) return described;
  return undefined;
}
