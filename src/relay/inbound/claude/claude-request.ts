// An Anthropic Messages request as an OpenAI chat request (for channels that do not speak
// Claude): `system` becomes the first message; content blocks become parts (images as URLs or
// data URLs, text documents as text, PDFs as file parts); tool_use blocks become the assistant's
// tool_calls and tool_result blocks tool messages, placed before the rest of their user turn
// as OpenAI requires; tools, tool_choice, stop sequences and thinking map to their chat kin.
// Wire facts: Anthropic's Messages API reference (request body, content blocks, tools).
import { AppError } from "../../../errors/app-error.ts";
import type { ChatConversion } from "../inbound-codec.ts";

type Block = Record<string, any>;
type ChatPart = Record<string, unknown>;
type ChatMessage = Record<string, unknown>;

/** Thinking budgets as chat reasoning efforts (budgets are at least 1024 tokens). */
export function effortOfBudget(budget: number): "low" | "medium" | "high" {
  if (budget < 4096) return "low";
  if (budget < 16384) return "medium";
  return "high";
}

class Conversion {
  refusal: AppError | undefined;
  refuse(key: string, params: Record<string, string>): void {
    this.refusal ??= new AppError("invalid", key, params, { code: "conversion_unsupported" });
  }
}

const blocksOf = (content: unknown): Block[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content.filter((block) => block && typeof block === "object") : [];

/** The system prompt: a string or text blocks. */
export function claudeSystemText(system: unknown): string {
  return blocksOf(system)
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n");
}

function imagePart(block: Block, conversion: Conversion): ChatPart | undefined {
  const source = block.source ?? {};
  if (source.type === "base64") return { type: "image_url", image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  if (source.type === "url") return { type: "image_url", image_url: { url: source.url } };
  conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: `image/${String(source.type)}` });
  return undefined;
}

function documentPart(block: Block, conversion: Conversion): ChatPart | undefined {
  const source = block.source ?? {};
  if (source.type === "text" && typeof source.data === "string") return { type: "text", text: source.data };
  if (source.type === "content") {
    const text = blocksOf(source.content).filter((item) => item.type === "text").map((item) => item.text).join("\n");
    return { type: "text", text };
  }
  if (source.type === "base64" && source.media_type === "application/pdf") {
    return { type: "file", file: { filename: typeof block.title === "string" ? block.title : "document.pdf", file_data: `data:application/pdf;base64,${source.data}` } };
  }
  conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: `document/${String(source.type)}` });
  return undefined;
}

function partOf(block: Block, conversion: Conversion): ChatPart | undefined {
  switch (block.type) {
    case "text":
      return { type: "text", text: String(block.text ?? "") };
    case "image":
      return imagePart(block, conversion);
    case "document":
      return documentPart(block, conversion);
    case "thinking":
    case "redacted_thinking":
      // The chat format has no way to send reasoning back; the model does not need it.
      return undefined;
    default:
      conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: String(block.type) });
      return undefined;
  }
}

/** Parts as the chat content: a plain string when they are all text (some vendors take nothing else). */
function chatContent(parts: ChatPart[]): string | ChatPart[] {
  return parts.every((part) => part.type === "text") ? parts.map((part) => part.text as string).join("\n") : parts;
}

function userMessages(content: unknown, conversion: Conversion): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const parts: ChatPart[] = [];
  const resultImages: ChatPart[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === "tool_result") {
      const inner = blocksOf(block.content);
      const text = inner.filter((item) => item.type === "text").map((item) => String(item.text ?? "")).join("\n");
      for (const item of inner) {
        const image = item.type === "image" ? imagePart(item, conversion) : undefined;
        if (image) resultImages.push(image);
      }
      messages.push({ role: "tool", tool_call_id: String(block.tool_use_id ?? ""), content: text });
      continue;
    }
    const part = partOf(block, conversion);
    if (part) parts.push(part);
  }
  // Tool messages hold text only: images a tool returned follow as the user's.
  parts.unshift(...resultImages);
  if (parts.length > 0) messages.push({ role: "user", content: chatContent(parts) });
  return messages;
}

function assistantMessage(content: unknown, conversion: Conversion): ChatMessage | undefined {
  const texts: string[] = [];
  const toolCalls: Record<string, unknown>[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === "tool_use") {
      toolCalls.push({ id: String(block.id ?? ""), type: "function", function: { name: String(block.name ?? ""), arguments: JSON.stringify(block.input ?? {}) } });
    } else if (block.type === "text") texts.push(String(block.text ?? ""));
    else if (block.type !== "thinking" && block.type !== "redacted_thinking") {
      conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: String(block.type) });
    }
  }
  const text = texts.join("");
  if (text === "" && toolCalls.length === 0) return undefined;
  return { role: "assistant", content: text === "" ? null : text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
}

function chatTools(tools: unknown, conversion: Conversion): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  for (const tool of Array.isArray(tools) ? (tools as Block[]) : []) {
    if (tool.type !== undefined && tool.type !== "custom") {
      conversion.refuse("工具类型 {{type}} 只能由原生支持该格式的渠道执行", { type: String(tool.type) });
      continue;
    }
    const fn: Record<string, unknown> = { name: tool.name, parameters: tool.input_schema ?? { type: "object", properties: {} } };
    if (typeof tool.description === "string") fn.description = tool.description;
    if (typeof tool.strict === "boolean") fn.strict = tool.strict;
    result.push({ type: "function", function: fn });
  }
  return result;
}

function chatToolChoice(choice: Block | undefined): unknown {
  switch (choice?.type) {
    case "auto":
      return "auto";
    case "any":
      return "required";
    case "none":
      return "none";
    case "tool":
      return { type: "function", function: { name: String(choice.name ?? "") } };
    default:
      return undefined;
  }
}

function reasoningEffort(body: Record<string, any>): string | undefined {
  const effort = body.output_config?.effort;
  if (effort === "low" || effort === "medium" || effort === "high") return effort;
  if (effort === "xhigh" || effort === "max") return "high";
  const thinking = body.thinking;
  if (thinking?.type === "enabled" && typeof thinking.budget_tokens === "number") return effortOfBudget(thinking.budget_tokens);
  return undefined;
}

export function claudeToChat(body: Record<string, any>, model: string, stream: boolean): ChatConversion {
  const conversion = new Conversion();
  const messages: ChatMessage[] = [];
  const system = claudeSystemText(body.system);
  if (system) messages.push({ role: "system", content: system });
  for (const message of Array.isArray(body.messages) ? (body.messages as Block[]) : []) {
    if (message?.role === "assistant") {
      const assistant = assistantMessage(message.content, conversion);
      if (assistant) messages.push(assistant);
    } else if (message?.role === "system") {
      messages.push({ role: "system", content: claudeSystemText(message.content) });
    } else messages.push(...userMessages(message?.content, conversion));
  }

  const chat: Record<string, unknown> = { model, messages };
  if (typeof body.max_tokens === "number") chat.max_tokens = body.max_tokens;
  for (const field of ["temperature", "top_p"] as const) if (typeof body[field] === "number") chat[field] = body[field];
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0) chat.stop = body.stop_sequences;
  if (typeof body.metadata?.user_id === "string") chat.user = body.metadata.user_id;
  const tools = chatTools(body.tools, conversion);
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = chatToolChoice(body.tool_choice);
    if (choice !== undefined) chat.tool_choice = choice;
    if (body.tool_choice?.disable_parallel_tool_use === true) chat.parallel_tool_calls = false;
  }
  const effort = reasoningEffort(body);
  if (effort) chat.reasoning_effort = effort;
  if (stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return { chat, refusal: conversion.refusal };
}
