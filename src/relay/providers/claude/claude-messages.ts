// OpenAI chat messages as Claude Messages API turns. Claude keeps the system prompt out of the
// turns (top-level `system`), knows only the user and assistant roles, wants them alternating,
// takes tool results as `tool_result` blocks in a user turn (all results of one step together,
// before any text), refuses empty text blocks and a final assistant turn ending in whitespace.
// An assistant message's signed thinking (extra_content.anthropic.thinking_blocks, see
// inbound/reasoning-state.ts) opens its turn again, as Claude requires of a tool step.
import { refuseRequest } from "../conversion-refusal.ts";
import { reasoningOfChat } from "../../inbound/reasoning-state.ts";
import type { ChatContentPart, ChatFilePart, ChatImagePart, ChatMessage, ChatToolCall } from "../openai-chat-wire.ts";
import { isJsonObject, unverified, type Unverified } from "../unverified.ts";
import type {
  ClaudeCacheControl,
  ClaudeContentBlock,
  ClaudeDocumentBlock,
  ClaudeImageBlock,
  ClaudeMessageParam,
  ClaudeTextBlock,
  ClaudeToolResultBlock,
  ClaudeToolUseBlock,
} from "./claude-wire.ts";

/** What a user, system or tool message's content becomes. */
type ClaudeUserBlock = ClaudeTextBlock | ClaudeImageBlock | ClaudeDocumentBlock;

/**
 * How images given by URL are sent: the Anthropic API fetches `url` sources itself; Bedrock and
 * Vertex accept only base64 data, so those types download the links first
 * (vendor-format-helpers/inline-images.ts) and a link left here is refused.
 */
export type ImagePolicy = "url-source" | "base64-only";

const dataUrl = /^data:([^;,]+);base64,(.*)$/s;

/** A client's cache_control (Anthropic's, passed on in a chat part): only the ephemeral kind exists. */
export function cacheControlOf(value: unknown): ClaudeCacheControl | undefined {
  if (!isJsonObject(value) || value.type !== "ephemeral") return undefined;
  const ttl = value.ttl;
  return ttl === "5m" || ttl === "1h" ? { type: "ephemeral", ttl } : { type: "ephemeral" };
}

function textBlock(text: string, cacheControl?: unknown): ClaudeTextBlock | undefined {
  if (text === "") return undefined;
  const cache = cacheControlOf(cacheControl);
  return cache ? { type: "text", text, cache_control: cache } : { type: "text", text };
}

function imageBlock(url: string, policy: ImagePolicy): ClaudeImageBlock {
  const inline = dataUrl.exec(url);
  if (inline) return { type: "image", source: { type: "base64", media_type: inline[1]!, data: inline[2]! } };
  if (!/^https?:\/\//i.test(url)) refuseRequest("图片地址无效，请使用 http(s) 链接或 base64 data URL");
  if (policy === "base64-only") refuseRequest("该渠道只接受 base64 图片，不接受图片链接");
  return { type: "image", source: { type: "url", url } };
}

function fileBlock(file: unknown): ClaudeDocumentBlock {
  const data = unverified<ChatFilePart["file"]>(file)?.file_data;
  const inline = typeof data === "string" ? dataUrl.exec(data) : null;
  if (!inline) refuseRequest("文件只支持 base64 data URL 形式的 file_data");
  return { type: "document", source: { type: "base64", media_type: inline[1]!, data: inline[2]! } };
}

/** The content of a user, system or tool message as Claude blocks. */
function contentBlocks(content: unknown, policy: ImagePolicy): ClaudeUserBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") {
    const block = textBlock(content);
    return block ? [block] : [];
  }
  if (!Array.isArray(content)) refuseRequest("消息内容格式无效");
  const blocks: ClaudeUserBlock[] = [];
  for (const item of content) {
    const part = unverified<ChatContentPart>(item);
    switch (part?.type) {
      case "text": {
        const block = textBlock(typeof part.text === "string" ? part.text : "", part.cache_control);
        if (block) blocks.push(block);
        break;
      }
      case "image_url": {
        const image = part.image_url;
        const url = typeof image === "string" ? image : unverified<ChatImagePart["image_url"]>(image)?.url;
        if (typeof url !== "string") refuseRequest("图片地址无效，请使用 http(s) 链接或 base64 data URL");
        blocks.push(imageBlock(url, policy));
        break;
      }
      case "file":
        blocks.push(fileBlock(part.file));
        break;
      default:
        refuseRequest("Claude 不支持该类型的消息内容（只支持文本、图片和 PDF 文件）");
    }
  }
  return blocks;
}

function toolUseBlock(value: unknown): ClaudeToolUseBlock {
  const call = unverified<ChatToolCall>(value);
  const fn = unverified<ChatToolCall["function"]>(call?.function);
  const name = fn?.name;
  if (typeof call?.id !== "string" || typeof name !== "string") refuseRequest("工具调用缺少 id 或名称");
  const text = typeof fn?.arguments === "string" ? fn.arguments.trim() : "";
  let input: unknown = {};
  if (text !== "") {
    try {
      input = JSON.parse(text);
    } catch {
      refuseRequest("工具调用参数不是合法的 JSON");
    }
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) refuseRequest("工具调用参数不是合法的 JSON");
  return { type: "tool_use", id: call.id, name, input };
}

function toolResultBlock(message: Unverified<ChatMessage>, policy: ImagePolicy): ClaudeToolResultBlock {
  if (typeof message.tool_call_id !== "string") refuseRequest("工具消息缺少 tool_call_id");
  const blocks = contentBlocks(message.content, policy);
  // A result that is plain text goes as a string; an empty one is allowed (no content field).
  if (blocks.length === 0) return { type: "tool_result", tool_use_id: message.tool_call_id };
  const plain = blocks.length === 1 && blocks[0]!.type === "text" && !blocks[0]!.cache_control;
  const only = blocks[0]!;
  return { type: "tool_result", tool_use_id: message.tool_call_id, content: plain && only.type === "text" ? only.text : blocks };
}

function assistantBlocks(message: Unverified<ChatMessage>, policy: ImagePolicy): ClaudeContentBlock[] {
  const thinking = reasoningOfChat(message)?.anthropic?.thinking_blocks ?? [];
  const blocks: ClaudeContentBlock[] = [...thinking, ...contentBlocks(message.content, policy)];
  if (Array.isArray(message.tool_calls)) for (const call of message.tool_calls) blocks.push(toolUseBlock(call));
  return blocks;
}

const isThinking = (block: ClaudeContentBlock) => block.type === "thinking" || block.type === "redacted_thinking";

/** Thinking blocks out of every assistant turn (a call without thinking on cannot carry them). */
export function withoutThinking(turns: ClaudeMessageParam[]): ClaudeMessageParam[] {
  return turns
    .map((turn) => {
      if (turn.role !== "assistant" || typeof turn.content === "string") return turn;
      const blocks = turn.content.filter((block) => !isThinking(block));
      return { ...turn, content: compact(blocks) };
    })
    .filter((turn) => typeof turn.content === "string" || turn.content.length > 0);
}

/** One block list per turn; a single uncached text block is sent as a string (the compact form). */
function compact(blocks: ClaudeContentBlock[]): string | ClaudeContentBlock[] {
  const only = blocks[0];
  return blocks.length === 1 && only?.type === "text" && !only.cache_control ? only.text : blocks;
}

/** A final assistant turn (a prefill) must not end in whitespace. */
function trimPrefill(turns: { role: string; blocks: ClaudeContentBlock[] }[]): void {
  const last = turns[turns.length - 1];
  if (last?.role !== "assistant") return;
  const block = last.blocks[last.blocks.length - 1];
  if (block?.type !== "text") return;
  const text = block.text.trimEnd();
  if (text === "") last.blocks.pop();
  else block.text = text;
  if (last.blocks.length === 0) turns.pop();
}

export type ConvertedMessages = {
  system: ClaudeTextBlock[];
  messages: ClaudeMessageParam[];
  lastAssistantUsedTools: boolean;
  /** The last assistant turn called tools and carries its signed thinking (thinking can stay on). */
  lastToolStepSigned: boolean;
};

export function convertMessages(messages: unknown, policy: ImagePolicy): ConvertedMessages {
  if (!Array.isArray(messages)) refuseRequest("消息内容格式无效");
  const system: ClaudeTextBlock[] = [];
  const turns: { role: "user" | "assistant"; blocks: ClaudeContentBlock[] }[] = [];
  let lastAssistantUsedTools = false;
  let lastToolStepSigned = false;
  const add = (role: "user" | "assistant", blocks: ClaudeContentBlock[]) => {
    if (blocks.length === 0) return;
    const previous = turns[turns.length - 1];
    // Claude wants alternating roles: consecutive turns of one role become one turn.
    if (previous?.role === role) previous.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  for (const item of messages) {
    const message = unverified<ChatMessage>(item);
    switch (message?.role) {
      case "system":
      case "developer":
        system.push(...contentBlocks(message.content, policy).filter((block) => block.type === "text"));
        break;
      case "user":
        add("user", contentBlocks(message.content, policy));
        break;
      case "assistant": {
        const blocks = assistantBlocks(message, policy);
        lastAssistantUsedTools = blocks.some((block) => block.type === "tool_use");
        lastToolStepSigned = lastAssistantUsedTools && blocks.some(isThinking);
        add("assistant", blocks);
        break;
      }
      case "tool":
        add("user", [toolResultBlock(message, policy)]);
        break;
      default:
        refuseRequest("Claude 不支持该消息角色（只支持 system、user、assistant 和 tool）");
    }
  }
  for (const turn of turns) {
    if (turn.role !== "user") continue;
    // Tool results must open the user turn that answers a tool step.
    const results = turn.blocks.filter((block) => block.type === "tool_result");
    if (results.length && results.length < turn.blocks.length)
      turn.blocks = [...results, ...turn.blocks.filter((block) => block.type !== "tool_result")];
  }
  trimPrefill(turns);
  return {
    system,
    messages: turns.map((turn) => ({ role: turn.role, content: compact(turn.blocks) })),
    lastAssistantUsedTools,
    lastToolStepSigned,
  };
}
