// An Anthropic Messages request's tools as chat functions, for channels that do not speak Claude
// (issue 24). Wire facts: Anthropic's Messages API reference (tools, server tools, tool search).
//   - client tools (no type, or "custom"): chat functions; `defer_loading` ones wait until a
//     tool_reference in a tool_result loads them (Claude Code's ToolSearch), and are offered at
//     once when nothing in the request could load them;
//   - web search (web_search_20250305 and later dated names): a hosted tool, run by a vendor that
//     has its own (HostedTool), left out elsewhere;
//   - any other server or Anthropic-defined tool (web fetch, code execution, bash, text editor,
//     computer use, memory, Anthropic's own tool search): left out, named in the log.
// tool_choice naming a tool that was left out cannot be honoured: web search becomes the
// required hosted tool, anything else is refused.
import { AppError } from "../../../errors/app-error.ts";
import type { HostedTool } from "../../providers/adaptor.ts";
import type { ChatFunction, ChatTool, ChatToolChoice } from "../../providers/openai-chat-wire.ts";
import { unverified, unverifiedList, type Unverified } from "../../providers/unverified.ts";
import type {
  ClaudeMessageParam,
  ClaudeRequest,
  ClaudeTool,
  ClaudeToolChoice,
  ClaudeToolReferenceBlock,
  ClaudeToolResultBlock,
  ClaudeWebSearchTool,
} from "../../providers/claude/claude-wire.ts";

/** A client's tool as sent: the fields of every kind of tool, nothing checked. */
type ToolSent = Unverified<ClaudeTool>;

export type ClaudeTools = {
  tools: ChatTool[];
  hosted: HostedTool[];
  leftOut: string[];
  toolChoice?: ChatToolChoice;
  requiredHosted?: HostedTool["type"];
  refusal?: AppError;
};

const emptyObject = { type: "object", properties: {} };

const strings = (list: unknown[]): string[] => list.filter((item) => typeof item === "string");

function hostedOf(tool: ToolSent): HostedTool {
  const hosted: HostedTool = { type: "web_search" };
  if (typeof tool.max_uses === "number") hosted.maxUses = tool.max_uses;
  if (Array.isArray(tool.allowed_domains)) hosted.allowedDomains = strings(tool.allowed_domains);
  if (Array.isArray(tool.blocked_domains)) hosted.blockedDomains = strings(tool.blocked_domains);
  const location = unverified<NonNullable<ClaudeWebSearchTool["user_location"]>>(tool.user_location);
  if (location) {
    const picked: NonNullable<HostedTool["userLocation"]> = {};
    for (const key of ["city", "region", "country", "timezone"] as const) {
      const value = location[key];
      if (typeof value === "string") picked[key] = value;
    }
    if (Object.keys(picked).length) hosted.userLocation = picked;
  }
  return hosted;
}

/** The names tool_reference blocks of the conversation's tool results loaded. */
function loadedToolNames(messages: unknown): Set<string> {
  const names = new Set<string>();
  for (const message of unverifiedList<ClaudeMessageParam>(messages)) {
    for (const block of unverifiedList<ClaudeToolResultBlock>(message.content)) {
      if (block.type !== "tool_result") continue;
      for (const inner of unverifiedList<ClaudeToolReferenceBlock>(block.content))
        if (inner.type === "tool_reference" && typeof inner.tool_name === "string") names.add(inner.tool_name);
    }
  }
  return names;
}

export function claudeTools(body: Unverified<ClaudeRequest>): ClaudeTools {
  const result: ClaudeTools = { tools: [], hosted: [], leftOut: [] };
  const loaded = loadedToolNames(body.messages);
  const list = unverifiedList<ClaudeTool>(body.tools);
  // Deferred tools wait for a tool search, when the client offers one (Claude Code's ToolSearch).
  const searchable = list.some((tool) => tool.defer_loading !== true && /search/i.test(String(tool.name ?? "")) && !tool.type);
  const leftOutNames = new Set<string>();
  for (const tool of list) {
    const type = tool.type === undefined || tool.type === "custom" ? "custom" : String(tool.type);
    if (type === "custom") {
      if (typeof tool.name !== "string" || tool.name === "") continue;
      if (tool.defer_loading === true && searchable && !loaded.has(tool.name)) continue;
      const fn: ChatFunction = { name: tool.name, parameters: tool.input_schema ?? emptyObject };
      if (typeof tool.description === "string") fn.description = tool.description;
      if (typeof tool.strict === "boolean") fn.strict = tool.strict;
      result.tools.push({ type: "function", function: fn });
    } else if (type.startsWith("web_search_")) {
      if (!result.hosted.length) result.hosted.push(hostedOf(tool));
      if (typeof tool.name === "string") leftOutNames.add(`hosted:${tool.name}`);
    } else {
      if (!result.leftOut.includes(type)) result.leftOut.push(type);
      if (typeof tool.name === "string") leftOutNames.add(tool.name);
    }
  }
  const choice = unverified<ClaudeToolChoice>(body.tool_choice);
  switch (choice?.type) {
    case "auto":
      result.toolChoice = "auto";
      break;
    case "any":
      result.toolChoice = "required";
      break;
    case "none":
      result.toolChoice = "none";
      break;
    case "tool": {
      const name = String(choice.name ?? "");
      if (leftOutNames.has(`hosted:${name}`)) result.requiredHosted = "web_search";
      else if (leftOutNames.has(name)) {
        result.refusal = new AppError(
          "invalid",
          "工具类型 {{type}} 只能由原生支持该格式的渠道执行",
          { type: name },
          { code: "conversion_unsupported" },
        );
      } else result.toolChoice = { type: "function", function: { name } };
      break;
    }
  }
  return result;
}
