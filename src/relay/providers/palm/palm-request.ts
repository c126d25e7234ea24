// An OpenAI chat request as a PaLM 2 generateMessage request (v1beta2): system messages become
// the prompt's context, the conversation its messages with two authors ("0" the user, "1" the
// model; consecutive messages of one author are joined). PaLM chat takes text only and knows no
// tools, and takes no output limit or stop sequences: tools, images and an output limit are refused
// rather than dropped (stop sequences are left out).
import { refuseRequest } from "../conversion-refusal.ts";
import type { ChatMessage } from "../openai-chat-wire.ts";
import { unverified } from "../unverified.ts";

type Json = Record<string, unknown>;

const userAuthor = "0";
const modelAuthor = "1";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) refuseRequest("消息内容格式无效");
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      if (part?.type === "text" && typeof part.text === "string") return part.text;
      return refuseRequest("PaLM 2 只支持文本消息");
    })
    .join("");
}

export function palmMessageBody(json: Json): Json {
  if (Array.isArray(json.tools) && json.tools.length) refuseRequest("PaLM 2 不支持工具调用");
  if (!Array.isArray(json.messages)) refuseRequest("消息内容格式无效");
  const context: string[] = [];
  const messages: { author: string; content: string }[] = [];
  for (const item of json.messages) {
    // (A message that is not an object has no role: refused below.)
    const message = unverified<ChatMessage>(item);
    const text = textOf(message?.content);
    if (message?.role === "system" || message?.role === "developer") {
      if (text) context.push(text);
      continue;
    }
    if (message?.role !== "user" && message?.role !== "assistant")
      refuseRequest("PaLM 2 不支持该消息角色（只支持 system、user 和 assistant）");
    const author = message?.role === "user" ? userAuthor : modelAuthor;
    const last = messages[messages.length - 1];
    if (last?.author === author) last.content += `\n\n${text}`;
    else messages.push({ author, content: text });
  }
  if (messages.length === 0) refuseRequest("PaLM 2 至少需要一条 user 或 assistant 消息");
  const body: Json = { prompt: { ...(context.length ? { context: context.join("\n\n") } : {}), messages } };
  if (typeof json.temperature === "number") body.temperature = json.temperature;
  if (typeof json.top_p === "number") body.topP = json.top_p;
  if (typeof json.top_k === "number") body.topK = json.top_k;
  if (typeof json.n === "number" && json.n > 1) body.candidateCount = json.n;
  return body;
}
