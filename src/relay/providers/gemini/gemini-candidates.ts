// One Gemini candidate's parts read as an OpenAI message (or stream delta): text parts are the
// content, thought parts the reasoning_content, functionCall parts the tool_calls (with the
// thought signature kept in `extra_content.google.thought_signature`, Google's own OpenAI
// convention, so a client that sends the call back gives Gemini its signature again).
// A signature on another part (Gemini puts one on the last part of an answer without function
// calls) is kept as the message's extra_content.google.thought_signature.
// Finish reasons: STOP -> stop (tool_calls when the turn called functions), MAX_TOKENS -> length,
// the safety family -> content_filter.
import type { ChatFinishReason, ChatToolCall } from "../openai-chat-wire.ts";
import { unverified, unverifiedList, type Unverified } from "../unverified.ts";
import type { GeminiCandidate, GeminiFunctionCall, GeminiPart } from "./gemini-wire.ts";

export type CandidateOutput = { text: string; reasoning: string; toolCalls: ChatToolCall[]; signature?: string };

const filtered = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
  "MODEL_ARMOR",
]);

export function finishReasonOf(reason: unknown, calledTools: boolean): ChatFinishReason | null {
  if (typeof reason !== "string" || !reason || reason === "FINISH_REASON_UNSPECIFIED") return null;
  if (reason === "MAX_TOKENS") return "length";
  if (filtered.has(reason)) return "content_filter";
  return calledTools ? "tool_calls" : "stop";
}

const newToolCallId = () => `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;

export function outputOfCandidate(candidate: Unverified<GeminiCandidate>): CandidateOutput {
  const output: CandidateOutput = { text: "", reasoning: "", toolCalls: [] };
  const content = unverified<NonNullable<GeminiCandidate["content"]>>(candidate.content);
  for (const part of unverifiedList<GeminiPart>(content?.parts)) {
    const functionCall = unverified<GeminiFunctionCall>(part.functionCall);
    if (functionCall && typeof functionCall.name === "string") {
      const call: ChatToolCall = {
        id: typeof functionCall.id === "string" && functionCall.id ? functionCall.id : newToolCallId(),
        type: "function",
        function: { name: functionCall.name, arguments: JSON.stringify(functionCall.args ?? {}) },
      };
      if (typeof part.thoughtSignature === "string" && part.thoughtSignature)
        call.extra_content = { google: { thought_signature: part.thoughtSignature } };
      output.toolCalls.push(call);
      continue;
    }
    if (typeof part.text === "string") {
      if (part.thought === true) output.reasoning += part.text;
      else output.text += part.text;
    }
    if (typeof part.thoughtSignature === "string" && part.thoughtSignature) output.signature = part.thoughtSignature;
  }
  return output;
}
