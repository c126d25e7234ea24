// Extended thinking for OpenAI-style clients: the client's reasoning_effort, or a "-thinking"
// model suffix, asks for it. The budget is a share of max_tokens (thinking and answer share
// that limit): minimal 1,024 (Claude's floor), low 20%, medium 50%, high 80%; the suffix alone
// means high. Claude's rules then apply: the budget must stay under max_tokens, sampling
// parameters are restricted, a forced tool choice is not allowed, and an assistant turn that
// called tools must carry its signed thinking block (given back when the client kept it, see
// inbound/reasoning-state.ts). Where thinking cannot be on, the call goes without it rather
// than failing.
import type { Unverified } from "../unverified.ts";
import { supportsThinking } from "./claude-models.ts";
import type { ClaudeRequest, ClaudeToolChoice } from "./claude-wire.ts";

const minimumBudget = 1024;
const shares: Record<string, number> = { minimal: 0, low: 0.2, medium: 0.5, high: 0.8 };

export type ThinkingRequest = {
  model: string;
  /** The model named the "-thinking" suffix. */
  suffix: boolean;
  effort: unknown;
  maxTokens: number;
  /** Ours, or a native client's as it sent it. */
  toolChoice: Unverified<ClaudeToolChoice> | undefined;
  lastAssistantUsedTools: boolean;
};

/** The thinking budget to send, or undefined when thinking stays off. */
export function thinkingBudget(request: ThinkingRequest): number | undefined {
  const effort = typeof request.effort === "string" ? request.effort : undefined;
  if (effort === "none") return undefined;
  const asked = request.suffix || (effort !== undefined && effort in shares && supportsThinking(request.model));
  if (!asked) return undefined;
  if (request.toolChoice?.type === "any" || request.toolChoice?.type === "tool") return undefined;
  if (request.lastAssistantUsedTools) return undefined;
  const share = shares[effort ?? "high"] ?? shares.high!;
  const budget = Math.max(minimumBudget, Math.floor(request.maxTokens * share));
  return budget < request.maxTokens ? budget : undefined;
}

/** Thinking allows no temperature or top_k, and top_p only from 0.95 up. */
export function restrictSampling(body: ClaudeRequest): void {
  delete body.temperature;
  delete body.top_k;
  if (typeof body.top_p === "number" && body.top_p < 0.95) body.top_p = 0.95;
}
