// The OpenAI chat request as Cohere's v2 Chat API body (POST /v2/chat; v2 is the documented
// current API, v1 being the legacy one). v2 takes OpenAI-like messages (system, user, assistant
// with tool_calls and tool_plan, tool with tool_call_id) and function tools in OpenAI's shape;
// sampling is renamed (top_p → p, stop → stop_sequences), tool_choice has only REQUIRED and NONE
// (a named function becomes REQUIRED with that one tool), and fields Cohere does not document are
// not sent (it refuses unknown fields).
import type { RelayCall } from "../adaptor.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import {
  argumentsText,
  functionToolsOf,
  imagesOf,
  maxTokensOf,
  messagesOf,
  numberField,
  stopsOf,
  textOf,
  toolChoiceOf,
  type SentMessage,
  toolCallsOf,
  toolCallIdOf,
} from "../vendor-format-helpers/chat-request.ts";

type Part = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
type CohereMessage = Record<string, unknown> & { role: string };

function userContent(message: SentMessage): string | Part[] {
  const images = imagesOf(message.content);
  if (images.length === 0) return textOf(message.content);
  const parts: Part[] = [];
  const text = textOf(message.content);
  if (text) parts.push({ type: "text", text });
  for (const url of images) parts.push({ type: "image_url", image_url: { url } });
  return parts;
}

function convert(message: SentMessage): CohereMessage {
  switch (message.role) {
    case "system":
    case "developer":
      return { role: "system", content: textOf(message.content) };
    case "tool":
      return { role: "tool", tool_call_id: toolCallIdOf(message) ?? "", content: textOf(message.content) };
    case "assistant": {
      const converted: CohereMessage = { role: "assistant" };
      const text = textOf(message.content);
      if (text) converted.content = text;
      const calls = toolCallsOf(message);
      if (calls.length) {
        converted.tool_calls = calls.map((call, index) => ({
          id: call.id ?? `call_${index}`,
          type: "function",
          function: { name: call.name ?? "", arguments: argumentsText(call.arguments) },
        }));
      }
      return converted;
    }
    default:
      return { role: "user", content: userContent(message) };
  }
}

export function cohereChatBody(call: RelayCall): Record<string, unknown> {
  // Cohere v2 chat: max_tokens and response_format (json_object, with a json_schema) are its own.
  refuseUnsupportedFields(call, "Cohere", { outputLimit: true, jsonObject: true, jsonSchema: true });
  const body: Record<string, unknown> = { model: call.upstreamModel, messages: messagesOf(call).map(convert), stream: call.stream };
  const maxTokens = maxTokensOf(call);
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  const renamed: [string, string][] = [
    ["temperature", "temperature"],
    ["top_p", "p"],
    ["seed", "seed"],
    ["frequency_penalty", "frequency_penalty"],
    ["presence_penalty", "presence_penalty"],
  ];
  for (const [from, to] of renamed) {
    const value = numberField(call, from);
    if (value !== undefined) body[to] = value;
  }
  const stop = stopsOf(call);
  if (stop) body.stop_sequences = stop;
  let tools = functionToolsOf(call).map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description ?? "", parameters: tool.parameters ?? { type: "object", properties: {} } },
  }));
  const choice = toolChoiceOf(call);
  if (tools.length && choice?.mode === "function") {
    tools = tools.filter((tool) => tool.function.name === choice.name);
    body.tool_choice = "REQUIRED";
  } else if (tools.length && choice?.mode === "required") body.tool_choice = "REQUIRED";
  else if (tools.length && choice?.mode === "none") body.tool_choice = "NONE";
  if (tools.length) body.tools = tools;
  const format = call.json?.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  if (format?.type === "json_object") body.response_format = { type: "json_object" };
  else if (format?.type === "json_schema" && format.json_schema?.schema)
    body.response_format = { type: "json_object", json_schema: format.json_schema.schema };
  return body;
}
