// The Anthropic Messages API (POST /v1/messages) as an inbound format. The key comes in
// x-api-key (Anthropic's header) or as a Bearer token; max_tokens is required, as Anthropic
// requires it, and bounds the hold.
import { AppError } from "../../../errors/app-error.ts";
import type { InboundCodec } from "../inbound-codec.ts";
import { claudeErrorBody, claudeErrorObject } from "./errors-to-claude.ts";
import { claudeToChat } from "./claude-to-chat-request.ts";
import { claudeMessage } from "./chat-to-claude-response.ts";
import { claudeStreamTranslator } from "./chat-to-claude-stream.ts";
import { namedEvent } from "../inbound-codec.ts";
import type { Unverified } from "../../providers/unverified.ts";
import type { ClaudeRequest } from "../../providers/claude/claude-wire.ts";

const invalid = (key: string, params?: Record<string, string>) => new AppError("invalid", key, params, { code: "invalid_request" });

/** The checks every Messages body passes (count_tokens too, which has no max_tokens). */
export function readClaudeModel(body: Unverified<ClaudeRequest>): string {
  if (typeof body.model !== "string" || body.model.trim() === "") throw invalid("缺少必填字段 {{field}}", { field: "model" });
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw invalid("缺少必填字段 {{field}}", { field: "messages" });
  return body.model.trim();
}

export const claudeCodec: InboundCodec = {
  format: "claude",
  keyText: (request) => request.headers.get("x-api-key") ?? undefined,
  vendorHeaders(headers) {
    // The API version and beta features the client asked for, forwarded by Claude channels.
    const forwarded: Record<string, string> = {};
    for (const name of ["anthropic-version", "anthropic-beta"]) {
      const value = headers.get(name);
      if (value) forwarded[name] = value;
    }
    return Object.keys(forwarded).length ? forwarded : undefined;
  },
  read(body) {
    const model = readClaudeModel(body);
    const maxTokens = body.max_tokens;
    if (maxTokens === undefined || maxTokens === null) throw invalid("缺少必填字段 {{field}}", { field: "max_tokens" });
    if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > 2 ** 30)
      throw invalid("max_tokens 无效");
    // Each tool is an object (a null among them crashed the conversion: a 500 found by the fuzz suite).
    const tools = body.tools;
    if (
      tools !== undefined &&
      tools !== null &&
      (!Array.isArray(tools) || tools.some((tool) => typeof tool !== "object" || tool === null || Array.isArray(tool)))
    ) {
      throw invalid("字段 {{field}} 无效", { field: "tools" });
    }
    return { model, stream: body.stream === true, maxTokens };
  },
  toChat: claudeToChat,
  fromChat: claudeMessage,
  streamTranslator: claudeStreamTranslator,
  errorBody: claudeErrorBody,
  streamErrorText: (error) => namedEvent("error", { type: "error", error: claudeErrorObject(error) }),
};
