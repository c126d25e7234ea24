// Dify's streamed answer and its failures. Every event is `data: {event, …}`: message and
// agent_message carry the next piece of `answer`; message_replace replaces the answer after output
// moderation (sent on, finished as content_filter); message_end closes it with metadata.usage;
// error {status, code, message} ends the stream; ping, agent_thought, workflow and node events,
// TTS and file events carry nothing for an OpenAI client. Failures before the stream are HTTP
// errors with {code, message, status}.
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { normalizeUsage } from "../openai-compatible/openai-usage.ts";
import type { VendorStep } from "../vendor-format-helpers/chunk-stream.ts";

type DifyEvent = { event?: string; answer?: string; metadata?: { usage?: unknown }; status?: number; code?: string; message?: string };

function parse(text: string): DifyEvent | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Dify's error codes as the types (and, inside a stream, the statuses) the relay's rules read. */
function difyError(code: string, message: string, status: number): UpstreamErrorDetails {
  const details: UpstreamErrorDetails = {
    message: message || code || `status ${status}`,
    type: "upstream_error",
    code: code || null,
    param: null,
    status,
  };
  if (status === 401 || code === "unauthorized") return { ...details, type: "authentication_error", status: 401 };
  // The app's model credentials ran out: this channel cannot answer, another one may.
  if (code === "provider_quota_exceeded") return { ...details, type: "insufficient_quota", status: 429 };
  if (code === "app_unavailable" || code === "provider_not_initialize") return { ...details, type: "permission_error" };
  if (status === 429 || code === "too_many_requests" || code === "rate_limit_error")
    return { ...details, type: "rate_limit_error", status: 429 };
  if (status >= 400 && status < 500) return { ...details, type: "invalid_request_error" };
  return details;
}

export function parseDifyError(status: number, body: string): UpstreamErrorDetails {
  const parsed = parse(body);
  return difyError(parsed?.code ?? "", parsed?.message ?? "", status);
}

export function readDifyEvent(event: SseEvent): VendorStep | undefined {
  const parsed = parse(event.data);
  switch (parsed?.event) {
    case "message":
    case "agent_message":
      return { delta: { content: parsed.answer ?? "" } };
    case "message_replace":
      return { delta: { content: parsed.answer ?? "" }, finishReason: "content_filter" };
    case "message_end":
      return { usage: normalizeUsage(parsed.metadata?.usage), finishReason: "stop", end: true };
    case "error":
      return { error: difyError(parsed.code ?? "", parsed.message ?? "", Number(parsed.status) || 500) };
    default:
      return undefined;
  }
}

export function difyStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  return readDifyEvent(event)?.error;
}
