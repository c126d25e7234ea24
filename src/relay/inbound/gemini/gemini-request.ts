// A Gemini generateContent request as an OpenAI chat request (for channels other than Gemini's):
// systemInstruction becomes the system message; contents (roles user and model) become user and
// assistant messages, their parts text, images (inline data or file URIs), audio, PDFs, function
// calls (tool_calls, with ids made up when Gemini gave none) and function responses (tool
// messages, matched to the call of the same name); functionDeclarations become tools with their
// schema in JSON Schema terms; generationConfig and thinkingConfig map to their chat kin. Wire
// facts: Google's Gemini API reference (GenerateContentRequest, Content, Part, Tool).
import { AppError } from "../../../errors/app-error.ts";
import { effortOfBudget } from "../claude/claude-request.ts";
import type { ChatConversion } from "../inbound-codec.ts";
import { field, jsonSchemaOf } from "./gemini-fields.ts";

type Part = Record<string, any>;
type ChatMessage = Record<string, any>;

class Conversion {
  refusal: AppError | undefined;
  private calls = 0;
  /** Ids of function calls not yet answered, per function name, oldest first. */
  private pending = new Map<string, string[]>();

  refuse(key: string, params: Record<string, string>): void {
    this.refusal ??= new AppError("invalid", key, params, { code: "conversion_unsupported" });
  }
  callId(name: string, given: unknown): string {
    const id = typeof given === "string" && given ? given : `call_${++this.calls}_${name}`;
    const list = this.pending.get(name) ?? [];
    list.push(id);
    this.pending.set(name, list);
    return id;
  }
  responseId(name: string, given: unknown): string {
    const list = this.pending.get(name) ?? [];
    if (typeof given === "string" && given) {
      const at = list.indexOf(given);
      if (at >= 0) list.splice(at, 1);
      return given;
    }
    return list.shift() ?? `call_${++this.calls}_${name}`;
  }
}

function mediaPart(mimeType: string, data: string, conversion: Conversion): Record<string, unknown> | undefined {
  if (mimeType.startsWith("image/")) return { type: "image_url", image_url: { url: `data:${mimeType};base64,${data}` } };
  if (mimeType === "audio/wav" || mimeType === "audio/mp3" || mimeType === "audio/mpeg") {
    return { type: "input_audio", input_audio: { data, format: mimeType === "audio/wav" ? "wav" : "mp3" } };
  }
  if (mimeType === "application/pdf") return { type: "file", file: { filename: "document.pdf", file_data: `data:${mimeType};base64,${data}` } };
  conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: mimeType || "inlineData" });
  return undefined;
}

function userParts(parts: Part[], conversion: Conversion): ChatMessage[] {
  const tools: ChatMessage[] = [];
  const content: Record<string, unknown>[] = [];
  for (const part of parts) {
    const inline = field(part, "inlineData");
    const file = field(part, "fileData");
    const response = field(part, "functionResponse");
    if (typeof part.text === "string") {
      if (part.thought !== true) content.push({ type: "text", text: part.text });
    } else if (inline) {
      const converted = mediaPart(String(field(inline, "mimeType") ?? ""), String(inline.data ?? ""), conversion);
      if (converted) content.push(converted);
    } else if (file) {
      const uri = String(field(file, "fileUri") ?? "");
      if (String(field(file, "mimeType") ?? "").startsWith("image/") && /^https?:\/\//.test(uri)) content.push({ type: "image_url", image_url: { url: uri } });
      else conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: "fileData" });
    } else if (response) {
      const name = String(response.name ?? "");
      tools.push({ role: "tool", tool_call_id: conversion.responseId(name, response.id), content: JSON.stringify(response.response ?? {}) });
    } else conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: Object.keys(part)[0] ?? "part" });
  }
  const messages = [...tools];
  if (content.length > 0) {
    const text = content.every((part) => part.type === "text");
    messages.push({ role: "user", content: text ? content.map((part) => part.text).join("") : content });
  }
  return messages;
}

function modelMessage(parts: Part[], conversion: Conversion): ChatMessage | undefined {
  let text = "";
  const toolCalls: Record<string, unknown>[] = [];
  for (const part of parts) {
    const call = field(part, "functionCall");
    if (call) {
      const name = String(call.name ?? "");
      toolCalls.push({ id: conversion.callId(name, call.id), type: "function", function: { name, arguments: JSON.stringify(call.args ?? {}) } });
    } else if (typeof part.text === "string") {
      // Thought summaries of earlier turns: the chat format cannot carry them back.
      if (part.thought !== true) text += part.text;
    } else if (!field(part, "thoughtSignature")) {
      conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: Object.keys(part)[0] ?? "part" });
    }
  }
  if (text === "" && toolCalls.length === 0) return undefined;
  return { role: "assistant", content: text === "" ? null : text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
}

export function geminiSystemText(instruction: unknown): string {
  if (typeof instruction === "string") return instruction;
  const parts: Part[] = Array.isArray(field(instruction, "parts")) ? field(instruction, "parts") : [];
  return parts.map((part) => (typeof part.text === "string" ? part.text : "")).join("\n");
}

function chatTools(tools: unknown, conversion: Conversion): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  for (const tool of Array.isArray(tools) ? (tools as Part[]) : []) {
    const declarations = field(tool, "functionDeclarations");
    for (const name of Object.keys(tool ?? {})) {
      if (name !== "functionDeclarations" && name !== "function_declarations") {
        conversion.refuse("工具类型 {{type}} 只能由原生支持该格式的渠道执行", { type: name });
      }
    }
    for (const declaration of Array.isArray(declarations) ? (declarations as Part[]) : []) {
      const schema = field(declaration, "parametersJsonSchema") ?? jsonSchemaOf(declaration.parameters) ?? { type: "object", properties: {} };
      const fn: Record<string, unknown> = { name: declaration.name, parameters: schema };
      if (typeof declaration.description === "string") fn.description = declaration.description;
      result.push({ type: "function", function: fn });
    }
  }
  return result;
}

function chatToolChoice(toolConfig: unknown): unknown {
  const config = field(toolConfig, "functionCallingConfig");
  const allowed: unknown = field(config, "allowedFunctionNames");
  switch (config?.mode) {
    case "NONE":
      return "none";
    case "ANY":
      return Array.isArray(allowed) && allowed.length === 1 ? { type: "function", function: { name: allowed[0] } } : "required";
    case "AUTO":
    case "VALIDATED":
      return "auto";
    default:
      return undefined;
  }
}

function applyGenerationConfig(config: unknown, chat: Record<string, unknown>): void {
  if (!config || typeof config !== "object") return;
  const copy: [string, string][] = [["temperature", "temperature"], ["topP", "top_p"], ["maxOutputTokens", "max_tokens"], ["candidateCount", "n"], ["presencePenalty", "presence_penalty"], ["frequencyPenalty", "frequency_penalty"], ["seed", "seed"]];
  for (const [from, to] of copy) {
    const value = field(config, from);
    if (typeof value === "number") chat[to] = value;
  }
  const stop = field(config, "stopSequences");
  if (Array.isArray(stop) && stop.length > 0) chat.stop = stop;
  if (field(config, "responseMimeType") === "application/json") {
    const schema = field(config, "responseJsonSchema") ?? jsonSchemaOf(field(config, "responseSchema"));
    chat.response_format = schema ? { type: "json_schema", json_schema: { name: "response", schema } } : { type: "json_object" };
  }
  const thinking = field(config, "thinkingConfig");
  const level = field(thinking, "thinkingLevel");
  const budget = field(thinking, "thinkingBudget");
  if (typeof level === "string" && level !== "THINKING_LEVEL_UNSPECIFIED") chat.reasoning_effort = level.toLowerCase() === "minimal" ? "minimal" : level.toLowerCase();
  else if (typeof budget === "number" && budget > 0) chat.reasoning_effort = effortOfBudget(budget);
}

export function geminiToChat(body: Record<string, any>, model: string, stream: boolean): ChatConversion {
  const conversion = new Conversion();
  const messages: ChatMessage[] = [];
  const system = geminiSystemText(field(body, "systemInstruction"));
  if (system) messages.push({ role: "system", content: system });
  for (const content of Array.isArray(body.contents) ? (body.contents as Part[]) : []) {
    const parts: Part[] = Array.isArray(content?.parts) ? content.parts.filter((part: unknown) => part && typeof part === "object") : [];
    if (content?.role === "model") {
      const message = modelMessage(parts, conversion);
      if (message) messages.push(message);
    } else messages.push(...userParts(parts, conversion));
  }
  if (field(body, "cachedContent")) conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: "cachedContent" });

  const chat: Record<string, unknown> = { model, messages };
  applyGenerationConfig(field(body, "generationConfig"), chat);
  const tools = chatTools(body.tools, conversion);
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = chatToolChoice(field(body, "toolConfig"));
    if (choice !== undefined) chat.tool_choice = choice;
  }
  if (stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return { chat, refusal: conversion.refusal };
}
