// OpenAI tools and tool_choice as Claude's. A function's JSON-schema `parameters` becomes the
// tool's `input_schema` (which must describe an object); "required" is Claude's "any", a named
// function is {type: "tool", name}; parallel_tool_calls: false is disable_parallel_tool_use.
import type { HostedTool } from "../adaptor.ts";
import { refuseRequest } from "../conversion-refusal.ts";
import type { ChatFunction, ChatRequest, ChatTool } from "../openai-chat-wire.ts";
import { isJsonObject, unverified, type Unverified } from "../unverified.ts";
import { cacheControlOf } from "./claude-messages.ts";
import type { ClaudeCacheControl, ClaudeCustomTool, ClaudeRequest, ClaudeToolChoice, ClaudeWebSearchTool } from "./claude-wire.ts";

const emptySchema = { type: "object", properties: {} };

function claudeTool(value: unknown): ClaudeCustomTool {
  const tool = unverified<ChatTool & { cache_control: ClaudeCacheControl }>(value);
  // The legacy `functions` list holds the function itself.
  const fn = tool?.type === "function" ? unverified<ChatFunction>(tool.function) : unverified<ChatFunction>(value);
  if (!fn || typeof fn.name !== "string" || fn.name === "") refuseRequest("工具定义缺少名称");
  // An object type unless the client's schema names its own (Anthropic then says what is wrong).
  const schema: { readonly [key: string]: unknown } = isJsonObject(fn.parameters) ? fn.parameters : emptySchema;
  const result: ClaudeCustomTool = { name: fn.name, input_schema: { type: "object", ...schema } };
  if (typeof fn.description === "string" && fn.description !== "") result.description = fn.description;
  const cache = cacheControlOf(tool?.cache_control);
  if (cache) result.cache_control = cache;
  return result;
}

/** The Claude `tools` of a request, or undefined when it declares none. */
export function convertTools(json: Unverified<ChatRequest & { functions: unknown }>): ClaudeCustomTool[] | undefined {
  const list = Array.isArray(json.tools) ? json.tools : Array.isArray(json.functions) ? json.functions : undefined;
  if (!list || list.length === 0) return undefined;
  return list.map(claudeTool);
}

/** The Claude `tool_choice`, or undefined for the default (auto, parallel calls allowed). */
export function convertToolChoice(json: Unverified<ChatRequest & { function_call: unknown }>): ClaudeToolChoice | undefined {
  const choice = json.tool_choice ?? json.function_call;
  let result: ClaudeToolChoice | undefined;
  if (choice === "auto") result = { type: "auto" };
  else if (choice === "none") result = { type: "none" };
  else if (choice === "required" || choice === "any") result = { type: "any" };
  else if (isJsonObject(choice)) {
    // {type: "function", function: {name}}, or the legacy function_call's {name}.
    const name = unverified<{ name: string }>(choice.function)?.name ?? choice.name;
    if (typeof name !== "string") refuseRequest("tool_choice 无效");
    result = { type: "tool", name };
  }
  if (json.parallel_tool_calls === false && result?.type !== "none")
    result = { ...(result ?? { type: "auto" }), disable_parallel_tool_use: true };
  return result;
}

/**
 * A converted call's hosted web search as Claude's web search server tool (Anthropic runs it and
 * answers with the results' text). A tool_choice naming it forces it, which thinking does not
 * allow: such a call goes without thinking.
 */
export function addWebSearch(body: ClaudeRequest, hosted: HostedTool, required: boolean): void {
  const tool: ClaudeWebSearchTool = { type: "web_search_20250305", name: "web_search" };
  if (hosted.maxUses) tool.max_uses = hosted.maxUses;
  if (hosted.allowedDomains?.length) tool.allowed_domains = hosted.allowedDomains;
  else if (hosted.blockedDomains?.length) tool.blocked_domains = hosted.blockedDomains;
  if (hosted.userLocation) tool.user_location = { type: "approximate", ...hosted.userLocation };
  body.tools = [...(body.tools ?? []), tool];
  if (required) body.tool_choice = { type: "tool", name: "web_search" };
}
