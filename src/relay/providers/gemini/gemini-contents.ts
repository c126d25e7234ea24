// OpenAI chat messages as Gemini contents. System (and developer) messages become the
// systemInstruction, never a content: Gemini knows only the roles "user" and "model". Assistant
// messages are "model" turns, their tool calls functionCall parts (carrying back the thought
// signature Gemini attached to them, which thinking models require on the next turn); tool
// results are functionResponse parts of a "user" turn, named after the call they answer.
// Consecutive turns of one role are merged into one content. A signature Gemini put on a text
// part (the message's extra_content.google.thought_signature) goes back on its last part.
// Gemini 3 refuses a step of the current turn whose first function call lost its signature (a
// client that kept no state, or history made by another model): such a call gets the value
// Google documents for histories without signatures, "skip_thought_signature_validator".
import { refuseRequest } from "../conversion-refusal.ts";
import type { ChatExtraContent, ChatMessage, ChatToolCall } from "../openai-chat-wire.ts";
import { unverified } from "../unverified.ts";
import { partsOfContent, textOfContent } from "./gemini-parts.ts";
import type { GeminiContent, GeminiPart, GeminiStruct } from "./gemini-wire.ts";

export type GeminiConversation = { systemInstruction?: { parts: GeminiPart[] }; contents: GeminiContent[] };

/** Google's thought signature in a chat message's or tool call's extra_content. */
const signatureIn = (extra: unknown): unknown =>
  unverified<NonNullable<ChatExtraContent["google"]>>(unverified<ChatExtraContent>(extra)?.google)?.thought_signature;

function parseArguments(text: unknown): GeminiStruct {
  if (text === undefined || text === null || text === "") return {};
  if (typeof text !== "string") refuseRequest("工具调用参数不是合法的 JSON");
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
  } catch {
    // refused below
  }
  return refuseRequest("工具调用参数不是合法的 JSON");
}

function functionCallPart(call: { function?: unknown; extra_content?: unknown }): GeminiPart {
  const fn = unverified<ChatToolCall["function"]>(call.function);
  const name = typeof fn?.name === "string" ? fn.name : "";
  if (!name) refuseRequest("工具调用缺少 id 或名称");
  const part: GeminiPart = { functionCall: { name, args: parseArguments(fn?.arguments) } };
  const signature = signatureIn(call.extra_content);
  if (typeof signature === "string" && signature) part.thoughtSignature = signature;
  return part;
}

/** A tool's answer as the Struct functionResponse.response needs: its JSON object, or the text wrapped. */
function responseOf(content: unknown): GeminiStruct {
  const text = textOfContent(content);
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    return { content: parsed };
  } catch {
    return { content: text };
  }
}

/** Google's documented signature for function calls whose own signature is not available. */
export const skipSignature = "skip_thought_signature_validator";

/**
 * Signs the first function call of each model step of the current turn (the contents after the
 * last user content that is not only function responses) that has no signature.
 */
function signCurrentTurn(contents: GeminiContent[]): void {
  let start = 0;
  contents.forEach((content, index) => {
    if (content.role === "user" && content.parts.some((part) => !("functionResponse" in part))) start = index + 1;
  });
  for (const content of contents.slice(start)) {
    if (content.role !== "model") continue;
    const first = content.parts.find((part) => "functionCall" in part);
    if (first && !first.thoughtSignature) first.thoughtSignature = skipSignature;
  }
}

export function conversationOf(messages: unknown, options: { signCurrentTurn?: boolean } = {}): GeminiConversation {
  if (!Array.isArray(messages)) refuseRequest("消息内容格式无效");
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  /** Function names by tool call id, to name the responses. */
  const callNames = new Map<string, string>();

  const add = (role: GeminiContent["role"], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const item of messages) {
    const message = unverified<ChatMessage>(item);
    switch (message?.role) {
      case "system":
      case "developer": {
        const text = textOfContent(message.content);
        if (text) system.push({ text });
        break;
      }
      case "user":
        add("user", partsOfContent(message.content));
        break;
      case "assistant": {
        const parts = partsOfContent(message.content);
        for (const value of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
          // (A call that is not an object has no name: refused.)
          const call = unverified<ChatToolCall>(value) ?? {};
          parts.push(functionCallPart(call));
          const name = unverified<ChatToolCall["function"]>(call.function)?.name;
          if (typeof call.id === "string" && typeof name === "string") callNames.set(call.id, name);
        }
        if (message.function_call) parts.push(functionCallPart({ function: message.function_call }));
        const signature = signatureIn(message.extra_content);
        const last = parts[parts.length - 1];
        if (typeof signature === "string" && signature && last && !last.thoughtSignature && !("functionCall" in last))
          last.thoughtSignature = signature;
        add("model", parts);
        break;
      }
      case "tool":
      case "function": {
        const id = typeof message.tool_call_id === "string" ? message.tool_call_id : "";
        const name = callNames.get(id) ?? (typeof message.name === "string" ? message.name : "");
        if (!name) refuseRequest("工具消息必须回应此前助手消息中的工具调用");
        add("user", [{ functionResponse: { name, response: responseOf(message.content) } }]);
        break;
      }
      default:
        refuseRequest("Gemini 不支持该消息角色（只支持 system、developer、user、assistant 和 tool）");
    }
  }
  if (options.signCurrentTurn) signCurrentTurn(contents);
  return { ...(system.length ? { systemInstruction: { parts: system } } : {}), contents };
}
