// An OpenAI chat completion request as a Gemini GenerateContentRequest: the conversation
// (gemini-contents.ts), tools (gemini-tools.ts), generationConfig from the sampling fields,
// thinking from reasoning_effort, and the operator's safety settings. Pure, and exported for
// Vertex AI, whose Gemini publisher takes the same body.
import { conversationOf } from "./gemini-contents.ts";
import { safetySettingsOf, type GeminiSettings } from "./gemini-settings.ts";
import { geminiSchema, toolConfigOf, toolsOf } from "./gemini-tools.ts";
import type { ChatRequest, ChatResponseFormat } from "../openai-chat-wire.ts";
import { unverified, type Unverified } from "../unverified.ts";
import type { GeminiGenerationConfig, GeminiRequest, GeminiThinkingConfig } from "./gemini-wire.ts";

/** A client's chat request, with Google's own OpenAI extension (`google.thinking_config`). */
type ChatSent = Unverified<ChatRequest & { google: unknown }>;
type GoogleThinkingConfig = { thinking_budget?: number; thinking_level?: string; include_thoughts?: boolean };

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** Gemini 3 and later choose how hard to think by level; Gemini 2.x by a token budget. */
export function isLevelThinker(model: string): boolean {
  const major = /gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

const budgetByEffort: Record<string, number> = { none: 0, minimal: 512, low: 1024, medium: 8192, high: 24576 };

/**
 * thinkingConfig from the client's reasoning_effort (thoughts included so they come back as
 * reasoning_content), or from Google's own OpenAI extension `google.thinking_config`.
 */
export function thinkingConfigOf(json: ChatSent, model: string): GeminiThinkingConfig | undefined {
  const explicit = unverified<GoogleThinkingConfig>(unverified<{ thinking_config: unknown }>(json.google)?.thinking_config);
  if (explicit) {
    const config: GeminiThinkingConfig = {};
    if (isNumber(explicit.thinking_budget)) config.thinkingBudget = explicit.thinking_budget;
    if (typeof explicit.thinking_level === "string") config.thinkingLevel = explicit.thinking_level;
    if (typeof explicit.include_thoughts === "boolean") config.includeThoughts = explicit.include_thoughts;
    return Object.keys(config).length ? config : undefined;
  }
  const effort = json.reasoning_effort;
  if (typeof effort !== "string" || !(effort in budgetByEffort)) return undefined;
  if (isLevelThinker(model)) {
    // Level-based models cannot switch thinking off; "none" asks for the least there is.
    const level = effort === "none" || effort === "minimal" ? "low" : effort;
    return { thinkingLevel: level, includeThoughts: true };
  }
  const budget = budgetByEffort[effort]!;
  return budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
}

function responseFormatOf(value: unknown): GeminiGenerationConfig {
  const format = unverified<ChatResponseFormat>(value);
  if (format?.type === "json_object") return { responseMimeType: "application/json" };
  if (format?.type === "json_schema") {
    const schema = geminiSchema(unverified<{ schema: unknown }>(format.json_schema)?.schema);
    return { responseMimeType: "application/json", ...(schema ? { responseSchema: schema } : {}) };
  }
  return {};
}

function generationConfigOf(json: ChatSent, model: string): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (isNumber(json.temperature)) config.temperature = json.temperature;
  if (isNumber(json.top_p)) config.topP = json.top_p;
  if (isNumber(json.top_k)) config.topK = json.top_k;
  const maxTokens = json.max_completion_tokens ?? json.max_tokens;
  if (isNumber(maxTokens) && maxTokens > 0) config.maxOutputTokens = maxTokens;
  if (typeof json.stop === "string") config.stopSequences = [json.stop];
  else if (Array.isArray(json.stop) && json.stop.length) config.stopSequences = json.stop.filter((stop) => typeof stop === "string");
  if (isNumber(json.n) && json.n > 1) config.candidateCount = json.n;
  if (isNumber(json.presence_penalty)) config.presencePenalty = json.presence_penalty;
  if (isNumber(json.frequency_penalty)) config.frequencyPenalty = json.frequency_penalty;
  if (isNumber(json.seed)) config.seed = json.seed;
  Object.assign(config, responseFormatOf(json.response_format));
  // OpenAI's modalities as Gemini's responseModalities (image output models answer TEXT and IMAGE).
  if (Array.isArray(json.modalities) && json.modalities.length)
    config.responseModalities = json.modalities.map((modality) => String(modality).toUpperCase());
  const thinking = thinkingConfigOf(json, model);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/** The GenerateContentRequest body for an OpenAI chat request. */
export function geminiChatBody(json: ChatSent, model: string, settings: Pick<GeminiSettings, "safety">): GeminiRequest {
  const conversation = conversationOf(json.messages, { signCurrentTurn: isLevelThinker(model) });
  // A request of system messages only still needs a content: the instructions become the prompt.
  if (conversation.contents.length === 0 && conversation.systemInstruction) {
    conversation.contents.push({ role: "user", parts: conversation.systemInstruction.parts });
    delete conversation.systemInstruction;
  }
  const body: GeminiRequest = { contents: conversation.contents };
  if (conversation.systemInstruction) body.systemInstruction = conversation.systemInstruction;
  const tools = toolsOf(json.tools);
  if (tools) {
    body.tools = tools;
    const toolConfig = toolConfigOf(json.tool_choice);
    if (toolConfig) body.toolConfig = toolConfig;
  }
  body.safetySettings = safetySettingsOf(settings.safety);
  const generationConfig = generationConfigOf(json, model);
  if (Object.keys(generationConfig).length) body.generationConfig = generationConfig;
  return body;
}
