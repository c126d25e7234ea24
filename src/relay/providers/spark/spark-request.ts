// The Spark request frame and where it goes. The version (v1.1 … v4.0, pro-128k, max-32k) picks
// the WebSocket path and the `domain` parameter (xfyun.cn "星火认知大模型websocket接口文档"): it
// comes from the model name's suffix (SparkDesk-v3.5), else the channel's other field, else v2.1
// (the spec's default). The frame is {header: {app_id, uid}, parameter: {chat: {domain, …}},
// payload: {message: {text: [{role, content}]}}}.
//
// Tools: the Web API takes function definitions as payload.functions.text ([{name, description,
// parameters}]) and "Spark 4.0Ultra、Max现已支持system、Function Call功能" (xfyun.cn 星火认知大模型
// Web API 文档, 接口说明): so the domains of Max (generalv3.5, max-32k) and 4.0 Ultra get them, the
// others refuse tools with 400 instead of answering without them. Spark has no tool_choice: "none"
// sends no functions, "auto" is its only behaviour, a forced tool is refused. Spark's messages know
// only the system, user and assistant roles, so earlier tool calls and their results are carried
// as text in the assistant and user turns.
import type { RelayCall } from "../adaptor.ts";
import { refuseRequest } from "../conversion-refusal.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import {
  argumentsText,
  functionToolsOf,
  maxTokensOf,
  messagesOf,
  numberField,
  stringField,
  textOf,
  toolChoiceOf,
  type SentMessage,
  toolCallsOf,
  toolCallIdOf,
  nameOf,
} from "../vendor-format-helpers/chat-request.ts";

const defaultSparkVersion = "v2.1";

type Route = { path: string; domain: string };

const routes: Record<string, Route> = {
  "v1.1": { path: "/v1.1/chat", domain: "lite" },
  "v2.1": { path: "/v2.1/chat", domain: "generalv2" },
  "v3.1": { path: "/v3.1/chat", domain: "generalv3" },
  "v3.5": { path: "/v3.5/chat", domain: "generalv3.5" },
  "v4.0": { path: "/v4.0/chat", domain: "4.0Ultra" },
  "pro-128k": { path: "/chat/pro-128k", domain: "pro-128k" },
  "max-32k": { path: "/chat/max-32k", domain: "max-32k" },
};

/** The version a call uses: the model's suffix, the channel's setting, or v2.1. */
export function sparkVersionOf(model: string, other: string): string {
  const suffix = /-(v\d+(?:\.\d+)?|pro-128k|max-32k)$/i.exec(model)?.[1]?.toLowerCase();
  if (suffix) return suffix;
  return other.trim() || defaultSparkVersion;
}

export function sparkRouteOf(version: string): Route {
  return routes[version] ?? { path: `/${version}/chat`, domain: `general${version}` };
}

/** The domains whose Web API takes function definitions. */
const functionDomains = new Set(["generalv3.5", "max-32k", "4.0Ultra"]);

function functionsOf(call: RelayCall, domain: string): Record<string, unknown>[] | undefined {
  const tools = functionToolsOf(call);
  if (tools.length === 0) return undefined;
  const choice = toolChoiceOf(call);
  if (choice?.mode === "none") return undefined;
  if (!functionDomains.has(domain)) refuseRequest("该星火版本不支持工具调用（只有 Max、Max-32K 和 4.0 Ultra 支持）");
  if (choice?.mode === "function" || choice?.mode === "required")
    refuseRequest("星火不支持指定必须调用的工具（tool_choice 只能是 auto 或 none）");
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.parameters ?? { type: "object", properties: {} },
  }));
}

/** A message's text, with the tool calls of an assistant turn and a tool result written out. */
function sparkContent(message: SentMessage, names: Map<string, string>): string {
  const text = textOf(message.content);
  if (message.role === "tool") {
    const name = names.get(toolCallIdOf(message) ?? "") ?? nameOf(message) ?? "tool";
    return `[${name} 返回] ${text}`; // i18n-exempt: text sent to Spark, not shown to users
  }
  const calls = toolCallsOf(message).map((call) => {
    if (call.id && call.name) names.set(call.id, call.name);
    return `[调用 ${call.name ?? ""}] ${argumentsText(call.arguments)}`; // i18n-exempt: sent to Spark
  });
  return [text, ...calls].filter(Boolean).join("\n");
}

export function sparkFrame(call: RelayCall, appId: string, domain: string): Record<string, unknown> {
  // Spark: max_tokens; an answer calls one function at most.
  refuseUnsupportedFields(call, "iFlytek Spark", { outputLimit: true, singleToolCall: "always" });
  const chat: Record<string, unknown> = { domain };
  const temperature = numberField(call, "temperature");
  // Spark takes temperature in (0, 1] and top_k in [1, 6].
  if (temperature !== undefined) chat.temperature = Math.min(1, Math.max(0.01, temperature));
  const maxTokens = maxTokensOf(call);
  if (maxTokens !== undefined) chat.max_tokens = maxTokens;
  const topK = numberField(call, "top_k");
  if (topK !== undefined) chat.top_k = Math.min(6, Math.max(1, Math.round(topK)));
  const header: Record<string, unknown> = { app_id: appId };
  const user = stringField(call, "user");
  if (user) header.uid = user.slice(0, 32);
  const names = new Map<string, string>();
  const text = messagesOf(call).map((message) => ({
    role: message.role === "assistant" ? "assistant" : message.role === "system" || message.role === "developer" ? "system" : "user",
    content: sparkContent(message, names),
  }));
  const functions = functionsOf(call, domain);
  const payload: Record<string, unknown> = { message: { text } };
  if (functions) payload.functions = { text: functions };
  return { header, parameter: { chat }, payload };
}
