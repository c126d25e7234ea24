// The OpenAI chat request as Hunyuan's ChatCompletions parameters (API 2023-09-01, PascalCase).
// Hunyuan's rules for Messages: one system message, first; then user (or tool) and assistant
// turns alternating, starting and ending with the user side; no empty Content. So system prompts
// are joined at the top and consecutive turns of one side are merged. Images go in Contents (the
// vision models) as ImageUrl.Url, which Tencent documents as a link "以 http:// 或 https:// 开头"
// (tencentcloud-sdk-nodejs-hunyuan, v20230901 ImageUrl.Url); Hunyuan's chat offers no upload for
// images (FilesUploads is for the deep-read documents), so a base64 image is refused; tools become Tools with their parameters as a JSON text, tool_choice becomes
// ToolChoice none/auto/custom (+ CustomTool). max_tokens has no Hunyuan equivalent and is dropped.
import type { RelayCall } from "../adaptor.ts";
import { refuseRequest } from "../conversion-refusal.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import {
  argumentsText,
  embeddingInputsOf,
  functionToolsOf,
  imagesOf,
  messagesOf,
  numberField,
  stopsOf,
  textOf,
  toolChoiceOf,
  type SentMessage,
  toolCallsOf,
  toolCallIdOf,
} from "../vendor-format-helpers/chat-request.ts";

type Content = { Type: "text"; Text: string } | { Type: "image_url"; ImageUrl: { Url: string } };
type ToolCall = { Id: string; Type: "function"; Function: { Name: string; Arguments: string } };
export type HunyuanMessage = { Role: string; Content?: string; Contents?: Content[]; ToolCalls?: ToolCall[]; ToolCallId?: string };

const side = (role: string) => (role === "assistant" ? "assistant" : "user");

function contentsOf(message: SentMessage): Content[] | undefined {
  const images = imagesOf(message.content);
  if (images.length === 0) return undefined;
  const contents: Content[] = [];
  const text = textOf(message.content);
  if (text) contents.push({ Type: "text", Text: text });
  for (const url of images) {
    if (!/^https?:\/\//i.test(url)) refuseRequest("腾讯混元只接受 http(s) 图片链接，不接受 base64 图片");
    contents.push({ Type: "image_url", ImageUrl: { Url: url } });
  }
  return contents;
}

function hunyuanToolCalls(message: SentMessage): ToolCall[] | undefined {
  const calls = toolCallsOf(message);
  if (calls.length === 0) return undefined;
  return calls.map((call, index) => ({
    Id: call.id ?? `call_${index}`,
    Type: "function",
    Function: { Name: call.name ?? "", Arguments: argumentsText(call.arguments) },
  }));
}

function convert(message: SentMessage): HunyuanMessage {
  if (message.role === "tool") return { Role: "tool", Content: textOf(message.content), ToolCallId: toolCallIdOf(message) ?? "" };
  const converted: HunyuanMessage = { Role: side(message.role) };
  const contents = contentsOf(message);
  if (contents) converted.Contents = contents;
  else {
    const text = textOf(message.content);
    if (text) converted.Content = text;
  }
  const toolCalls = hunyuanToolCalls(message);
  if (toolCalls) converted.ToolCalls = toolCalls;
  return converted;
}

/** Two plain-text turns of one side become one (Hunyuan wants them alternating). */
function mergeable(previous: HunyuanMessage | undefined, next: HunyuanMessage): previous is HunyuanMessage {
  if (!previous || previous.Role !== next.Role || next.Role === "tool") return false;
  return !previous.Contents && !next.Contents && !previous.ToolCalls && !next.ToolCalls;
}

function hunyuanMessages(call: RelayCall): HunyuanMessage[] {
  const system: string[] = [];
  const turns: HunyuanMessage[] = [];
  for (const message of messagesOf(call)) {
    if (message.role === "system" || message.role === "developer") {
      const text = textOf(message.content);
      if (text) system.push(text);
      continue;
    }
    const next = convert(message);
    const previous = turns.at(-1);
    if (mergeable(previous, next)) previous.Content = [previous.Content, next.Content].filter(Boolean).join("\n");
    else turns.push(next);
  }
  return system.length ? [{ Role: "system", Content: system.join("\n") }, ...turns] : turns;
}

export function hunyuanChatBody(call: RelayCall): Record<string, unknown> {
  // ChatCompletions has no output limit or JSON mode (tencentcloud-sdk-nodejs-hunyuan's request
  // fields); reasoning_effort becomes EnableThinking ("none" off, any other effort on).
  refuseUnsupportedFields(call, "Tencent Hunyuan", { outputLimit: false, reasoningEffort: true });
  const body: Record<string, unknown> = { Model: call.upstreamModel, Messages: hunyuanMessages(call), Stream: call.stream };
  const temperature = numberField(call, "temperature");
  if (temperature !== undefined) body.Temperature = Math.min(2, Math.max(0, temperature));
  const topP = numberField(call, "top_p");
  if (topP !== undefined) body.TopP = Math.min(1, Math.max(0, topP));
  const seed = numberField(call, "seed");
  if (seed !== undefined && seed > 0) body.Seed = Math.min(10000, Math.round(seed));
  const stop = stopsOf(call);
  if (stop) body.Stop = stop;
  const tools = functionToolsOf(call).map((tool) => ({
    Type: "function",
    Function: {
      Name: tool.name,
      Parameters: JSON.stringify(tool.parameters ?? { type: "object", properties: {} }),
      ...(tool.description ? { Description: tool.description } : {}),
    },
  }));
  if (tools.length) {
    body.Tools = tools;
    const choice = toolChoiceOf(call);
    if (choice?.mode === "none") body.ToolChoice = "none";
    else if (choice?.mode === "function") {
      body.ToolChoice = "custom";
      body.CustomTool = tools.find((tool) => tool.Function.Name === choice.name) ?? tools[0];
    } else if (choice) body.ToolChoice = "auto";
  }
  const effort = call.json?.reasoning_effort;
  if (typeof effort === "string") body.EnableThinking = effort !== "none";
  // Hunyuan's own switch, passed when the client names it (off by default on Tencent's side).
  if (typeof call.json?.enable_enhancement === "boolean") body.EnableEnhancement = call.json.enable_enhancement;
  return body;
}

/** GetEmbedding takes one text (Input) or a list (InputList). */
export function hunyuanEmbeddingBody(call: RelayCall): Record<string, unknown> {
  const inputs = embeddingInputsOf(call);
  return inputs.length === 1 ? { Input: inputs[0] } : { InputList: inputs };
}
