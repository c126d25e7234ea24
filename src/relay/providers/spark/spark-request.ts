// The Spark request frame and where it goes. The version (v1.1 … v4.0, pro-128k, max-32k) picks
// the WebSocket path and the `domain` parameter (xfyun.cn "星火认知大模型websocket接口文档"): it
// comes from the model name's suffix (SparkDesk-v3.5), else the channel's other field, else v2.1
// (the spec's default). The frame is {header: {app_id, uid}, parameter: {chat: {domain, …}},
// payload: {message: {text: [{role, content}]}}}.
import type { RelayCall } from "../adaptor.ts";
import { maxTokensOf, messagesOf, numberField, stringField, textOf } from "../openai-format/chat-request.ts";

export const defaultSparkVersion = "v2.1";

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

export function sparkFrame(call: RelayCall, appId: string, domain: string): Record<string, unknown> {
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
  const text = messagesOf(call).map((message) => ({
    role: message.role === "assistant" ? "assistant" : message.role === "system" || message.role === "developer" ? "system" : "user",
    content: textOf(message.content),
  }));
  return { header, parameter: { chat }, payload: { message: { text } } };
}
