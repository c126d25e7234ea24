// OpenAI chat answers as the inbound conversions read them: a whole chat.completion reduced to
// its choices (text, reasoning, tool calls, finish reason), and the shape of a stream chunk.
// Vendors differ in small ways (content as a list of parts, reasoning under another name); the
// reading is lenient so every OpenAI-style channel converts. The vendor state a message
// carries for the next turn (inbound/reasoning-state.ts) is read with it.
import { reasoningOfChat, type ReasoningState } from "./reasoning-state.ts";

/** A tool call of an answer as the inbound conversions read it (not the wire shape: openai-chat-wire.ts). */
export type AnswerToolCall = { id: string; name: string; arguments: string };

export type ChatChoice = {
  index: number;
  content: string;
  reasoning: string;
  toolCalls: AnswerToolCall[];
  /** stop | length | tool_calls | content_filter | function_call, or null when none was given. */
  finish: string | null;
  /** Signed thinking, thought signatures: what the vendor wants back on the next turn. */
  state?: ReasoningState;
};

export type ChatAnswer = { id: string; model: string; created: number; choices: ChatChoice[] };

export type ChunkToolCall = {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
  extra_content?: unknown;
};

export type ChatChunk = {
  id?: string;
  model?: string;
  created?: number;
  choices?: {
    index?: number;
    delta?: {
      role?: string;
      content?: unknown;
      reasoning_content?: unknown;
      reasoning?: unknown;
      tool_calls?: ChunkToolCall[];
      extra_content?: unknown;
    };
    finish_reason?: string | null;
  }[];
  usage?: unknown;
  error?: { message?: unknown; type?: unknown; code?: unknown; param?: unknown } | string;
};

/** Text of a content that may be a string or a list of parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content) {
    if (typeof part === "string") text += part;
    else if (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string")
      text += (part as { text: string }).text;
  }
  return text;
}

/** Reasoning under the names vendors use (reasoning_content, DeepSeek and most; reasoning, some). */
function reasoningOf(message: { reasoning_content?: unknown; reasoning?: unknown } | undefined): string {
  if (!message) return "";
  if (typeof message.reasoning_content === "string") return message.reasoning_content;
  return typeof message.reasoning === "string" ? message.reasoning : "";
}

export function readChatAnswer(body: unknown): ChatAnswer {
  const record = (body && typeof body === "object" ? body : {}) as Record<string, any>;
  const choices: ChatChoice[] = [];
  const list: Record<string, any>[] = Array.isArray(record.choices) ? record.choices : [];
  list.forEach((choice, position) => {
    const message = (choice?.message ?? {}) as Record<string, any>;
    const toolCalls: AnswerToolCall[] = [];
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (!call || typeof call !== "object") continue;
      toolCalls.push({
        id: typeof call.id === "string" && call.id ? call.id : `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
        name: String(call.function?.name ?? ""),
        arguments: typeof call.function?.arguments === "string" ? call.function.arguments : JSON.stringify(call.function?.arguments ?? {}),
      });
    }
    const state = reasoningOfChat(message);
    choices.push({
      index: typeof choice?.index === "number" ? choice.index : position,
      content: textOf(message.content),
      reasoning: reasoningOf(message),
      toolCalls,
      finish: typeof choice?.finish_reason === "string" ? choice.finish_reason : null,
      ...(state ? { state } : {}),
    });
  });
  return {
    id: typeof record.id === "string" ? record.id : "",
    model: typeof record.model === "string" ? record.model : "",
    created: typeof record.created === "number" ? record.created : Math.floor(Date.now() / 1000),
    choices,
  };
}

/** Tool-call arguments as an object (what Claude's input and Gemini's args are); {} when unreadable. */
export function argumentsObject(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : { value };
  } catch {
    return {};
  }
}
