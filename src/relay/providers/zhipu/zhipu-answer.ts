// ChatGLM's v3 API answers in OpenAI's shape. invoke answers {code, msg, success, data: {choices:
// [{role, content}], usage}} (the content arrives as a JSON-quoted string); sse-invoke streams
// `event: add` with the new text in data, then `event: finish` whose `meta:` line holds the usage,
// or `event: error` / `event: interrupted` with the reason in data.
import type { Bytes, ConvertedResponse, RelayCall, SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import type { VendorStep } from "../vendor-format-helpers/chunk-stream.ts";
import { chatCompletion, failedAnswer, usageOf } from "../vendor-format-helpers/whole-answer.ts";
import { zhipuError } from "./zhipu-errors.ts";
import { jsonOrUndefined } from "../../upstream/json-or-undefined.ts";

type V3Usage = { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
type V3Answer = {
  code?: number;
  msg?: string;
  success?: boolean;
  data?: { request_id?: string; task_id?: string; task_status?: string; choices?: { role?: string; content?: string }[]; usage?: V3Usage };
};

const decoder = new TextDecoder();

/** invoke quotes the content as a JSON string ("\"…\""); the quoting is undone. */
export function unquote(content: string): string {
  const trimmed = content.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    const value = jsonOrUndefined(trimmed);
    if (typeof value === "string") return value.trim();
  }
  return content;
}

/** The error of a v3 body: success false, or a code other than 200. */
function v3ErrorOf(body: unknown): UpstreamErrorDetails | undefined {
  if (!body || typeof body !== "object") return undefined;
  const answer = body as V3Answer;
  if (answer.success === true || answer.code === 200) return undefined;
  if (typeof answer.code !== "number") return undefined;
  return zhipuError(answer.code, answer.msg ?? "");
}

export function parseV3Error(status: number, body: string): UpstreamErrorDetails {
  const parsed = jsonOrUndefined(body);
  const error = v3ErrorOf(parsed);
  if (error) return error;
  const message = (parsed as { msg?: string; message?: string } | undefined)?.msg ?? (parsed as { message?: string } | undefined)?.message;
  return {
    message: message || `bad response status code ${status}`,
    type: status === 401 ? "authentication_error" : "upstream_error",
    code: null,
    param: null,
  };
}

export function convertV3Response(call: RelayCall, bytes: Bytes): ConvertedResponse {
  const parsed = jsonOrUndefined(decoder.decode(bytes)) as V3Answer | undefined;
  const error = v3ErrorOf(parsed);
  if (error || !parsed?.data)
    return failedAnswer(error ?? { message: "unreadable answer", type: "upstream_error", code: "bad_response_body", param: null });
  const data = parsed.data;
  const failed = data.task_status === "FAIL";
  if (failed) return failedAnswer({ message: "the task failed", type: "upstream_error", code: "task_failed", param: null, status: 500 });
  return chatCompletion({
    model: call.model,
    id: data.request_id ?? data.task_id,
    content: unquote(data.choices?.map((choice) => choice.content ?? "").join("") ?? ""),
    finishReason: "stop",
    usage: usageOf(data.usage?.prompt_tokens, data.usage?.completion_tokens, data.usage?.total_tokens),
  });
}

/** The `meta:` field of a finish event (not a standard SSE field: read from the raw event). */
function metaOf(raw: string): { usage?: V3Usage; task_status?: string } | undefined {
  const line = raw.split(/\r?\n/).find((text) => text.startsWith("meta:"));
  if (!line) return undefined;
  return jsonOrUndefined(line.slice(5).trim()) as { usage?: V3Usage } | undefined;
}

export function readV3Event(event: SseEvent): VendorStep | undefined {
  switch (event.event) {
    case "add":
      return { delta: { content: event.data } };
    case "finish": {
      const meta = metaOf(event.raw);
      return {
        delta: { content: event.data },
        finishReason: "stop",
        usage: usageOf(meta?.usage?.prompt_tokens, meta?.usage?.completion_tokens, meta?.usage?.total_tokens),
        end: true,
      };
    }
    case "error":
    case "interrupted":
      return { error: { message: event.data || event.event, type: "upstream_error", code: event.event, param: null, status: 500 } };
    default:
      return undefined;
  }
}

/** A stream that opens with an error or interruption failed before answering. */
export function v3StreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  return readV3Event(event)?.error;
}
