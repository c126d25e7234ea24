// OpenAI tools and tool_choice as Claude's. A function's JSON-schema `parameters` becomes the
// tool's `input_schema` (which must describe an object); "required" is Claude's "any", a named
// function is {type: "tool", name}; parallel_tool_calls: false is disable_parallel_tool_use.
import { refuseRequest } from "../conversion-refusal.ts";

type OpenAITool = { type?: unknown; function?: { name?: unknown; description?: unknown; parameters?: unknown }; cache_control?: unknown };

const emptySchema = { type: "object", properties: {} };

function claudeTool(tool: OpenAITool): Record<string, unknown> {
  // The legacy `functions` list holds the function itself.
  const fn = (tool.type === "function" ? tool.function : tool) as OpenAITool["function"];
  if (!fn || typeof fn.name !== "string" || fn.name === "") refuseRequest("工具定义缺少名称");
  const schema = fn.parameters && typeof fn.parameters === "object" ? fn.parameters : emptySchema;
  const result: Record<string, unknown> = { name: fn.name, input_schema: { type: "object", ...schema } };
  if (typeof fn.description === "string" && fn.description !== "") result.description = fn.description;
  if (tool.cache_control) result.cache_control = tool.cache_control;
  return result;
}

/** The Claude `tools` of a request, or undefined when it declares none. */
export function convertTools(json: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const list = Array.isArray(json.tools) ? json.tools : Array.isArray(json.functions) ? json.functions : undefined;
  if (!list || list.length === 0) return undefined;
  return (list as OpenAITool[]).map(claudeTool);
}

/** The Claude `tool_choice`, or undefined for the default (auto, parallel calls allowed). */
export function convertToolChoice(json: Record<string, unknown>): Record<string, unknown> | undefined {
  const choice = json.tool_choice ?? json.function_call;
  let result: Record<string, unknown> | undefined;
  if (choice === "auto") result = { type: "auto" };
  else if (choice === "none") result = { type: "none" };
  else if (choice === "required" || choice === "any") result = { type: "any" };
  else if (choice && typeof choice === "object") {
    const record = choice as { function?: { name?: unknown }; name?: unknown };
    const name = record.function?.name ?? record.name;
    if (typeof name !== "string") refuseRequest("tool_choice 无效");
    result = { type: "tool", name };
  }
  if (json.parallel_tool_calls === false && result?.type !== "none") result = { ...(result ?? { type: "auto" }), disable_parallel_tool_use: true };
  return result;
}
