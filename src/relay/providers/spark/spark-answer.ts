// Spark's answer frames in OpenAI's shape. Each frame is {header: {code, message, sid, status},
// payload: {choices: {status, text: [{content, role, function_call?}]}, usage: {text: {prompt_tokens, …}}}};
// status 2 marks the last frame, which carries the usage. A function call (`function_call:
// {name, arguments}` in a text item, xfyun.cn Web API 文档) becomes a tool call, and the answer's
// finish reason tool_calls. A code other than 0 is a failure, given
// the status it stands for (xfyun.cn error codes): rate and concurrency limits are 429, a missing
// authorization or exhausted allowance disables the channel, content refusals are 400.
import type { SseEvent, UpstreamErrorDetails } from "../adaptor.ts";
import { argumentsText } from "../vendor-format-helpers/chat-request.ts";
import type { ToolCallDelta, VendorStep } from "../vendor-format-helpers/chunk-stream.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { usageOf } from "../vendor-format-helpers/whole-answer.ts";

export type SparkFrame = {
  header?: { code?: number; message?: string; sid?: string; status?: number };
  payload?: {
    choices?: { status?: number; text?: { content?: string; role?: string; function_call?: { name?: string; arguments?: unknown } }[] };
    usage?: { text?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } };
  };
};

function verdictOf(code: number): { status: number; type: string } {
  if (code === 10006 || code === 10007 || code === 11201 || code === 11202 || code === 11203)
    return { status: 429, type: "rate_limit_error" };
  if (code === 10016 || code === 11200) return { status: 403, type: "insufficient_quota" };
  if (code === 10015) return { status: 403, type: "permission_error" };
  if (code === 10013 || code === 10014 || code === 10019) return { status: 400, type: "content_filter" };
  if (code === 10003 || code === 10004 || code === 10005 || code === 10163 || code === 10907)
    return { status: 400, type: "invalid_request_error" };
  if (code === 10008 || code === 10110) return { status: 503, type: "upstream_error" };
  return { status: 500, type: "upstream_error" };
}

export function sparkFrameError(frame: SparkFrame | undefined): UpstreamErrorDetails | undefined {
  const code = frame?.header?.code;
  if (typeof code !== "number" || code === 0) return undefined;
  const { status, type } = verdictOf(code);
  return { message: frame?.header?.message || `code ${code}`, type, code, param: null, status };
}

export function parseSparkFrame(text: string): SparkFrame | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A refused handshake ({"message": …} with 401/403) or a failed first frame. */
export function parseSparkError(status: number, body: string): UpstreamErrorDetails {
  const frameError = sparkFrameError(parseSparkFrame(body));
  if (frameError) return frameError;
  const details = parseOpenAIError(status, body);
  // A wrong APISecret or unknown APIKey is refused at the handshake: a dead key.
  if (status === 401 || (status === 403 && /signature does not match|api ?key/i.test(details.message)))
    return { ...details, type: "authentication_error" };
  return details;
}

/** A reader of one answer's frames (it remembers whether the answer called a function). */
export function sparkStreamReader(): (event: SseEvent) => VendorStep | undefined {
  let calls = 0;
  return (event) => {
    if (!event.data) return undefined;
    const frame = parseSparkFrame(event.data);
    const error = sparkFrameError(frame);
    if (error) return { error };
    if (!frame) return undefined;
    const items = frame.payload?.choices?.text ?? [];
    const content = items.map((item) => item.content ?? "").join("");
    const toolCalls: ToolCallDelta[] = [];
    for (const item of items) {
      const name = item.function_call?.name;
      if (typeof name !== "string" || name === "") continue;
      const index = calls++;
      toolCalls.push({
        index,
        id: `call_${frame.header?.sid ?? "spark"}_${index}`,
        type: "function",
        function: { name, arguments: argumentsText(item.function_call?.arguments) },
      });
    }
    const step: VendorStep = { delta: toolCalls.length ? { content, tool_calls: toolCalls } : { content } };
    const usage = frame.payload?.usage?.text;
    if (usage) step.usage = usageOf(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens);
    if (frame.header?.status === 2 || frame.payload?.choices?.status === 2) {
      step.finishReason = calls > 0 ? "tool_calls" : "stop";
      step.end = true;
    }
    return step;
  };
}

export function sparkStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  return sparkFrameError(parseSparkFrame(event.data));
}
