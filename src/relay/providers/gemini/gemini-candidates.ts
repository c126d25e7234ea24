// One Gemini candidate's parts read as an OpenAI message (or stream delta): text parts are the
// content, thought parts the reasoning_content, functionCall parts the tool_calls (with the
// thought signature kept in `extra_content.google.thought_signature`, Google's own OpenAI
// convention, so a client that sends the call back gives Gemini its signature again).
// Finish reasons: STOP -> stop (tool_calls when the turn called functions), MAX_TOKENS -> length,
// the safety family -> content_filter.

type Part = { text?: unknown; thought?: unknown; thoughtSignature?: unknown; functionCall?: { id?: unknown; name?: unknown; args?: unknown } };
export type Candidate = { index?: number; content?: { parts?: Part[] }; finishReason?: string };

export type ToolCall = {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  extra_content?: { google: { thought_signature: string } };
};

export type CandidateOutput = { text: string; reasoning: string; toolCalls: ToolCall[] };

const filtered = new Set([
  "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION", "MODEL_ARMOR",
]);

export function finishReasonOf(reason: string | undefined, calledTools: boolean): string | null {
  if (!reason || reason === "FINISH_REASON_UNSPECIFIED") return null;
  if (reason === "MAX_TOKENS") return "length";
  if (filtered.has(reason)) return "content_filter";
  return calledTools ? "tool_calls" : "stop";
}

export const newToolCallId = () => `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;

export function outputOfCandidate(candidate: Candidate): CandidateOutput {
  const output: CandidateOutput = { text: "", reasoning: "", toolCalls: [] };
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall && typeof part.functionCall.name === "string") {
      const call: ToolCall = {
        id: typeof part.functionCall.id === "string" && part.functionCall.id ? part.functionCall.id : newToolCallId(),
        type: "function",
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      };
      if (typeof part.thoughtSignature === "string" && part.thoughtSignature) call.extra_content = { google: { thought_signature: part.thoughtSignature } };
      output.toolCalls.push(call);
    } else if (typeof part.text === "string") {
      if (part.thought === true) output.reasoning += part.text;
      else output.text += part.text;
    }
  }
  return output;
}
