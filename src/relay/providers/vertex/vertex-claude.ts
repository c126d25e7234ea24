// Anthropic's publisher on Vertex AI: Claude's Messages body (the Claude adaptor's conversion, or
// a Claude-format call's own body) without `model`, which moves into the URL under Vertex's id
// (vertex-claude-models.ts), and with anthropic_version "vertex-2023-10-16"; sent to
// .../publishers/anthropic/models/{id}:rawPredict, or :streamRawPredict for a stream (the body's
// `stream: true`). Answers and streams are Claude's own, so Claude's converters read them. Vertex
// takes images as base64 only: vertex.ts downloads a call's image links and inlines them first
// (vendor-format-helpers/inline-images.ts).
import type { RelayCall } from "../adaptor.ts";
import { nativeClaudeBody } from "../claude/claude-native.ts";
import { claudeRequestFromOpenAI } from "../claude/chat-to-claude-request.ts";
import { vertexClaudeModel } from "./vertex-claude-models.ts";

const vertexAnthropicVersion = "vertex-2023-10-16";

export function vertexClaudeCall(call: RelayCall): { model: string; method: string; body: Record<string, unknown> } {
  // The body as Anthropic takes it, re-shaped for the cloud (model in the URL, version in the body).
  const body: Record<string, unknown> = call.format === "claude" ? nativeClaudeBody(call) : claudeRequestFromOpenAI(call, "base64-only");
  const model = vertexClaudeModel(String(body.model ?? call.upstreamModel));
  delete body.model;
  body.anthropic_version = vertexAnthropicVersion;
  if (call.stream) body.stream = true;
  else delete body.stream;
  return { model, method: call.stream ? "streamRawPredict" : "rawPredict", body };
}
