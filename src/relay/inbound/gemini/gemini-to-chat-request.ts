// A Gemini generateContent request as an OpenAI chat request (for channels other than Gemini's):
// systemInstruction becomes the system message; contents (roles user and model) become user and
// assistant messages, their parts text, images (inline data or file URIs), audio, PDFs, function
// calls (tool_calls, with ids made up when Gemini gave none) and function responses (tool
// messages, matched to the call of the same name); functionDeclarations become tools with their
// schema in JSON Schema terms; generationConfig and thinkingConfig map to their chat kin. Wire
// facts: Google's Gemini API reference (GenerateContentRequest, Content, Part, Tool).
import { AppError } from "../../../errors/app-error.ts";
import type { HostedTool } from "../../providers/adaptor.ts";
import { effortOfBudget } from "../claude/claude-to-chat-request.ts";
import type { ChatConversion } from "../inbound-codec.ts";
import { applyReasoningToChat, decodeReasoning, isGatewayReasoning, mergeReasoning, type ReasoningState } from "../reasoning-state.ts";
import { field, jsonSchemaOf } from "./gemini-fields.ts";
import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from "../../providers/openai-chat-wire.ts";
import { unverified, unverifiedList, type Unverified } from "../../providers/unverified.ts";
import type {
  GeminiBlob,
  GeminiContent,
  GeminiFileData,
  GeminiFunctionCall,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiRequest,
  GeminiThinkingConfig,
  GeminiTool,
  GeminiToolConfig,
} from "../../providers/gemini/gemini-wire.ts";

/** A client's part, not yet checked. */
type Part = Unverified<GeminiPart>;

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

function mediaPart(mimeType: string, data: string, conversion: Conversion): ChatContentPart | undefined {
  if (mimeType.startsWith("image/")) return { type: "image_url", image_url: { url: `data:${mimeType};base64,${data}` } };
  if (mimeType === "audio/wav" || mimeType === "audio/mp3" || mimeType === "audio/mpeg") {
    return { type: "input_audio", input_audio: { data, format: mimeType === "audio/wav" ? "wav" : "mp3" } };
  }
  if (mimeType === "application/pdf")
    return { type: "file", file: { filename: "document.pdf", file_data: `data:${mimeType};base64,${data}` } };
  conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: mimeType || "inlineData" });
  return undefined;
}

function userParts(parts: Part[], conversion: Conversion): ChatMessage[] {
  const tools: ChatMessage[] = [];
  const content: ChatContentPart[] = [];
  for (const part of parts) {
    const inline = field<GeminiPart>(part, "inlineData");
    const file = field<GeminiPart>(part, "fileData");
    const response = unverified<GeminiFunctionResponse>(field<GeminiPart>(part, "functionResponse"));
    if (typeof part.text === "string") {
      if (part.thought !== true) content.push({ type: "text", text: part.text });
    } else if (inline) {
      const data = unverified<GeminiBlob>(inline)?.data;
      const converted = mediaPart(String(field<GeminiBlob>(inline, "mimeType") ?? ""), String(data ?? ""), conversion);
      if (converted) content.push(converted);
    } else if (file) {
      const uri = String(field<GeminiFileData>(file, "fileUri") ?? "");
      if (String(field<GeminiFileData>(file, "mimeType") ?? "").startsWith("image/") && /^https?:\/\//.test(uri))
        content.push({ type: "image_url", image_url: { url: uri } });
      else conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: "fileData" });
    } else if (response) {
      const name = String(response.name ?? "");
      tools.push({
        role: "tool",
        tool_call_id: conversion.responseId(name, response.id),
        content: JSON.stringify(response.response ?? {}),
      });
    } else conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: Object.keys(part)[0] ?? "part" });
  }
  const messages = [...tools];
  if (content.length > 0) {
    const texts = content.map((part) => (part.type === "text" ? part.text : undefined));
    messages.push({ role: "user", content: texts.every((text) => text !== undefined) ? texts.join("") : content });
  }
  return messages;
}

/** Google's value for a function call whose signature is not available (not a signature to keep). */
const skipSignature = "skip_thought_signature_validator";

function modelMessage(parts: Part[], conversion: Conversion): ChatMessage | undefined {
  let text = "";
  const toolCalls: ChatToolCall[] = [];
  let state: ReasoningState | undefined;
  for (const part of parts) {
    const signature = field<GeminiPart>(part, "thoughtSignature");
    // The gateway's own encoding gives another vendor its state back (reasoning-state.ts).
    if (isGatewayReasoning(signature)) state = mergeReasoning(state, decodeReasoning(signature));
    // (A truthy call that is not an object reads as one without name or arguments, as before.)
    const given = field<GeminiPart>(part, "functionCall");
    const call = given ? (unverified<GeminiFunctionCall>(given) ?? {}) : undefined;
    if (call) {
      const name = String(call.name ?? "");
      const toolCall: ChatToolCall = {
        id: conversion.callId(name, call.id),
        type: "function",
        function: { name, arguments: JSON.stringify(call.args ?? {}) },
      };
      // Google's own signature, for a channel that hands it on to Gemini (Google's OpenAI convention).
      if (typeof signature === "string" && signature && signature !== skipSignature && !isGatewayReasoning(signature))
        toolCall.extra_content = { google: { thought_signature: signature } };
      toolCalls.push(toolCall);
    } else if (typeof part.text === "string") {
      // Thought summaries of earlier turns: the chat format cannot carry them back.
      if (part.thought !== true) text += part.text;
    } else if (!signature && !field<GeminiPart>(part, "executableCode") && !field<GeminiPart>(part, "codeExecutionResult")) {
      // (Code Gemini ran itself is a record, nothing to give another vendor.)
      conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: Object.keys(part)[0] ?? "part" });
    }
  }
  if (text === "" && toolCalls.length === 0) return undefined;
  const message: ChatMessage = {
    role: "assistant",
    content: text === "" ? null : text,
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
  };
  applyReasoningToChat(message, state);
  return message;
}

function geminiSystemText(instruction: unknown): string {
  if (typeof instruction === "string") return instruction;
  const parts = field<GeminiContent>(instruction, "parts");
  // (Every entry of the list counts, a part that is not an object as an empty line.)
  return (Array.isArray(parts) ? parts : [])
    .map((part) => unverified<GeminiPart>(part)?.text)
    .map((text) => (typeof text === "string" ? text : ""))
    .join("\n");
}

/** Google's own tools: Search grounding is a hosted web search; the others are left out. */
const searchTools = new Set(["googleSearch", "google_search", "googleSearchRetrieval", "google_search_retrieval"]);

type ToolSets = { hosted: HostedTool[]; leftOut: string[] };

function chatTools(tools: unknown, sets: ToolSets): ChatTool[] {
  const result: ChatTool[] = [];
  for (const tool of Array.isArray(tools) ? tools : []) {
    const declarations = field<GeminiTool>(tool, "functionDeclarations");
    for (const name of Object.keys(tool ?? {})) {
      if (name === "functionDeclarations" || name === "function_declarations") continue;
      if (searchTools.has(name)) {
        if (!sets.hosted.length) sets.hosted.push({ type: "web_search" });
      } else if (!sets.leftOut.includes(name)) sets.leftOut.push(name);
    }
    for (const entry of Array.isArray(declarations) ? declarations : []) {
      // A declaration that is not an object is malformed for every channel (a null crashed the
      // conversion: a 500 found by the fuzz suite), not something only the conversion lacks.
      const declaration = unverified<GeminiFunctionDeclaration>(entry);
      if (!declaration) {
        throw new AppError("invalid", "字段 {{field}} 无效", { field: "functionDeclarations" }, { code: "invalid_request" });
      }
      const schema = field<GeminiFunctionDeclaration>(declaration, "parametersJsonSchema") ??
        jsonSchemaOf(declaration.parameters) ?? { type: "object", properties: {} };
      if (typeof declaration.name !== "string") {
        throw new AppError("invalid", "字段 {{field}} 无效", { field: "functionDeclarations" }, { code: "invalid_request" });
      }
      const fn: ChatTool["function"] = { name: declaration.name, parameters: schema };
      if (typeof declaration.description === "string") fn.description = declaration.description;
      result.push({ type: "function", function: fn });
    }
  }
  return result;
}

type CallingConfig = GeminiToolConfig["functionCallingConfig"];

function chatToolChoice(toolConfig: unknown): ChatToolChoice | undefined {
  const config = field<GeminiToolConfig>(toolConfig, "functionCallingConfig");
  const allowed = field<CallingConfig>(config, "allowedFunctionNames");
  switch (unverified<CallingConfig>(config)?.mode) {
    case "NONE":
      return "none";
    case "ANY": {
      const only: unknown = Array.isArray(allowed) && allowed.length === 1 ? allowed[0] : undefined;
      return typeof only === "string" ? { type: "function", function: { name: only } } : "required";
    }
    case "AUTO":
    case "VALIDATED":
      return "auto";
    default:
      return undefined;
  }
}

function applyGenerationConfig(config: unknown, chat: ChatRequest): void {
  if (!config || typeof config !== "object") return;
  const copy: [
    keyof GeminiGenerationConfig & string,
    "temperature" | "top_p" | "max_tokens" | "n" | "presence_penalty" | "frequency_penalty" | "seed",
  ][] = [
    ["temperature", "temperature"],
    ["topP", "top_p"],
    ["maxOutputTokens", "max_tokens"],
    ["candidateCount", "n"],
    ["presencePenalty", "presence_penalty"],
    ["frequencyPenalty", "frequency_penalty"],
    ["seed", "seed"],
  ];
  for (const [from, to] of copy) {
    const value = field<GeminiGenerationConfig>(config, from);
    if (typeof value === "number") chat[to] = value;
  }
  const stop = field<GeminiGenerationConfig>(config, "stopSequences");
  if (Array.isArray(stop) && stop.length > 0) chat.stop = stop.filter((sequence) => typeof sequence === "string");
  if (field<GeminiGenerationConfig>(config, "responseMimeType") === "application/json") {
    const schema =
      field<GeminiGenerationConfig>(config, "responseJsonSchema") ?? jsonSchemaOf(field<GeminiGenerationConfig>(config, "responseSchema"));
    chat.response_format = schema ? { type: "json_schema", json_schema: { name: "response", schema } } : { type: "json_object" };
  }
  const thinking = field<GeminiGenerationConfig>(config, "thinkingConfig");
  const level = field<GeminiThinkingConfig>(thinking, "thinkingLevel");
  const budget = field<GeminiThinkingConfig>(thinking, "thinkingBudget");
  if (typeof level === "string" && level !== "THINKING_LEVEL_UNSPECIFIED")
    chat.reasoning_effort = level.toLowerCase() === "minimal" ? "minimal" : level.toLowerCase();
  else if (typeof budget === "number" && budget > 0) chat.reasoning_effort = effortOfBudget(budget);
}

/** A client's request: GeminiRequest's fields, under their camelCase or snake_case names, unchecked. */
type RequestSent = Unverified<GeminiRequest> & { readonly [snakeName: string]: unknown };

export function geminiToChat(body: RequestSent, model: string, stream: boolean): ChatConversion {
  const conversion = new Conversion();
  const messages: ChatMessage[] = [];
  const system = geminiSystemText(field<GeminiRequest>(body, "systemInstruction"));
  if (system) messages.push({ role: "system", content: system });
  for (const item of Array.isArray(body.contents) ? body.contents : []) {
    const content = unverified<GeminiContent>(item);
    const parts = unverifiedList<GeminiPart>(content?.parts);
    if (content?.role === "model") {
      const message = modelMessage(parts, conversion);
      if (message) messages.push(message);
    } else messages.push(...userParts(parts, conversion));
  }
  if (field<GeminiRequest>(body, "cachedContent")) conversion.refuse("内容类型 {{type}} 无法转换给此渠道", { type: "cachedContent" });

  const chat: ChatRequest = { model, messages };
  applyGenerationConfig(field<GeminiRequest>(body, "generationConfig"), chat);
  const sets: ToolSets = { hosted: [], leftOut: [] };
  const tools = chatTools(body.tools, sets);
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = chatToolChoice(field<GeminiRequest>(body, "toolConfig"));
    if (choice !== undefined) chat.tool_choice = choice;
  }
  if (stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return {
    chat,
    refusal: conversion.refusal,
    ...(sets.hosted.length ? { hostedTools: sets.hosted } : {}),
    ...(sets.leftOut.length ? { leftOut: sets.leftOut } : {}),
  };
}
