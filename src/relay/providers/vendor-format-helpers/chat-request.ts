// Reading a client's OpenAI chat request for vendors with a format of their own: typed access to
// the messages, their text, tools and the common sampling fields. The relay already checked that
// a chat call has messages; anything else is read leniently (a wrong type counts as absent).
import { AppError } from "../../../errors/app-error.ts";
import type { RelayCall } from "../adaptor.ts";
import type { ChatMessage, ChatToolCall } from "../openai-chat-wire.ts";
import { unverified, unverifiedList, type Unverified } from "../unverified.ts";

/** A client's message: its role a text, every other field as sent (read with the helpers below). */
export type SentMessage = Unverified<ChatMessage> & { role: string };

/** A tool call of a client's assistant message: its id, name and arguments where they are text. */
export type SentToolCall = { id?: string; name?: string; arguments: unknown };

export type FunctionTool = { name: string; description?: string; parameters?: unknown };

type Part = { type?: string; text?: string; image_url?: { url?: string } | string };

/** The text of a message content: the string itself, or the text parts joined. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Part[])
    .filter((part) => part && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

/** The image URLs of a message content (data: URLs included). */
export function imagesOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const urls: string[] = [];
  for (const part of content as Part[]) {
    if (part?.type !== "image_url") continue;
    const url = typeof part.image_url === "string" ? part.image_url : part.image_url?.url;
    if (url) urls.push(url);
  }
  return urls;
}

export function messagesOf(call: RelayCall): SentMessage[] {
  const messages: SentMessage[] = [];
  for (const message of unverifiedList<ChatMessage>(call.json?.messages)) {
    const role = message.role;
    if (typeof role === "string") messages.push({ ...message, role });
  }
  return messages;
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** A message's tool calls (the objects among them). */
export function toolCallsOf(message: SentMessage): SentToolCall[] {
  return unverifiedList<ChatToolCall>(message.tool_calls).map((call) => {
    const fn = unverified<ChatToolCall["function"]>(call.function);
    return { id: text(call.id), name: text(fn?.name), arguments: fn?.arguments };
  });
}

/** A message's name and tool_call_id, where they are text. */
export const nameOf = (message: SentMessage): string | undefined => text(message.name);
export const toolCallIdOf = (message: SentMessage): string | undefined => text(message.tool_call_id);

/** The function tools of the request (other tool types have no equivalent upstream). */
export function functionToolsOf(call: RelayCall): FunctionTool[] {
  const tools = call.json?.tools;
  const result: FunctionTool[] = [];
  if (Array.isArray(tools)) {
    for (const tool of tools as { type?: string; function?: FunctionTool }[]) {
      if (tool?.type === "function" && typeof tool.function?.name === "string") result.push(tool.function);
    }
  }
  // The deprecated `functions` field says the same.
  const functions = call.json?.functions;
  if (Array.isArray(functions)) {
    for (const fn of functions as FunctionTool[]) if (typeof fn?.name === "string") result.push(fn);
  }
  return result;
}

export const numberField = (call: RelayCall, name: string): number | undefined => {
  const value = call.json?.[name];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
};

export const stringField = (call: RelayCall, name: string): string | undefined => {
  const value = call.json?.[name];
  return typeof value === "string" && value !== "" ? value : undefined;
};

/** max_tokens, or the newer max_completion_tokens. */
export function maxTokensOf(call: RelayCall): number | undefined {
  return numberField(call, "max_tokens") ?? numberField(call, "max_completion_tokens");
}

/** `stop` as a list (OpenAI takes a string or a list). */
export function stopsOf(call: RelayCall): string[] | undefined {
  const stop = call.json?.stop;
  if (typeof stop === "string" && stop !== "") return [stop];
  if (Array.isArray(stop)) {
    const list = stop.filter((item): item is string => typeof item === "string" && item !== "");
    return list.length ? list : undefined;
  }
  return undefined;
}

/** The input of an embeddings call as a list of texts. */
export function embeddingInputsOf(call: RelayCall): string[] {
  const input = call.json?.input;
  if (typeof input === "string") return [input];
  if (Array.isArray(input) && input.every((item) => typeof item === "string")) return input as string[];
  // Token arrays cannot be sent to vendors that take text.
  throw new AppError("invalid", "尚未实现", undefined, { httpStatus: 400, code: "convert_request_failed" });
}

/** What an adaptor says about an endpoint it does not serve (another channel may). */
export function unsupportedEndpoint(): AppError {
  return new AppError("invalid", "尚未实现", undefined, { httpStatus: 501, code: "convert_request_failed" });
}

/** OpenAI's tool_choice as a function name to force, "none", "auto" or "required". */
export function toolChoiceOf(call: RelayCall): { mode: "auto" | "none" | "required" } | { mode: "function"; name: string } | undefined {
  const choice = call.json?.tool_choice;
  if (choice === "auto" || choice === "none" || choice === "required") return { mode: choice };
  const name = (choice as { function?: { name?: unknown } } | undefined)?.function?.name;
  if (typeof name === "string") return { mode: "function", name };
  return undefined;
}

/** Tool arguments as a JSON text (some vendors send an object). */
export function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "{}";
  return JSON.stringify(value);
}

/** The call without some body fields (for vendors that refuse them), its bytes rebuilt. */
export function withoutFields(call: RelayCall, names: readonly string[]): RelayCall {
  const json = call.json;
  if (!json || !names.some((name) => name in json)) return call;
  const kept = Object.fromEntries(Object.entries(json).filter(([name]) => !names.includes(name)));
  return { ...call, json: kept, rawBody: new TextEncoder().encode(JSON.stringify(kept)) };
}
