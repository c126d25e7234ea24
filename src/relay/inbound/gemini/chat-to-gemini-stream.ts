// OpenAI chat chunks as Gemini's streamGenerateContent?alt=sse: each chunk with text becomes a
// GenerateContentResponse holding that piece; function calls, which Gemini sends whole, are
// gathered and sent in the last response together with the finish reason and usageMetadata,
// signed with the state the next turn needs (chat-to-gemini-response.ts signParts).
// An error is a data event holding Google's error object, as Gemini sends one.
import type { StreamBreak, Usage } from "../../providers/adaptor.ts";
import type { ChatChunk, AnswerToolCall } from "../chat-answer.ts";
import { dataEvent, type ChunkTranslator, type NativeCall } from "../inbound-codec.ts";
import { mergeReasoning, reasoningOfChat, type ReasoningState } from "../reasoning-state.ts";
import { geminiErrorBody } from "./errors-to-gemini.ts";
import {
  functionCallPart,
  geminiFinishReason,
  geminiResponseId,
  geminiUsage,
  signParts,
  wantsThoughts,
} from "./chat-to-gemini-response.ts";

import type { GeminiCandidate, GeminiPart, GeminiResponse } from "../../providers/gemini/gemini-wire.ts";

type Candidate = { finish: string | null; tools: Map<number, AnswerToolCall>; state?: ReasoningState };

export function geminiStreamTranslator(call: NativeCall): ChunkTranslator {
  const thoughts = wantsThoughts(call.request);
  const candidates = new Map<number, Candidate>();
  let responseId = "";
  let model = call.model;

  const candidate = (index: number): Candidate => {
    let entry = candidates.get(index);
    if (!entry) candidates.set(index, (entry = { finish: null, tools: new Map() }));
    return entry;
  };
  const response = (list: GeminiCandidate[], extra: Pick<GeminiResponse, "usageMetadata"> = {}) => {
    const event: GeminiResponse = { candidates: list, ...extra, modelVersion: model, responseId: (responseId ||= geminiResponseId("")) };
    return dataEvent(event);
  };

  return {
    chunk(chunk: ChatChunk) {
      if (chunk.id && !responseId) responseId = chunk.id;
      if (chunk.model) model = chunk.model;
      const list: GeminiCandidate[] = [];
      for (const choice of chunk.choices ?? []) {
        const index = choice.index ?? 0;
        const entry = candidate(index);
        const piece = choice.delta ?? {};
        const parts: GeminiPart[] = [];
        const reasoning =
          typeof piece.reasoning_content === "string"
            ? piece.reasoning_content
            : typeof piece.reasoning === "string"
              ? piece.reasoning
              : "";
        if (thoughts && reasoning) parts.push({ text: reasoning, thought: true });
        if (typeof piece.content === "string" && piece.content !== "") parts.push({ text: piece.content });
        entry.state = mergeReasoning(entry.state, reasoningOfChat(piece));
        for (const tool of piece.tool_calls ?? []) {
          const key = tool.index ?? 0;
          const gathered = entry.tools.get(key) ?? { id: "", name: "", arguments: "" };
          if (tool.id) gathered.id = tool.id;
          if (tool.function?.name) gathered.name += tool.function.name;
          if (tool.function?.arguments) gathered.arguments += tool.function.arguments;
          entry.tools.set(key, gathered);
        }
        if (choice.finish_reason) entry.finish = choice.finish_reason;
        if (parts.length > 0) list.push({ content: { role: "model", parts }, index });
      }
      return list.length > 0 ? [response(list)] : [];
    },
    end(usage: Usage) {
      if (candidates.size === 0) candidate(0);
      const list = [...candidates.entries()].map(([index, entry]): GeminiCandidate => {
        const calls = [...entry.tools.values()];
        const parts = signParts(calls.map(functionCallPart), calls, entry.state);
        return { ...(parts.length ? { content: { role: "model", parts } } : {}), finishReason: geminiFinishReason(entry.finish), index };
      });
      return [response(list, { usageMetadata: geminiUsage(usage) })];
    },
    fail(error: StreamBreak) {
      return [dataEvent(geminiErrorBody(error))];
    },
  };
}
