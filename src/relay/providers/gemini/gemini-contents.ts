// OpenAI chat messages as Gemini contents. System (and developer) messages become the
// systemInstruction, never a content: Gemini knows only the roles "user" and "model". Assistant
// messages are "model" turns, their tool calls functionCall parts (carrying back the thought
// signature Gemini attached to them, which thinking models require on the next turn); tool
// results are functionResponse parts of a "user" turn, named after the call they answer.
// Consecutive turns of one role are merged into one content.
import { refuseRequest } from "../conversion-refusal.ts";
import { partsOfContent, textOfContent, type GeminiPart } from "./gemini-parts.ts";

export type GeminiContent = { role: "user" | "model"; parts: GeminiPart[] };
export type GeminiConversation = { systemInstruction?: { parts: GeminiPart[] }; contents: GeminiContent[] };

type ToolCall = {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
  extra_content?: { google?: { thought_signature?: unknown } };
};
type Message = {
  role?: unknown;
  content?: unknown;
  name?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
  function_call?: { name?: unknown; arguments?: unknown };
};

function parseArguments(text: unknown, name: string): Record<string, unknown> {
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

function functionCallPart(call: ToolCall): GeminiPart {
  const name = typeof call.function?.name === "string" ? call.function.name : "";
  if (!name) refuseRequest("工具调用缺少 id 或名称");
  const part: GeminiPart = { functionCall: { name, args: parseArguments(call.function?.arguments, name) } };
  const signature = call.extra_content?.google?.thought_signature;
  if (typeof signature === "string" && signature) part.thoughtSignature = signature;
  return part;
}

/** A tool's answer as the Struct functionResponse.response needs: its JSON object, or the text wrapped. */
function responseOf(content: unknown): Record<string, unknown> {
  const text = textOfContent(content);
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    return { content: parsed };
  } catch {
    return { content: text };
  }
}

export function conversationOf(messages: unknown): GeminiConversation {
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

  for (const message of messages as Message[]) {
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
        const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as ToolCall[]) : [];
        for (const call of calls) {
          parts.push(functionCallPart(call));
          if (typeof call.id === "string" && typeof call.function?.name === "string") callNames.set(call.id, call.function.name);
        }
        if (message.function_call) parts.push(functionCallPart({ function: message.function_call }));
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
  return { ...(system.length ? { systemInstruction: { parts: system } } : {}), contents };
}
