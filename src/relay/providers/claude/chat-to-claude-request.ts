// An OpenAI chat completion request as a Claude Messages API request (pure). Anthropic, Bedrock
// and Vertex all send this body; Bedrock and Vertex then move the model into the URL and add
// their anthropic_version.
import type { RelayCall } from "../adaptor.ts";
import { refuseRequest } from "../conversion-refusal.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import { convertMessages, withoutThinking, type ImagePolicy } from "./claude-messages.ts";
import { defaultMaxTokens, splitThinkingSuffix } from "./claude-models.ts";
import { restrictSampling, thinkingBudget } from "./claude-thinking.ts";
import { convertToolChoice, convertTools } from "./claude-tools.ts";
import type { ClaudeRequest, ClaudeTextBlock } from "./claude-wire.ts";

const positiveInteger = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;

/**
 * The max_tokens to send: the client's limit, else the model's default, never more than the
 * completion allowance the relay's hold covers (so the hold stays an upper bound of the cost).
 */
export function maxTokensFor(call: Pick<RelayCall, "json" | "upstreamModel" | "completionAllowance">): number {
  const json = call.json ?? {};
  const asked = positiveInteger(json.max_completion_tokens) ?? positiveInteger(json.max_tokens);
  if (asked) return asked;
  const fallback = defaultMaxTokens(call.upstreamModel);
  const allowance = positiveInteger(call.completionAllowance);
  return allowance ? Math.min(fallback, allowance) : fallback;
}

function systemField(blocks: ClaudeTextBlock[]): string | ClaudeTextBlock[] | undefined {
  if (blocks.length === 0) return undefined;
  if (blocks.every((block) => !block.cache_control)) return blocks.map((block) => block.text).join("\n\n");
  return blocks;
}

/** OpenAI's stop as stop_sequences; Claude refuses whitespace-only ones, so those cannot be kept. */
function stopSequences(stop: unknown): string[] | undefined {
  const list =
    typeof stop === "string" ? [stop] : Array.isArray(stop) ? stop.filter((item): item is string => typeof item === "string") : [];
  const kept = list.filter((item) => item.trim() !== "");
  return kept.length ? kept : undefined;
}

export function claudeRequestFromOpenAI(call: RelayCall, images: ImagePolicy): ClaudeRequest {
  if (call.endpoint !== "chat" || !call.json) refuseRequest("该渠道只支持对话补全接口");
  const json = call.json;
  if (typeof json.n === "number" && json.n > 1) refuseRequest("Claude 不支持 n 大于 1");
  // Claude's Messages API has no JSON mode or service tiers of OpenAI's kinds (Anthropic's docs).
  refuseUnsupportedFields(call, "Claude", { outputLimit: true, reasoningEffort: true, singleToolCall: "mapped" });
  const { model, thinking: suffix } = splitThinkingSuffix(call.upstreamModel);
  const converted = convertMessages(json.messages, images);
  const maxTokens = maxTokensFor(call);
  const body: ClaudeRequest = { model, max_tokens: maxTokens, messages: converted.messages };

  const system = systemField(converted.system);
  if (system !== undefined) body.system = system;
  const stop = stopSequences(json.stop);
  if (stop) body.stop_sequences = stop;
  // OpenAI's temperature goes to 2, Claude's to 1.
  if (typeof json.temperature === "number") body.temperature = Math.min(Math.max(json.temperature, 0), 1);
  if (typeof json.top_p === "number") body.top_p = json.top_p;
  if (typeof json.top_k === "number") body.top_k = json.top_k;
  if (typeof json.user === "string" && json.user !== "") body.metadata = { user_id: json.user };
  if (call.stream) body.stream = true;

  const tools = convertTools(json);
  const toolChoice = tools ? convertToolChoice(json) : undefined;
  if (tools) body.tools = tools;
  if (toolChoice) body.tool_choice = toolChoice;

  const budget = thinkingBudget({
    model,
    suffix,
    effort: json.reasoning_effort,
    maxTokens,
    toolChoice,
    // A tool step must give its signed thinking back; one that kept it (reasoning-state.ts) can.
    lastAssistantUsedTools: converted.lastAssistantUsedTools && !converted.lastToolStepSigned,
  });
  if (budget) {
    body.thinking = { type: "enabled", budget_tokens: budget };
    restrictSampling(body);
  } else body.messages = withoutThinking(converted.messages);
  return body;
}
