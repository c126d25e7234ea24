// A Responses request's tools as chat functions, for channels that do not speak the Responses
// API (issue 24), and the way back for the model's calls. Wire facts: OpenAI's Responses API
// reference and its SDK types (FunctionTool, CustomTool, NamespaceTool, ToolSearchTool,
// WebSearchTool and their call items).
//   - function: a chat function as it is; `defer_loading` ones wait until a tool search loads
//     them (a tool_search_output in the input), or are offered at once when no client-run tool
//     search exists to find them;
//   - namespace: each function (or freeform tool) inside becomes `<namespace>__<name>`; its calls
//     come back as function_call items naming the namespace again;
//   - custom (freeform, Codex's apply_patch): a function taking one string, `input`, with the
//     tool's grammar in its description; calls come back as custom_tool_call items;
//   - tool_search run by the client: a function named `tool_search`; calls come back as
//     tool_search_call items; the tools its outputs load join the call's functions;
//   - web_search (and its dated and preview names): a hosted tool, run by a vendor that has its
//     own (responses → HostedTool), left out elsewhere;
//   - any other hosted tool (file_search, code_interpreter, image_generation, mcp, computer use,
//     server-run tool_search...): left out, and named in the log.
// tool_choice naming a function maps to its chat name; naming a hosted tool, the call cannot
// mean anything without it: web search becomes `requiredHostedTool`, anything else is refused.
import { AppError } from "../../../errors/app-error.ts";
import type { HostedTool } from "../../providers/adaptor.ts";
import type { ToolName } from "../inbound-codec.ts";
import type { ChatTool, ChatToolChoice } from "../../providers/openai-chat-wire.ts";

type Item = Record<string, any>;

export type ConvertedTools = {
  tools: ChatTool[];
  names: Map<string, ToolName>;
  hosted: HostedTool[];
  leftOut: string[];
  toolChoice?: ChatToolChoice;
  requiredHosted?: HostedTool["type"];
  refusal?: AppError;
};

const webSearchTypes = new Set(["web_search", "web_search_preview", "web_search_2025_08_26", "web_search_preview_2025_03_11"]);
const emptyObject = { type: "object", properties: {} };

/** Chat function names allow 64 characters of [A-Za-z0-9_-] at most (Claude's and Gemini's rule too). */
function fittingName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]/g, "_");
  if (clean.length <= 64) return clean;
  const hash = Bun.hash(name).toString(16).slice(0, 8);
  return `${clean.slice(0, 55)}_${hash}`;
}

/** The chat name of a client tool (a namespace joins its name with two underscores). */
export function chatToolName(name: string, namespace?: string): string {
  return namespace ? fittingName(`${namespace}__${name}`) : name;
}

function hostedOf(tool: Item): HostedTool {
  const hosted: HostedTool = { type: "web_search" };
  const domains = tool.filters?.allowed_domains;
  if (Array.isArray(domains) && domains.every((domain) => typeof domain === "string")) hosted.allowedDomains = domains;
  const location = tool.user_location;
  if (location && typeof location === "object") {
    const picked: NonNullable<HostedTool["userLocation"]> = {};
    for (const key of ["city", "region", "country", "timezone"] as const)
      if (typeof location[key] === "string") picked[key] = location[key];
    if (Object.keys(picked).length) hosted.userLocation = picked;
  }
  return hosted;
}

function freeformDescription(tool: Item): string {
  const parts = [typeof tool.description === "string" ? tool.description : ""];
  const format = tool.format;
  if (format?.type === "grammar" && typeof format.definition === "string") {
    parts.push(`The input must follow this ${String(format.syntax ?? "")} grammar:\n${format.definition}`);
  }
  parts.push("Pass the whole freeform input as the string `input`.");
  return parts.filter(Boolean).join("\n\n");
}

class ToolCollector {
  readonly tools: ChatTool[] = [];
  readonly names = new Map<string, ToolName>();
  readonly hosted: HostedTool[] = [];
  readonly leftOut: string[] = [];
  /** Deferred functions, offered only once loaded (or when nothing can load them). */
  readonly deferred: { tool: Item; namespace?: string }[] = [];
  /** Each namespace's description, which its functions' descriptions open with. */
  readonly namespaceText = new Map<string, string>();
  clientSearch = false;

  private push(name: string, fn: Record<string, unknown>, meaning?: ToolName): void {
    if (this.names.has(name) || this.tools.some((tool) => tool.function.name === name)) return;
    this.tools.push({ type: "function", function: { ...fn, name } });
    if (meaning) this.names.set(name, meaning);
  }

  leaveOut(type: string): void {
    if (!this.leftOut.includes(type)) this.leftOut.push(type);
  }

  function(tool: Item, namespace?: string, loading = false): void {
    if (typeof tool.name !== "string" || tool.name === "") return;
    if (tool.defer_loading === true && !loading) {
      this.deferred.push({ tool, namespace });
      return;
    }
    const name = chatToolName(tool.name, namespace);
    const fn: Record<string, unknown> = { parameters: tool.parameters ?? emptyObject };
    const description = [
      namespace && typeof this.namespaceText.get(namespace) === "string" ? this.namespaceText.get(namespace) : "",
      tool.description,
    ]
      .filter((text) => typeof text === "string" && text !== "")
      .join("\n\n");
    if (description) fn.description = description;
    if (typeof tool.strict === "boolean") fn.strict = tool.strict;
    this.push(name, fn, namespace ? { kind: "function", name: tool.name, namespace } : undefined);
  }

  custom(tool: Item, namespace?: string): void {
    if (typeof tool.name !== "string" || tool.name === "") return;
    const parameters = {
      type: "object",
      properties: { input: { type: "string", description: "The freeform input." } },
      required: ["input"],
    };
    this.push(
      chatToolName(tool.name, namespace),
      { description: freeformDescription(tool), parameters },
      {
        kind: "custom",
        name: tool.name,
        ...(namespace ? { namespace } : {}),
      },
    );
  }

  add(tool: Item, loading = false): void {
    const type = typeof tool?.type === "string" ? tool.type : "";
    if (type === "function") this.function(tool, undefined, loading);
    else if (type === "custom") this.custom(tool);
    else if (type === "namespace" && typeof tool.name === "string") {
      if (typeof tool.description === "string") this.namespaceText.set(tool.name, tool.description);
      for (const inner of Array.isArray(tool.tools) ? (tool.tools as Item[]) : []) {
        if (inner?.type === "custom") this.custom(inner, tool.name);
        else this.function(inner ?? {}, tool.name, loading);
      }
    } else if (type === "tool_search" && tool.execution !== "server") {
      this.clientSearch = true;
      const fn: Record<string, unknown> = { parameters: tool.parameters ?? emptyObject };
      if (typeof tool.description === "string") fn.description = tool.description;
      this.push("tool_search", fn, { kind: "tool_search", name: "tool_search" });
    } else if (webSearchTypes.has(type)) {
      if (!this.hosted.length) this.hosted.push(hostedOf(tool));
    } else this.leaveOut(type || "unknown");
  }
}

function chatChoice(choice: unknown, collector: ToolCollector): Pick<ConvertedTools, "toolChoice" | "requiredHosted" | "refusal"> {
  if (choice === "auto" || choice === "none" || choice === "required") return { toolChoice: choice };
  const record = choice as Item | undefined;
  if (!record || typeof record !== "object") return {};
  if ((record.type === "function" || record.type === "custom") && typeof record.name === "string") {
    return { toolChoice: { type: "function", function: { name: chatToolName(record.name, record.namespace) } } };
  }
  if (record.type === "allowed_tools") return { toolChoice: record.mode === "required" ? "required" : "auto" };
  if (webSearchTypes.has(record.type)) return { requiredHosted: "web_search" };
  if (record.type === "tool_search" && collector.clientSearch)
    return { toolChoice: { type: "function", function: { name: "tool_search" } } };
  return {
    refusal: new AppError(
      "invalid",
      "工具类型 {{type}} 只能由原生支持该格式的渠道执行",
      { type: String(record.type) },
      { code: "conversion_unsupported" },
    ),
  };
}

/** The request's tools, and those its tool_search outputs loaded, as chat functions. */
export function responsesTools(body: Item, input: Item[]): ConvertedTools {
  const collector = new ToolCollector();
  for (const tool of Array.isArray(body.tools) ? (body.tools as Item[]) : []) if (tool && typeof tool === "object") collector.add(tool);
  for (const item of input) {
    if (item?.type !== "tool_search_output") continue;
    for (const tool of Array.isArray(item.tools) ? (item.tools as Item[]) : [])
      if (tool && typeof tool === "object") collector.add(tool, true);
  }
  // Deferred tools nothing on the client can load are offered as they are.
  if (!collector.clientSearch) for (const { tool, namespace } of collector.deferred) collector.function(tool, namespace, true);
  const choice = body.tool_choice === undefined ? {} : chatChoice(body.tool_choice, collector);
  return { tools: collector.tools, names: collector.names, hosted: collector.hosted, leftOut: collector.leftOut, ...choice };
}

/** What a tool_search_output loaded, as the text of the tool message the chat model reads. */
export function loadedToolsText(item: Item): string {
  const names: string[] = [];
  for (const tool of Array.isArray(item.tools) ? (item.tools as Item[]) : []) {
    if (tool?.type === "namespace") {
      for (const inner of Array.isArray(tool.tools) ? tool.tools : []) if (inner?.name) names.push(chatToolName(inner.name, tool.name));
    } else if (typeof tool?.name === "string") names.push(tool.name);
  }
  return names.length ? `Tools loaded: ${names.join(", ")}` : "No tools found.";
}
