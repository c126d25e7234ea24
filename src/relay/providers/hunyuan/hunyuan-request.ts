// The OpenAI chat request as Hunyuan's ChatCompletions parameters (API 2023-09-01, PascalCase).
// Hunyuan's rules for Messages: one system message, first; then user (or tool) and assistant
// turns alternating, starting and ending with the user side; no empty Content. So system prompts
// are joined at the top and consecutive turns of one side are merged. Images go in Contents (the
// vision models); tools become Tools with their parameters as a JSON text, tool_choice becomes
// ToolChoice none/auto/custom (+ CustomTool). max_tokens has no Hunyuan equivalent and is dropped.
import type { RelayCall } from "../adaptor.ts";
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
  type ChatMessage,
} from "../openai-format/chat-request.ts";

type Content = { Type: "text"; Text: string } | { Type: "image_url"; ImageUrl: { Url: string } };
type ToolCall = { Id: string; Type: "function"; Function: { Name: string; Arguments: string } };
export type HunyuanMessage = { Role: string; Content?: string; Contents?: Content[]; ToolCalls?: ToolCall[]; ToolCallId?: string };

const side = (role: string) => (role === "assistant" ? "assistant" : "user");

function contentsOf(message: ChatMessage): Content[] | undefined {
  const images = imagesOf(message.content);
  if (images.length === 0) return undefined;
  const contents: Content[] = [];
  const text = textOf(message.content);
  if (text) contents.push({ Type: "text", Text: text });
  for (const url of images) contents.push({ Type: "image_url", ImageUrl: { Url: url } });
  return contents;
}

function toolCallsOf(message: ChatMessage): ToolCall[] | undefined {
  if (!Array.isArray(message.tool_calls) || message.tool_calls.length === 0) return undefined;
  return message.tool_calls.map((call, index) => ({
    Id: call.id ?? `call_${index}`,
    Type: "function",
    Function: { Name: call.function?.name ?? "", Arguments: argumentsText(call.function?.arguments) },
  }));
}

function convert(message: ChatMessage): HunyuanMessage {
  if (message.role === "tool") return { Role: "tool", Content: textOf(message.content), ToolCallId: message.tool_call_id ?? "" };
  const converted: HunyuanMessage = { Role: side(message.role) };
  const contents = contentsOf(message);
  if (contents) converted.Contents = contents;
  else {
    const text = textOf(message.content);
    if (text) converted.Content = text;
  }
  const toolCalls = toolCallsOf(message);
  if (toolCalls) converted.ToolCalls = toolCalls;
  return converted;
}

/** Two plain-text turns of one side become one (Hunyuan wants them alternating). */
function mergeable(previous: HunyuanMessage | undefined, next: HunyuanMessage): previous is HunyuanMessage {
  if (!previous || previous.Role !== next.Role || next.Role === "tool") return false;
  return !previous.Contents && !next.Contents && !previous.ToolCalls && !next.ToolCalls;
}

export function hunyuanMessages(call: RelayCall): HunyuanMessage[] {
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
    Function: { Name: tool.name, Parameters: JSON.stringify(tool.parameters ?? { type: "object", properties: {} }), ...(tool.description ? { Description: tool.description } : {}) },
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
  // Hunyuan's own switch, passed when the client names it (off by default on Tencent's side).
  if (typeof call.json?.enable_enhancement === "boolean") body.EnableEnhancement = call.json.enable_enhancement;
  return body;
}

/** GetEmbedding takes one text (Input) or a list (InputList). */
export function hunyuanEmbeddingBody(call: RelayCall): Record<string, unknown> {
  const inputs = embeddingInputsOf(call);
  return inputs.length === 1 ? { Input: inputs[0] } : { InputList: inputs };
}
