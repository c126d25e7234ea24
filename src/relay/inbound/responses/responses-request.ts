// An OpenAI Responses request as a chat request (for channels other than OpenAI and Azure):
// `instructions` becomes the system message; `input` (a string, or items: messages with their
// content parts; function, custom and tool-search calls and their outputs; reasoning) becomes
// messages, an assistant turn's items joining one assistant message; reasoning the gateway
// encoded (reasoning-state.ts) gives that message its vendor state back; tools go through
// responses-tools.ts; tool_choice, reasoning.effort, max_output_tokens and text.format map to
// their chat kin. State nobody keeps (an unresolved previous_response_id or item_reference,
// conversations, background runs) and content only OpenAI can read are refused with a clear
// error; records of tools a vendor ran are skipped. Wire facts: OpenAI's Responses reference.
import { AppError } from "../../../errors/app-error.ts";
import type { ChatConversion } from "../inbound-codec.ts";
import { applyReasoningToChat, decodeReasoning, mergeReasoning, type ReasoningState } from "../reasoning-state.ts";
import { inputItemsOf } from "./responses-items.ts";
import { chatToolName, loadedToolsText, responsesTools } from "./responses-tools.ts";
import type { ChatContentPart, ChatMessage, ChatRequest, ChatResponseFormat, ChatRole } from "../../providers/openai-chat-wire.ts";

type Item = Record<string, any>;
/** A chat message being built, with the reasoning state it will carry once done. */
type BuildingMessage = ChatMessage & { state?: ReasoningState };

class Conversion {
  refusal: AppError | undefined;
  refuse(key: string, params?: Record<string, string>): void {
    this.refusal ??= new AppError("invalid", key, params, { code: "conversion_unsupported" });
  }
  /** State the call names that neither the gateway nor this channel keeps. */
  notFound(field: string, id: string): void {
    this.refusal ??= new AppError(
      "invalid",
      "未找到 {{field}} 所指的响应或条目：{{id}}",
      { field, id },
      { code: "previous_response_not_found" },
    );
  }
}

function partOf(part: Item, conversion: Conversion): ChatContentPart | undefined {
  switch (part.type) {
    case "input_text":
    case "output_text":
    case "text":
      return { type: "text", text: String(part.text ?? "") };
    case "refusal":
      return { type: "text", text: String(part.refusal ?? "") };
    case "input_image":
      if (typeof part.image_url === "string") {
        return {
          type: "image_url",
          image_url: { url: part.image_url, ...(part.detail && part.detail !== "auto" ? { detail: part.detail } : {}) },
        };
      }
      break;
    case "input_file":
      if (typeof part.file_data === "string") {
        const data = part.file_data.startsWith("data:") ? part.file_data : `data:application/pdf;base64,${part.file_data}`;
        return { type: "file", file: { filename: part.filename ?? "file.pdf", file_data: data } };
      }
      break;
    case "input_audio":
      if (part.input_audio) return { type: "input_audio", input_audio: part.input_audio };
      break;
  }
  // file_id / file_url parts point at OpenAI's file store, which only OpenAI can read.
  conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: String(part.type) });
  return undefined;
}

function contentOf(content: unknown, conversion: Conversion): string | ChatContentPart[] {
  if (typeof content === "string") return content;
  const parts = (Array.isArray(content) ? content : []).map((part) => partOf(part ?? {}, conversion)).filter((part) => part !== undefined);
  const texts = parts.map((part) => (part.type === "text" ? part.text : undefined));
  return texts.every((text) => text !== undefined) ? texts.join("") : parts;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return JSON.stringify(output ?? "");
  return output.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}

/** Hosted tools' records (the vendor ran them): nothing a chat model can be given back. */
const hostedCallRecords = new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_list_tools",
  "mcp_call",
  "mcp_approval_request",
  "computer_call",
]);

/** Builds the chat messages of an input, joining an assistant turn's items into one message. */
class Messages {
  readonly list: BuildingMessage[] = [];
  /** Reasoning state read before the assistant message it belongs to exists. */
  private pending: ReasoningState | undefined;

  /** The assistant message items are joining, opened when the last message is not one. */
  private assistant(): BuildingMessage {
    const last = this.list[this.list.length - 1];
    if (last?.role === "assistant") return last;
    const message: BuildingMessage = { role: "assistant", content: null };
    this.list.push(message);
    if (this.pending) {
      this.stateOf(message, this.pending);
      this.pending = undefined;
    }
    return message;
  }

  private stateOf(message: BuildingMessage, state: ReasoningState): void {
    message.state = mergeReasoning(message.state, state);
  }

  reasoning(state: ReasoningState | undefined): void {
    if (!state) return;
    const last = this.list[this.list.length - 1];
    // Reasoning opens its turn; one that follows the turn's calls (a stream's late signature) joins it.
    if (last?.role === "assistant") this.stateOf(last, state);
    else this.pending = mergeReasoning(this.pending, state);
  }

  /** An assistant message item's text joins the assistant turn. */
  assistantText(content: unknown): void {
    const message = this.assistant();
    const text = typeof content === "string" ? content : textOfParts(content);
    message.content = typeof message.content === "string" && message.content !== "" ? `${message.content}${text}` : text;
  }

  message(role: ChatRole, content: string | ChatContentPart[]): void {
    this.list.push({ role, content });
  }

  call(id: string, name: string, args: string): void {
    const message = this.assistant();
    if (message.content === "") message.content = null;
    message.tool_calls = [...(message.tool_calls ?? []), { id, type: "function", function: { name, arguments: args } }];
  }

  result(id: string, content: string): void {
    this.list.push({ role: "tool", tool_call_id: id, content });
  }

  /** The messages, each assistant message carrying its reasoning state as chat does. */
  done(): ChatMessage[] {
    for (const message of this.list) {
      if (!("state" in message)) continue;
      const state = message.state;
      delete message.state;
      applyReasoningToChat(message, state);
    }
    return this.list;
  }
}

function textOfParts(content: unknown): string {
  return (Array.isArray(content) ? content : [])
    .map((part) => (typeof part?.text === "string" ? part.text : (part?.refusal ?? "")))
    .join("");
}

function inputMessages(input: Item[], conversion: Conversion): ChatMessage[] {
  const messages = new Messages();
  for (const item of input) {
    const type = item.type ?? "message";
    if (type === "message") {
      const role = item.role === "developer" ? "system" : item.role;
      if (role === "assistant") messages.assistantText(item.content);
      else messages.message(role, contentOf(item.content, conversion));
    } else if (type === "function_call") {
      messages.call(String(item.call_id ?? ""), chatToolName(String(item.name ?? ""), item.namespace), String(item.arguments ?? ""));
    } else if (type === "custom_tool_call") {
      const args = JSON.stringify({ input: typeof item.input === "string" ? item.input : "" });
      messages.call(String(item.call_id ?? ""), chatToolName(String(item.name ?? ""), item.namespace), args);
    } else if (type === "tool_search_call") {
      // A search the vendor ran itself has no call id: nothing a chat model called.
      if (typeof item.call_id === "string" && item.call_id)
        messages.call(item.call_id, "tool_search", JSON.stringify(item.arguments ?? {}));
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      messages.result(String(item.call_id ?? ""), outputText(item.output));
    } else if (type === "tool_search_output") {
      if (typeof item.call_id === "string" && item.call_id) messages.result(item.call_id, loadedToolsText(item));
    } else if (type === "reasoning") {
      // The gateway's own encoding comes back with the state a vendor needs; OpenAI's own cannot be read.
      messages.reasoning(decodeReasoning(item.encrypted_content));
    } else if (type === "item_reference") {
      // References to the user's kept items were resolved already (responses-state.ts).
      conversion.notFound("item_reference", String(item.id ?? ""));
    } else if (!hostedCallRecords.has(type)) conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: String(type) });
  }
  return messages.done();
}

function responseFormat(format: Item | undefined): ChatResponseFormat | undefined {
  if (format?.type === "json_object") return { type: "json_object" };
  if (format?.type !== "json_schema") return undefined;
  const schema: Extract<ChatResponseFormat, { type: "json_schema" }>["json_schema"] = {
    name: format.name ?? "response",
    schema: format.schema ?? {},
  };
  if (typeof format.strict === "boolean") schema.strict = format.strict;
  if (typeof format.description === "string") schema.description = format.description;
  return { type: "json_schema", json_schema: schema };
}

export function responsesToChat(body: Record<string, any>, model: string, stream: boolean): ChatConversion {
  const conversion = new Conversion();
  // A previous response the gateway keeps was put in front of the input already (responses-state.ts).
  if (body.previous_response_id) conversion.notFound("previous_response_id", String(body.previous_response_id));
  if (body.conversation) conversion.refuse("此渠道不保存响应，不支持 {{field}}：请在 input 中发送完整对话", { field: "conversation" });
  if (body.background === true) conversion.refuse("此渠道不保存响应，不支持 {{field}}：请在 input 中发送完整对话", { field: "background" });
  if (body.prompt) conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: "prompt" });

  const input = inputItemsOf(body.input);
  const tools = responsesTools(body, input);
  if (tools.refusal) conversion.refusal ??= tools.refusal;
  const messages: ChatMessage[] = [];
  if (typeof body.instructions === "string" && body.instructions !== "") messages.push({ role: "system", content: body.instructions });
  messages.push(...inputMessages(input, conversion));

  const chat: ChatRequest = { model, messages };
  if (typeof body.max_output_tokens === "number") chat.max_tokens = body.max_output_tokens;
  if (typeof body.temperature === "number") chat.temperature = body.temperature;
  if (typeof body.top_p === "number") chat.top_p = body.top_p;
  const user = body.safety_identifier ?? body.user;
  if (typeof user === "string") chat.user = user;
  if (tools.tools.length > 0) {
    chat.tools = tools.tools;
    if (tools.toolChoice !== undefined) chat.tool_choice = tools.toolChoice;
    if (typeof body.parallel_tool_calls === "boolean") chat.parallel_tool_calls = body.parallel_tool_calls;
  }
  if (typeof body.reasoning?.effort === "string") chat.reasoning_effort = body.reasoning.effort;
  const format = responseFormat(body.text?.format);
  if (format) chat.response_format = format;
  if (typeof body.text?.verbosity === "string") chat.verbosity = body.text.verbosity;
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
    ...(tools.names.size ? { toolNames: tools.names } : {}),
  };
}
