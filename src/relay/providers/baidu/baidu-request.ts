// An OpenAI chat request in ERNIE's v1 form (Baidu's "对话 Chat" API): the system prompt moves to
// `system`, the turns must alternate user/assistant (consecutive turns of one side are joined),
// tool calls become ERNIE's functions / function_call / role "function", and the sampling fields
// are kept inside the ranges Baidu accepts (temperature (0, 1], at most four stop words).
import type { RelayCall } from "../adaptor.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import {
  argumentsText,
  embeddingInputsOf,
  functionToolsOf,
  maxTokensOf,
  messagesOf,
  numberField,
  stopsOf,
  stringField,
  textOf,
  toolChoiceOf,
  type SentMessage,
  toolCallsOf,
  toolCallIdOf,
  nameOf,
} from "../vendor-format-helpers/chat-request.ts";

type ErnieMessage = {
  role: "user" | "assistant" | "function";
  content: string;
  name?: string;
  function_call?: { name: string; arguments: string };
};

/** The function name a tool answer belongs to, from the assistant turn that called it. */
function toolNames(messages: SentMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of toolCallsOf(message)) if (call.id && call.name) names.set(call.id, call.name);
  }
  return names;
}

function ernieMessages(messages: SentMessage[]): { system: string; turns: ErnieMessage[] } {
  const system: string[] = [];
  const turns: ErnieMessage[] = [];
  const names = toolNames(messages);
  for (const message of messages) {
    const content = textOf(message.content);
    if (message.role === "system" || message.role === "developer") {
      if (content) system.push(content);
      continue;
    }
    if (message.role === "tool" || message.role === "function") {
      const id = toolCallIdOf(message);
      const name = (id && names.get(id)) || nameOf(message) || "";
      turns.push({ role: "function", name, content });
      continue;
    }
    const role = message.role === "assistant" ? "assistant" : "user";
    const call = toolCallsOf(message)[0];
    if (role === "assistant" && call?.name) {
      turns.push({ role, content, function_call: { name: call.name, arguments: argumentsText(call.arguments) } });
      continue;
    }
    const previous = turns[turns.length - 1];
    // ERNIE refuses two turns of one side in a row; joining them keeps every word.
    if (previous && previous.role === role && !previous.function_call) previous.content += `\n${content}`;
    else turns.push({ role, content });
  }
  return { system: system.join("\n"), turns };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** ERNIE's own parameters a client may send as extra fields; passed as they are. */
const ernieFields = [
  "penalty_score",
  "disable_search",
  "enable_citation",
  "enable_trace",
  "min_output_tokens",
  "frequency_penalty",
  "presence_penalty",
];

export function ernieChatBody(call: RelayCall): Record<string, unknown> {
  // ERNIE: max_output_tokens, response_format "json_object"; a function call answers one function.
  refuseUnsupportedFields(call, "Baidu ERNIE", { outputLimit: true, jsonObject: true, singleToolCall: "always" });
  const { system, turns } = ernieMessages(messagesOf(call));
  const body: Record<string, unknown> = { messages: turns };
  if (system) body.system = system;
  if (call.stream) body.stream = true;
  const temperature = numberField(call, "temperature");
  if (temperature !== undefined) body.temperature = clamp(temperature, 0.01, 1);
  const topP = numberField(call, "top_p");
  if (topP !== undefined) body.top_p = clamp(topP, 0, 1);
  const maxTokens = maxTokensOf(call);
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  const stops = stopsOf(call);
  if (stops) body.stop = stops.slice(0, 4);
  const user = stringField(call, "user");
  if (user) body.user_id = user;
  for (const name of ernieFields) if (call.json?.[name] !== undefined) body[name] = call.json[name];
  const format = (call.json?.response_format as { type?: string } | undefined)?.type;
  if (format === "json_object") body.response_format = "json_object";
  const functions = functionToolsOf(call);
  if (functions.length) {
    body.functions = functions.map((fn) => ({
      name: fn.name,
      description: fn.description ?? "",
      parameters: fn.parameters ?? { type: "object", properties: {} },
    }));
    const choice = toolChoiceOf(call);
    if (choice?.mode === "function") body.tool_choice = { type: "function", function: { name: choice.name } };
  }
  return body;
}

export function ernieEmbeddingBody(call: RelayCall): Record<string, unknown> {
  const body: Record<string, unknown> = { input: embeddingInputsOf(call) };
  const user = stringField(call, "user");
  if (user) body.user_id = user;
  return body;
}
