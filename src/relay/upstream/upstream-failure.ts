// A failed upstream attempt as a value: what status and error object the client would see, and
// the facts the retry and auto-disable rules decide on. Messages are scrubbed before they go
// anywhere: an upstream that echoes our key, its own address or an internal IP must not leak it
// to the client or the logs.
import type { UpstreamErrorDetails, UpstreamTarget } from "../providers/adaptor.ts";

export type FailureKind = "network" | "timeout" | "status" | "error-in-body";

export type UpstreamFailure = {
  kind: FailureKind;
  /** The status after the channel's status_code_mapping (what the rules and the client see). */
  status: number;
  /** The status the upstream really sent (0 for network failures and timeouts). */
  upstreamStatus: number;
  details: UpstreamErrorDetails;
  /** True when the message is one of ours (an i18n key) rather than the upstream's words. */
  localMessage: boolean;
  /** The values of a local message's {{placeholders}}. */
  localParams?: Record<string, string | number>;
  /** The upstream's Retry-After, in seconds, when it sent one. */
  retryAfterSeconds?: number;
};

/** Retry-After in seconds from its two forms (seconds, or an HTTP date), kept within an hour. */
export function retryAfterSeconds(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - nowMs) / 1000;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(3600, Math.max(1, Math.ceil(seconds)));
}

export const networkFailureMessage = "请求上游地址失败";
export const timeoutFailureMessage = "上游响应超时";

function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Network errors carry addresses ("connect ECONNREFUSED 10.0.0.5:443"); say only what happened. */
export function describeNetworkFailure(error: unknown): string {
  return isTimeoutError(error) ? timeoutFailureMessage : networkFailureMessage;
}

export function networkFailure(error: unknown): UpstreamFailure {
  const timeout = isTimeoutError(error);
  return {
    kind: timeout ? "timeout" : "network",
    status: timeout ? 504 : 502,
    upstreamStatus: 0,
    details: {
      message: describeNetworkFailure(error),
      type: "upstream_error",
      code: timeout ? "upstream_timeout" : "do_request_failed",
      param: null,
    },
    localMessage: true,
  };
}

const secretPattern = /\b(sk|pk|rk|ak)-[A-Za-z0-9_\-*.]{6,}/g;
const bearerPattern = /Bearer\s+[A-Za-z0-9_\-.=]+/gi;
// Google API keys, JSON web tokens, and "api_key: …" / "token=…" pairs an upstream may echo.
const googleKeyPattern = /\bAIza[0-9A-Za-z_-]{20,}/g;
const jwtPattern = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const namedSecretPattern =
  /\b(api[_-]?key|x-api-key|x-goog-api-key|access[_-]?token|refresh[_-]?token|client[_-]?secret|secret|password|token)(["']?\s*[:=]\s*["']?)[^\s"',;&)]{4,}/gi;
const ipv4Pattern = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g;
const urlPattern = /\bhttps?:\/\/[^\s"'<>)]+/gi;

/** Removes keys, the channel's address and IP addresses from an upstream message. */
export function scrubMessage(message: string, target: Pick<UpstreamTarget, "key" | "baseUrl">): string {
  // Only the first 2000 characters are kept: scrubbing megabytes an upstream sent would be work
  // for nothing (the margin keeps a secret that straddles the cut from surviving in part).
  let result = message.length > 4000 ? message.slice(0, 4000) : message;
  if (target.key && target.key.length >= 4) result = result.split(target.key).join("***");
  // Composite keys (AWS's "AccessKeyId|Secret|Region") can be echoed one part at a time.
  if (target.key.includes("|")) {
    for (const part of target.key.split("|")) if (part.length >= 12) result = result.split(part).join("***");
  }
  result = result.replace(secretPattern, "$1-***").replace(bearerPattern, "Bearer ***");
  result = result.replace(googleKeyPattern, "AIza***").replace(jwtPattern, "[token]");
  // A link to a public help page stays, without a query string that could carry a key.
  result = result.replace(urlPattern, (url) => (isPublicDocumentationUrl(url) ? url.replace(/\?.*$/, "") : "[upstream]"));
  result = result.replace(namedSecretPattern, "$1$2***");
  result = result.replace(ipv4Pattern, "[address]");
  return result.length > 2000 ? `${result.slice(0, 2000)}…` : result;
}

/** Links to a provider's public help pages are useful to the client and reveal nothing. */
function isPublicDocumentationUrl(url: string): boolean {
  return /^https:\/\/(platform\.openai\.com|help\.openai\.com|docs\.[a-z0-9.-]+|learn\.microsoft\.com)\//i.test(url);
}

/** A failed answer: the upstream's status mapped by the channel, its error object scrubbed. */
export function statusFailure(
  upstreamStatus: number,
  mappedStatus: number,
  details: UpstreamErrorDetails,
  target: Pick<UpstreamTarget, "key" | "baseUrl">,
  kind: FailureKind = "status",
  retryAfter?: number,
): UpstreamFailure {
  return {
    kind,
    status: mappedStatus,
    upstreamStatus,
    details: { ...details, message: scrubMessage(details.message, target) },
    localMessage: false,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  };
}
