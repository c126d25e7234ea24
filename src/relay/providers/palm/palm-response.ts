// PaLM 2 answers ({candidates: [{author, content}], filters}) for OpenAI clients. PaLM reports no
// token usage: the relay counts locally. A prompt answered by no candidate but by filters was
// refused for its content: the client's 400. PaLM does not stream, so a client that asked for a
// stream gets chunks synthesised from the whole answer: per candidate one chunk with the role and
// its whole text, then a chunk with the finish reason, the usage chunk (counted locally) when the
// client asked, and [DONE]. The whole answer reaches the converter as one event (palm-whole-body.ts).
import type {
  Bytes,
  CompletionCounter,
  ConvertedResponse,
  GeneratedOutput,
  RelayCall,
  SseEvent,
  StreamConverter,
  UpstreamErrorDetails,
  Usage,
} from "../adaptor.ts";
import { rpcErrorOf } from "../gemini/gemini-to-chat-errors.ts";
import { completionId } from "../gemini/gemini-to-chat-response.ts";

type PalmAnswer = { candidates?: { author?: string; content?: string }[]; filters?: { reason?: string; message?: string }[] };

const decoder = new TextDecoder();
const noOutput = (): GeneratedOutput => ({ text: "", toolCalls: 0 });

function parse(text: string): PalmAnswer | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

function palmErrorOf(answer: PalmAnswer | undefined): UpstreamErrorDetails | undefined {
  if (!answer)
    return {
      message: "the upstream answered with a body that is not JSON",
      type: "upstream_error",
      code: "bad_response_body",
      param: null,
    };
  const rpc = rpcErrorOf(answer);
  if (rpc) return rpc;
  if (Array.isArray(answer.candidates) && answer.candidates.length > 0) return undefined;
  const filter = answer.filters?.[0];
  const reason = filter?.reason ?? "OTHER";
  return {
    message: `The prompt was blocked by PaLM (filter ${reason})${filter?.message ? `: ${filter.message}` : ""}`,
    type: "invalid_request_error",
    code: "prompt_blocked",
    param: null,
    status: 400,
  };
}

/** The whole answer arrives as the stream's one event: an error or a refused prompt fails the attempt. */
export function palmStreamError(event: SseEvent): UpstreamErrorDetails | undefined {
  return palmErrorOf(parse(event.data));
}

const textsOf = (answer: PalmAnswer) =>
  (answer.candidates ?? []).map((candidate) => (typeof candidate.content === "string" ? candidate.content : ""));

export function convertPalmResponse(call: RelayCall, bytes: Bytes): ConvertedResponse {
  const answer = parse(decoder.decode(bytes));
  const error = palmErrorOf(answer);
  if (error) return { body: bytes, contentType: "application/json", usage: null, output: noOutput, error };
  const texts = textsOf(answer!);
  const body = {
    id: completionId(undefined),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: call.upstreamModel,
    choices: texts.map((content, index) => ({ index, message: { role: "assistant", content }, finish_reason: "stop" })),
  };
  return {
    body: JSON.stringify(body),
    contentType: "application/json",
    usage: null,
    output: () => ({ text: texts.join(""), toolCalls: 0 }),
  };
}

export function createPalmStreamConverter(call: RelayCall, countCompletion: CompletionCounter): StreamConverter {
  let done = false;
  let output = noOutput();
  const base = {
    id: completionId(undefined),
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: call.upstreamModel,
  };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`;

  const closing = (): string[] => {
    if (done) return [];
    done = true;
    const events: string[] = [];
    if (call.clientWantsUsage) {
      const completion = countCompletion(output);
      const usage: Usage = {
        prompt_tokens: call.countPromptTokens(),
        completion_tokens: completion,
        total_tokens: call.countPromptTokens() + completion,
      };
      events.push(chunk([], { usage }));
    }
    events.push("data: [DONE]\n\n");
    return events;
  };

  return {
    push(event: SseEvent): string[] {
      if (done || event.data === "") return [];
      const answer = parse(event.data);
      const error = palmErrorOf(answer);
      if (error) {
        done = true;
        return [`data: ${JSON.stringify({ error: { message: error.message, type: error.type, param: null, code: error.code } })}\n\n`];
      }
      const texts = textsOf(answer!);
      output = { text: texts.join(""), toolCalls: 0 };
      return [
        ...texts.map((content, index) => chunk([{ index, delta: { role: "assistant", content }, finish_reason: null }])),
        chunk(texts.map((_, index) => ({ index, delta: {}, finish_reason: "stop" }))),
        ...closing(),
      ];
    },
    finish: closing,
    finished: () => done,
    usage: () => null,
    output: () => output,
  };
}
