// An Anthropic Messages request as an OpenAI chat request (for channels that do not speak
// Claude): `system` becomes the first message; content blocks become parts (images as URLs or
// data URLs, text documents as text, PDFs as file parts); tool_use blocks become the assistant's
// tool_calls and tool_result blocks tool messages, placed before the rest of their user turn
// as OpenAI requires; thinking the gateway signed gives another vendor its state back
// (reasoning-state.ts); tools go through claude-tools.ts; tool_choice, stop sequences and
// thinking (enabled or adaptive, with output_config.effort) map to their chat kin.
// Wire facts: Anthropic's Messages API reference (request body, content blocks, tools).
import { AppError } from "../../../errors/app-error.ts";
import type { ChatConversion } from "../inbound-codec.ts";
import { applyReasoningToChat, decodeReasoning, mergeReasoning, type ReasoningState } from "../reasoning-state.ts";
import { claudeTools } from "./claude-tools.ts";
import type { ChatContentPart, ChatMessage, ChatRequest, ChatToolCall } from "../../providers/openai-chat-wire.ts";
import { unverified, unverifiedList, type Unverified } from "../../providers/unverified.ts";
import type {
  ClaudeContentBlock,
  ClaudeDocumentSource,
  ClaudeMessageParam,
  ClaudeRequest,
  ClaudeToolChoice,
  ClaudeToolReferenceBlock,
} from "../../providers/claude/claude-wire.ts";

/** A client's content block (or a tool result's inner block), not yet checked. */
type Block = Unverified<ClaudeContentBlock | ClaudeToolReferenceBlock>;

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
  typeof content === "string" ? [{ type: "text", text: content }] : unverifiedList<ClaudeContentBlock | ClaudeToolReferenceBlock>(content);

/** The system prompt: a string or text blocks. */
function claudeSystemText(system: unknown): string {
  return blocksOf(system)
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : undefined))
    .filter((text) => text !== undefined)
    .join("\n");
}

/** A block's source ({} when it has none). */
const sourceOf = (block: Block): Unverified<ClaudeDocumentSource> => unverified<ClaudeDocumentSource>(block.source) ?? {};

function imagePart(block: Block, conversion: Conversion): ChatContentPart | undefined {
  const source = sourceOf(block);
  // (Interpolated as sent: a malformed source reaches the channel, which refuses it.)
  if (source.type === "base64")
    return { type: "image_url", image_url: { url: `data:${String(source.media_type)};base64,${String(source.data)}` } };
  if (source.type === "url") return { type: "image_url", image_url: { url: String(source.url) } };
  conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: `image/${String(source.type)}` });
  return undefined;
}

function documentPart(block: Block, conversion: Conversion): ChatContentPart | undefined {
  const source = sourceOf(block);
  if (source.type === "text" && typeof source.data === "string") return { type: "text", text: source.data };
  if (source.type === "content") {
    const text = blocksOf(source.content)
      .filter((item) => item.type === "text")
      .map((item) => item.text ?? "")
      .join("\n");
    return { type: "text", text };
  }
  if (source.type === "base64" && source.media_type === "application/pdf") {
    return {
      type: "file",
      file: {
        filename: typeof block.title === "string" ? block.title : "document.pdf",
        file_data: `data:application/pdf;base64,${String(source.data)}`,
      },
    };
  }
  conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: `document/${String(source.type)}` });
  return undefined;
}

function partOf(block: Block, conversion: Conversion): ChatContentPart | undefined {
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
function chatContent(parts: ChatContentPart[]): string | ChatContentPart[] {
  const texts = parts.map((part) => (part.type === "text" ? part.text : undefined));
  return texts.every((text) => text !== undefined) ? texts.join("\n") : parts;
}

function userMessages(content: unknown, conversion: Conversion): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  const resultImages: ChatContentPart[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === "tool_result") {
      const inner = blocksOf(block.content);
      // Tools a tool search loaded (tool_reference blocks) are named for the model.
      const references = inner.filter((item) => item.type === "tool_reference" && typeof item.tool_name === "string");
      const text = [
        ...(references.length ? [`Tools loaded: ${references.map((item) => item.tool_name).join(", ")}`] : []),
        ...inner.filter((item) => item.type === "text").map((item) => String(item.text ?? "")),
      ].join("\n");
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

/** Records of tools Anthropic ran (server_tool_use, web_search_tool_result...): nothing to give another vendor. */
const serverToolRecord = (type: unknown) => type === "server_tool_use" || (typeof type === "string" && type.endsWith("_tool_result"));

function assistantMessage(content: unknown, conversion: Conversion): ChatMessage | undefined {
  const texts: string[] = [];
  const toolCalls: ChatToolCall[] = [];
  let state: ReasoningState | undefined;
  for (const block of blocksOf(content)) {
    // Thinking the gateway signed (another vendor's state, reasoning-state.ts) gives that state back;
    // Anthropic's own signatures mean nothing to another vendor.
    if (block.type === "thinking") state = mergeReasoning(state, decodeReasoning(block.signature));
    if (block.type === "tool_use") {
      toolCalls.push({
        id: String(block.id ?? ""),
        type: "function",
        function: { name: String(block.name ?? ""), arguments: JSON.stringify(block.input ?? {}) },
      });
    } else if (block.type === "text") texts.push(String(block.text ?? ""));
    else if (block.type !== "thinking" && block.type !== "redacted_thinking" && !serverToolRecord(block.type)) {
      conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: String(block.type) });
    }
  }
  const text = texts.join("");
  if (text === "" && toolCalls.length === 0) return undefined;
  const message: ChatMessage = {
    role: "assistant",
    content: text === "" ? null : text,
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
  };
  applyReasoningToChat(message, state);
  return message;
}

function reasoningEffort(body: Unverified<ClaudeRequest>): string | undefined {
  const effort = unverified<NonNullable<ClaudeRequest["output_config"]>>(body.output_config)?.effort;
  if (effort === "low" || effort === "medium" || effort === "high") return effort;
  if (effort === "xhigh" || effort === "max") return "high";
  const thinking = unverified<NonNullable<ClaudeRequest["thinking"]>>(body.thinking);
  if (thinking?.type === "enabled" && typeof thinking.budget_tokens === "number") return effortOfBudget(thinking.budget_tokens);
  // Adaptive thinking without an effort: Anthropic's default effort is high.
  if (thinking?.type === "adaptive") return "high";
  return undefined;
}

export function claudeToChat(body: Unverified<ClaudeRequest>, model: string, stream: boolean): ChatConversion {
  const conversion = new Conversion();
  const messages: ChatMessage[] = [];
  const system = claudeSystemText(body.system);
  if (system) messages.push({ role: "system", content: system });
  for (const item of Array.isArray(body.messages) ? body.messages : []) {
    // A turn that is not an object reads as a user turn without content (as before the types).
    const message = unverified<ClaudeMessageParam>(item);
    if (message?.role === "assistant") {
      const assistant = assistantMessage(message.content, conversion);
      if (assistant) messages.push(assistant);
    } else if (message?.role === "system") {
      messages.push({ role: "system", content: claudeSystemText(message.content) });
    } else messages.push(...userMessages(message?.content, conversion));
  }

  const chat: ChatRequest = { model, messages };
  if (typeof body.max_tokens === "number") chat.max_tokens = body.max_tokens;
  if (typeof body.temperature === "number") chat.temperature = body.temperature;
  if (typeof body.top_p === "number") chat.top_p = body.top_p;
  const stop: unknown[] = Array.isArray(body.stop_sequences) ? body.stop_sequences : [];
  if (stop.length > 0) chat.stop = stop.filter((sequence) => typeof sequence === "string");
  const user = unverified<NonNullable<ClaudeRequest["metadata"]>>(body.metadata)?.user_id;
  if (typeof user === "string") chat.user = user;
  const tools = claudeTools(body);
  if (tools.refusal) conversion.refusal ??= tools.refusal;
  if (tools.tools.length > 0) {
    chat.tools = tools.tools;
    if (tools.toolChoice !== undefined) chat.tool_choice = tools.toolChoice;
    if (unverified<ClaudeToolChoice>(body.tool_choice)?.disable_parallel_tool_use === true) chat.parallel_tool_calls = false;
  }
  const effort = reasoningEffort(body);
  if (effort) chat.reasoning_effort = effort;
  if (stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return {
    chat,
    refusal: conversion.refusal,
    ...(tools.hosted.length ? { hostedTools: tools.hosted } : {}),
    ...(tools.requiredHosted ? { requiredHostedTool: tools.requiredHosted } : {}),
    ...(tools.leftOut.length ? { leftOut: tools.leftOut } : {}),
  };
}
