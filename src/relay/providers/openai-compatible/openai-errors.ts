// Error answers of OpenAI-style upstreams. The message is looked for where vendors put it
// (error.message, then message, msg, err, error_msg, header.message, response.error.message);
// an answer with none says which status came back.
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const codeOf = (value: unknown): string | number | null => (typeof value === "string" || typeof value === "number" ? value : null);

/** The error details of a parsed body, or undefined when it is not an error answer. */
export function errorOfBody(body: unknown): UpstreamErrorDetails | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const record = body as Record<string, any>;
  if (Array.isArray(record.choices) || Array.isArray(record.data)) return undefined;
  const error = record.error;
  if (error && typeof error === "object") {
    const message = text(error.message) ?? text(error.msg);
    if (message) {
      return { message, type: text(error.type) ?? "upstream_error", code: codeOf(error.code), param: text(error.param) ?? null };
    }
  }
  if (typeof error === "string" && error.trim()) return { message: error, type: "upstream_error", code: null, param: null };
  const message =
    text(record.message) ??
    text(record.msg) ??
    text(record.err) ??
    text(record.error_msg) ??
    text(record.header?.message) ??
    text(record.response?.error?.message);
  if (!message) return undefined;
  return { message, type: text(record.type) ?? "upstream_error", code: codeOf(record.code), param: null };
}

export function parseOpenAIError(status: number, body: string): UpstreamErrorDetails {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  return (
    errorOfBody(parsed) ?? {
      message: `bad response status code ${status}`,
      type: "upstream_error",
      code: "bad_response_status_code",
      param: String(status),
    }
  );
}

/** A stream that opens with an error object instead of a chunk failed before answering. */
export function openAIStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  if (!event.data.includes('"error"')) return undefined;
  try {
    return errorOfBody(JSON.parse(event.data));
  } catch {
    return undefined;
  }
}
