// A Gemini stream (streamGenerateContent?alt=sse: each event one GenerateContentResponse with the
// new parts, usageMetadata running, finishReason on the last) as OpenAI chat.completion.chunk
// events: role on a candidate's first chunk, text as content, thoughts as reasoning_content,
// each functionCall as a whole tool_calls delta with its own index. Gemini sends no [DONE]; the
// end of its stream closes ours (usage chunk when the client asked, then [DONE]). An error
// event in the middle is passed on as an OpenAI error object and ends the stream.
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter, Usage } from "../adaptor.ts";
import { finishReasonOf, outputOfCandidate } from "./gemini-candidates.ts";
import { rpcErrorOf } from "./gemini-to-chat-errors.ts";
import { completionId, type GeminiAnswer } from "./gemini-to-chat-response.ts";
import type { ChatCompletionChunk, ChatDelta } from "../openai-chat-wire.ts";
import { unverified, unverifiedList } from "../unverified.ts";
import type { GeminiCandidate, GeminiResponse } from "./gemini-wire.ts";
import { openAIUsage, streamUsage, usageOfMetadata } from "./gemini-usage.ts";

type CandidateState = { started: boolean; toolCalls: number };

const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

export function createGeminiStreamConverter(call: RelayCall, countCompletion: CompletionCounter): StreamConverter {
  let usage: Usage | null = null;
  /** A candidate finished: the running usageMetadata is final. */
  let answered = false;
  let done = false;
  let id = "";
  const created = Math.floor(Date.now() / 1000);
  const candidates = new Map<number, CandidateState>();
  const generated: GeneratedOutput = { text: "", toolCalls: 0 };

  const chunk = (choices: ChatCompletionChunk["choices"], extra: Pick<ChatCompletionChunk, "usage"> = {}) =>
    sse({
      id: id || (id = completionId(undefined)),
      object: "chat.completion.chunk",
      created,
      model: call.upstreamModel,
      choices,
      ...extra,
    });

  const closing = (): string[] => {
    if (done) return [];
    done = true;
    const events: string[] = [];
    if (call.clientWantsUsage) {
      const reported = currentUsage() ?? localUsage();
      events.push(chunk([], { usage: openAIUsage(reported) }));
    }
    events.push("data: [DONE]\n\n");
    return events;
  };

  const currentUsage = () => streamUsage(usage, answered, () => countCompletion(generated));

  const localUsage = (): Usage => {
    const completion = countCompletion(generated);
    return { prompt_tokens: call.countPromptTokens(), completion_tokens: completion, total_tokens: call.countPromptTokens() + completion };
  };

  const convert = (answer: GeminiAnswer): string[] => {
    if (!id && answer.responseId) id = completionId(answer.responseId);
    usage = usageOfMetadata(answer.usageMetadata) ?? usage;
    const events: string[] = [];
    unverifiedList<GeminiCandidate>(answer.candidates).forEach((candidate, position) => {
      const index = typeof candidate.index === "number" ? candidate.index : position;
      let state = candidates.get(index);
      if (!state) candidates.set(index, (state = { started: false, toolCalls: 0 }));
      const read = outputOfCandidate(candidate);
      const delta: ChatDelta = {};
      if (!state.started) delta.role = "assistant";
      if (read.text) delta.content = read.text;
      if (read.reasoning) delta.reasoning_content = read.reasoning;
      if (read.toolCalls.length) {
        delta.tool_calls = read.toolCalls.map((toolCall) => ({ index: state.toolCalls++, ...toolCall }));
      }
      if (read.signature) delta.extra_content = { google: { thought_signature: read.signature } };
      generated.text +=
        read.text + read.reasoning + read.toolCalls.map((toolCall) => toolCall.function.name + toolCall.function.arguments).join("");
      generated.toolCalls += read.toolCalls.length;
      const finish = finishReasonOf(candidate.finishReason, state.toolCalls > 0);
      if (finish) answered = true;
      if (state.started && Object.keys(delta).length === 0 && !finish) return;
      if (!state.started && !read.text && !read.reasoning && !read.toolCalls.length && !read.signature && !finish) delta.content = "";
      state.started = true;
      events.push(chunk([{ index, delta, finish_reason: finish }]));
    });
    return events;
  };

  return {
    push(event: SseEvent): string[] {
      if (done || event.data === "" || event.data === "[DONE]") return [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        return [];
      }
      const error = rpcErrorOf(parsed);
      if (error) {
        done = true;
        return [sse({ error: { message: error.message, type: error.type, param: null, code: error.code } })];
      }
      return convert(unverified<GeminiResponse>(parsed) ?? {});
    },
    finish: closing,
    finished: () => done,
    usage: currentUsage,
    output: () => generated,
  };
}
