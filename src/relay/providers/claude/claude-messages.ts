// OpenAI chat messages as Claude Messages API turns. Claude keeps the system prompt out of the
// turns (top-level `system`), knows only the user and assistant roles, wants them alternating,
// takes tool results as `tool_result` blocks in a user turn (all results of one step together,
// before any text), refuses empty text blocks and a final assistant turn ending in whitespace.
import { refuseRequest } from "../conversion-refusal.ts";

export type ClaudeBlock = Record<string, unknown>;
export type ClaudeTurn = { role: "user" | "assistant"; content: string | ClaudeBlock[] };

/**
 * How images given by URL are sent: the Anthropic API fetches `url` sources itself; Bedrock and
 * Vertex accept only base64 data. The relay never downloads a client's URL.
 */
export type ImagePolicy = "url-source" | "base64-only";

type OpenAIPart = { type?: unknown; text?: unknown; image_url?: unknown; file?: unknown; cache_control?: unknown };
type OpenAIToolCall = { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } };
type OpenAIMessage = { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };

const dataUrl = /^data:([^;,]+);base64,(.*)$/s;

function textBlock(text: string, cacheControl?: unknown): ClaudeBlock | undefined {
  if (text === "") return undefined;
  return cacheControl ? { type: "text", text, cache_control: cacheControl } : { type: "text", text };
}

function imageBlock(url: string, policy: ImagePolicy): ClaudeBlock {
  const inline = dataUrl.exec(url);
  if (inline) return { type: "image", source: { type: "base64", media_type: inline[1], data: inline[2] } };
  if (!/^https?:\/\//i.test(url)) refuseRequest("图片地址无效，请使用 http(s) 链接或 base64 data URL");
  if (policy === "base64-only") refuseRequest("该渠道只接受 base64 图片，不接受图片链接");
  return { type: "image", source: { type: "url", url } };
}

function fileBlock(file: unknown): ClaudeBlock {
  const data = (file as { file_data?: unknown } | null)?.file_data;
  const inline = typeof data === "string" ? dataUrl.exec(data) : null;
  if (!inline) refuseRequest("文件只支持 base64 data URL 形式的 file_data");
  return { type: "document", source: { type: "base64", media_type: inline[1], data: inline[2] } };
}

/** The content of a user, system or tool message as Claude blocks. */
function contentBlocks(content: unknown, policy: ImagePolicy): ClaudeBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") {
    const block = textBlock(content);
    return block ? [block] : [];
  }
  if (!Array.isArray(content)) refuseRequest("消息内容格式无效");
  const blocks: ClaudeBlock[] = [];
  for (const part of content as OpenAIPart[]) {
    switch (part?.type) {
      case "text": {
        const block = textBlock(typeof part.text === "string" ? part.text : "", part.cache_control);
        if (block) blocks.push(block);
        break;
      }
      case "image_url": {
        const image = part.image_url as { url?: unknown } | string | undefined;
        const url = typeof image === "string" ? image : image?.url;
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

function toolUseBlock(call: OpenAIToolCall): ClaudeBlock {
  const name = call.function?.name;
  if (typeof call.id !== "string" || typeof name !== "string") refuseRequest("工具调用缺少 id 或名称");
  const text = typeof call.function?.arguments === "string" ? call.function.arguments.trim() : "";
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

function toolResultBlock(message: OpenAIMessage, policy: ImagePolicy): ClaudeBlock {
  if (typeof message.tool_call_id !== "string") refuseRequest("工具消息缺少 tool_call_id");
  const blocks = contentBlocks(message.content, policy);
  // A result that is plain text goes as a string; an empty one is allowed (no content field).
  if (blocks.length === 0) return { type: "tool_result", tool_use_id: message.tool_call_id };
  const plain = blocks.length === 1 && blocks[0]!.type === "text" && !blocks[0]!.cache_control;
  return { type: "tool_result", tool_use_id: message.tool_call_id, content: plain ? blocks[0]!.text : blocks };
}

function assistantBlocks(message: OpenAIMessage, policy: ImagePolicy): ClaudeBlock[] {
  const blocks = contentBlocks(message.content, policy);
  if (Array.isArray(message.tool_calls)) for (const call of message.tool_calls as OpenAIToolCall[]) blocks.push(toolUseBlock(call));
  return blocks;
}

/** One block list per turn; a single uncached text block is sent as a string (the compact form). */
function compact(blocks: ClaudeBlock[]): string | ClaudeBlock[] {
  const only = blocks[0];
  return blocks.length === 1 && only!.type === "text" && !only!.cache_control ? (only!.text as string) : blocks;
}

/** A final assistant turn (a prefill) must not end in whitespace. */
function trimPrefill(turns: { role: string; blocks: ClaudeBlock[] }[]): void {
  const last = turns[turns.length - 1];
  if (last?.role !== "assistant") return;
  const block = last.blocks[last.blocks.length - 1];
  if (block?.type !== "text") return;
  const text = (block.text as string).trimEnd();
  if (text === "") last.blocks.pop();
  else block.text = text;
  if (last.blocks.length === 0) turns.pop();
}

export type ConvertedMessages = { system: ClaudeBlock[]; messages: ClaudeTurn[]; lastAssistantUsedTools: boolean };

export function convertMessages(messages: unknown, policy: ImagePolicy): ConvertedMessages {
  if (!Array.isArray(messages)) refuseRequest("消息内容格式无效");
  const system: ClaudeBlock[] = [];
  const turns: { role: "user" | "assistant"; blocks: ClaudeBlock[] }[] = [];
  let lastAssistantUsedTools = false;
  const add = (role: "user" | "assistant", blocks: ClaudeBlock[]) => {
    if (blocks.length === 0) return;
    const previous = turns[turns.length - 1];
    // Claude wants alternating roles: consecutive turns of one role become one turn.
    if (previous?.role === role) previous.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  for (const message of messages as OpenAIMessage[]) {
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
    if (results.length && results.length < turn.blocks.length) turn.blocks = [...results, ...turn.blocks.filter((block) => block.type !== "tool_result")];
  }
  trimPrefill(turns);
  return { system, messages: turns.map((turn) => ({ role: turn.role, content: compact(turn.blocks) })), lastAssistantUsedTools };
}
