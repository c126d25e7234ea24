// OpenAI requests in DashScope's native form (Alibaba Model Studio, "DashScope 协议"): a body of
// {model, input, parameters}. Chat goes to text generation, or multimodal generation for the
// vision models, with result_format "message" and, on streams, incremental_output (each event
// carries only the new text). Embeddings take input.texts; images take a prompt and a size
// written with "*".
import { AppError } from "../../../errors/app-error.ts";
import type { RelayCall } from "../adaptor.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import { acceptsImages, isVisionModel } from "./dashscope-models.ts";
import {
  embeddingInputsOf,
  functionToolsOf,
  imagesOf,
  maxTokensOf,
  messagesOf,
  numberField,
  stopsOf,
  stringField,
  textOf,
  toolChoiceOf,
  type SentMessage,
} from "../vendor-format-helpers/chat-request.ts";

/** Whether a chat call carries images (image_url parts in any message). */
const hasImages = (call: RelayCall) => messagesOf(call).some((message) => imagesOf(message.content).length > 0);

/**
 * Whether a chat call goes to the multimodal endpoint (content as a list of parts): a vision
 * model always, a natively multimodal one when the call has images. Images for a model that
 * takes none are refused instead of being dropped (dashscope-models.ts).
 */
export function multimodalCall(call: RelayCall): boolean {
  if (isVisionModel(call.upstreamModel)) return true;
  if (!hasImages(call)) return false;
  if (!acceptsImages(call.upstreamModel)) refuseWithParams("模型 {{model}} 不支持图片输入", { model: call.upstreamModel });
  return true;
}

/** DashScope parameters an OpenAI client may send as extra fields; passed as they are. */
const passThrough = [
  "top_k",
  "repetition_penalty",
  "enable_search",
  "search_options",
  "enable_thinking",
  "thinking_budget",
  "seed",
  "presence_penalty",
  "n",
  "logprobs",
  "top_logprobs",
];

function nativeMessage(message: SentMessage, vision: boolean): Record<string, unknown> {
  const role = message.role === "developer" ? "system" : message.role;
  const out: Record<string, unknown> = { role };
  if (vision && role === "user") {
    const parts: Record<string, string>[] = imagesOf(message.content).map((url) => ({ image: url }));
    const text = textOf(message.content);
    if (text) parts.push({ text });
    out.content = parts;
  } else {
    out.content = vision ? [{ text: textOf(message.content) }] : textOf(message.content);
  }
  // (The calls as the client sent them: DashScope takes OpenAI's shape.)
  if (Array.isArray(message.tool_calls) && message.tool_calls.length) out.tool_calls = message.tool_calls;
  if (message.tool_call_id) out.tool_call_id = message.tool_call_id;
  if (message.name) out.name = message.name;
  return out;
}

function refuseWithParams(messageKey: string, params: Record<string, string>): never {
  throw new AppError("invalid", messageKey, params, { code: "convert_request_failed" });
}

export function nativeChatBody(call: RelayCall, vision = multimodalCall(call)): Record<string, unknown> {
  // DashScope's parameters: max_tokens, response_format, parallel_tool_calls; reasoning_effort
  // becomes enable_thinking (Qwen's thinking has no levels: "none" off, any other effort on).
  refuseUnsupportedFields(call, "Alibaba Qwen (DashScope)", {
    outputLimit: true,
    reasoningEffort: true,
    jsonObject: true,
    jsonSchema: true,
    singleToolCall: "mapped",
  });
  const parameters: Record<string, unknown> = { result_format: "message" };
  if (call.stream) parameters.incremental_output = true;
  const temperature = numberField(call, "temperature");
  if (temperature !== undefined) parameters.temperature = Math.min(1.99, Math.max(0, temperature));
  const topP = numberField(call, "top_p");
  // DashScope wants top_p in (0, 1].
  if (topP !== undefined) parameters.top_p = Math.min(1, Math.max(0.001, topP));
  const maxTokens = maxTokensOf(call);
  if (maxTokens !== undefined) parameters.max_tokens = maxTokens;
  const stops = stopsOf(call);
  if (stops) parameters.stop = stops;
  for (const name of passThrough) if (call.json?.[name] !== undefined) parameters[name] = call.json[name];
  const format = call.json?.response_format;
  if (format && typeof format === "object") parameters.response_format = format;
  if (typeof call.json?.parallel_tool_calls === "boolean") parameters.parallel_tool_calls = call.json.parallel_tool_calls;
  const effort = call.json?.reasoning_effort;
  if (typeof effort === "string" && parameters.enable_thinking === undefined) parameters.enable_thinking = effort !== "none";
  const tools = functionToolsOf(call);
  if (tools.length) {
    parameters.tools = tools.map((fn) => ({ type: "function", function: fn }));
    const choice = toolChoiceOf(call);
    if (choice?.mode === "function") parameters.tool_choice = { type: "function", function: { name: choice.name } };
    else if (choice?.mode === "none" || choice?.mode === "auto") parameters.tool_choice = choice.mode;
  }
  return {
    model: call.upstreamModel,
    input: { messages: messagesOf(call).map((message) => nativeMessage(message, vision)) },
    parameters,
  };
}

export function nativeEmbeddingBody(call: RelayCall): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  const dimensions = numberField(call, "dimensions");
  if (dimensions !== undefined) parameters.dimension = dimensions;
  const textType = stringField(call, "text_type");
  if (textType) parameters.text_type = textType;
  return { model: call.upstreamModel, input: { texts: embeddingInputsOf(call) }, parameters };
}

export function nativeImageBody(call: RelayCall): Record<string, unknown> {
  // The relay already refused an image call without a prompt.
  const input: Record<string, unknown> = { prompt: stringField(call, "prompt") ?? "" };
  const negative = stringField(call, "negative_prompt");
  if (negative) input.negative_prompt = negative;
  const parameters: Record<string, unknown> = {};
  const size = stringField(call, "size");
  if (size) parameters.size = size.replace(/x/i, "*");
  const count = numberField(call, "n");
  if (count !== undefined) parameters.n = count;
  const style = stringField(call, "style");
  if (style) parameters.style = style;
  const seed = numberField(call, "seed");
  if (seed !== undefined) parameters.seed = seed;
  return { model: call.upstreamModel, input, parameters };
}
