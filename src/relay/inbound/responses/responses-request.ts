// An OpenAI Responses request as a chat request (for channels other than OpenAI and Azure):
// `instructions` becomes the system message; `input` (a string, or items: messages with their
// content parts, function_call, function_call_output) becomes messages, consecutive
// function calls joining one assistant turn; function tools, tool_choice, reasoning.effort,
// max_output_tokens and text.format map to their chat kin. What only a stateful upstream can
// serve (previous_response_id, conversations, item references, background runs) and the tools
// OpenAI runs itself are refused with a clear error. Wire facts: OpenAI's Responses reference.
import { AppError } from "../../../errors/app-error.ts";
import type { ChatConversion } from "../inbound-codec.ts";

type Item = Record<string, any>;
type ChatMessage = Record<string, any>;

class Conversion {
  refusal: AppError | undefined;
  refuse(key: string, params?: Record<string, string>): void {
    this.refusal ??= new AppError("invalid", key, params, { code: "conversion_unsupported" });
  }
}

function partOf(part: Item, conversion: Conversion): Record<string, unknown> | undefined {
  switch (part.type) {
    case "input_text":
    case "output_text":
    case "text":
      return { type: "text", text: String(part.text ?? "") };
    case "refusal":
      return { type: "text", text: String(part.refusal ?? "") };
    case "input_image":
      if (typeof part.image_url === "string") {
        return { type: "image_url", image_url: { url: part.image_url, ...(part.detail && part.detail !== "auto" ? { detail: part.detail } : {}) } };
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

function contentOf(content: unknown, conversion: Conversion): string | Record<string, unknown>[] {
  if (typeof content === "string") return content;
  const parts = (Array.isArray(content) ? content : []).map((part) => partOf(part ?? {}, conversion)).filter((part) => part !== undefined);
  return parts.every((part) => part.type === "text") ? parts.map((part) => part.text as string).join("") : parts;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return JSON.stringify(output ?? "");
  return output.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}

function inputMessages(input: unknown, conversion: Conversion): ChatMessage[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  const messages: ChatMessage[] = [];
  for (const item of Array.isArray(input) ? (input as Item[]) : []) {
    if (!item || typeof item !== "object") continue;
    const type = item.type ?? "message";
    if (type === "message") {
      const role = item.role === "developer" ? "system" : item.role;
      messages.push({ role, content: contentOf(item.content, conversion) });
    } else if (type === "function_call") {
      const call = { id: String(item.call_id ?? ""), type: "function", function: { name: String(item.name ?? ""), arguments: String(item.arguments ?? "") } };
      const last = messages[messages.length - 1];
      // Parallel calls, and a call after the assistant's text, are one assistant turn in chat.
      if (last?.role === "assistant") {
        last.tool_calls = [...(last.tool_calls ?? []), call];
        if (last.content === "") last.content = null;
      } else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (type === "function_call_output") {
      messages.push({ role: "tool", tool_call_id: String(item.call_id ?? ""), content: outputText(item.output) });
    } else if (type === "reasoning") {
      // Reasoning of earlier turns: the chat format cannot carry it back.
    } else conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: String(type) });
  }
  return messages;
}

function chatTools(tools: unknown, conversion: Conversion): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  for (const tool of Array.isArray(tools) ? (tools as Item[]) : []) {
    if (tool?.type !== "function") {
      conversion.refuse("工具类型 {{type}} 只能由原生支持该格式的渠道执行", { type: String(tool?.type) });
      continue;
    }
    const fn: Record<string, unknown> = { name: tool.name, parameters: tool.parameters ?? { type: "object", properties: {} } };
    if (typeof tool.description === "string") fn.description = tool.description;
    if (typeof tool.strict === "boolean") fn.strict = tool.strict;
    result.push({ type: "function", function: fn });
  }
  return result;
}

function chatToolChoice(choice: unknown): unknown {
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  const record = choice as Item | undefined;
  if (record?.type === "function" && typeof record.name === "string") return { type: "function", function: { name: record.name } };
  if (record?.type === "allowed_tools") return record.mode === "required" ? "required" : "auto";
  return undefined;
}

function responseFormat(format: Item | undefined): unknown {
  if (format?.type === "json_object") return { type: "json_object" };
  if (format?.type !== "json_schema") return undefined;
  const schema: Record<string, unknown> = { name: format.name ?? "response", schema: format.schema ?? {} };
  if (typeof format.strict === "boolean") schema.strict = format.strict;
  if (typeof format.description === "string") schema.description = format.description;
  return { type: "json_schema", json_schema: schema };
}

export function responsesToChat(body: Record<string, any>, model: string, stream: boolean): ChatConversion {
  const conversion = new Conversion();
  if (body.previous_response_id) conversion.refuse("此渠道不保存响应，不支持 {{field}}：请在 input 中发送完整对话", { field: "previous_response_id" });
  if (body.conversation) conversion.refuse("此渠道不保存响应，不支持 {{field}}：请在 input 中发送完整对话", { field: "conversation" });
  if (body.background === true) conversion.refuse("此渠道不保存响应，不支持 {{field}}：请在 input 中发送完整对话", { field: "background" });
  if (body.prompt) conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: "prompt" });

  const messages: ChatMessage[] = [];
  if (typeof body.instructions === "string" && body.instructions !== "") messages.push({ role: "system", content: body.instructions });
  messages.push(...inputMessages(body.input, conversion));

  const chat: Record<string, unknown> = { model, messages };
  if (typeof body.max_output_tokens === "number") chat.max_tokens = body.max_output_tokens;
  for (const field of ["temperature", "top_p"] as const) if (typeof body[field] === "number") chat[field] = body[field];
  const user = body.safety_identifier ?? body.user;
  if (typeof user === "string") chat.user = user;
  const tools = chatTools(body.tools, conversion);
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = chatToolChoice(body.tool_choice);
    if (choice !== undefined) chat.tool_choice = choice;
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
  return { chat, refusal: conversion.refusal };
}
