// Calls made in Gemini's own format (/v1beta/models/{m}:generateContent and its stream) to a
// channel that speaks it: the client's body goes upstream as it came (the model is in the URL,
// where the channel's mapped model replaces it), and the answer comes back untouched, whole or
// event by event, while usage and the generated text are read on the way for billing.
import type {
  Bytes,
  CompletionCounter,
  ConvertedResponse,
  GeneratedOutput,
  RelayCall,
  SseEvent,
  StreamConverter,
  Usage,
} from "../adaptor.ts";
import { outputOfCandidate } from "./gemini-candidates.ts";
import { streamUsage, usageOfMetadata } from "./gemini-usage.ts";
import { unverified, unverifiedList, type Unverified } from "../unverified.ts";
import type { GeminiCandidate, GeminiEmbedResponse, GeminiResponse } from "./gemini-wire.ts";

const decoder = new TextDecoder();

/** What a native call answers: content (whole, or one stream event) or embeddings. */
type Answer = Unverified<GeminiResponse | GeminiEmbedResponse>;

function addOutput(output: GeneratedOutput, answer: Answer): void {
  for (const candidate of unverifiedList<GeminiCandidate>(answer.candidates)) {
    const read = outputOfCandidate(candidate);
    output.text += read.text + read.reasoning + read.toolCalls.map((call) => call.function.name + call.function.arguments).join("");
    output.toolCalls += read.toolCalls.length;
  }
}

export function convertNativeResponse(_call: RelayCall, bytes: Bytes, contentType: string): ConvertedResponse {
  let parsed: unknown = {};
  try {
    parsed = JSON.parse(decoder.decode(bytes));
  } catch {
    // Passed on as it came; nothing to bill from but the local count.
  }
  // streamGenerateContent without alt=sse answers a JSON list of the stream's responses.
  const answers = Array.isArray(parsed) ? unverifiedList<GeminiResponse>(parsed) : [unverified<GeminiResponse>(parsed) ?? {}];
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  let usage: Usage | null = null;
  for (const each of answers) {
    addOutput(output, each);
    usage = usageOfMetadata(each.usageMetadata) ?? usage;
  }
  return { body: bytes, contentType: contentType || "application/json", usage, output: () => output };
}

export function createNativeStreamConverter(countCompletion: CompletionCounter): StreamConverter {
  let usage: Usage | null = null;
  let answered = false;
  let done = false;
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  return {
    push(event: SseEvent): string[] {
      if (done) return [];
      if (event.data !== "") {
        try {
          const answer: Answer = unverified<GeminiResponse>(JSON.parse(event.data)) ?? {};
          addOutput(output, answer);
          if (unverifiedList<GeminiCandidate>(answer.candidates).some((candidate) => candidate.finishReason)) answered = true;
          usage = usageOfMetadata(answer.usageMetadata) ?? usage;
        } catch {
          // forwarded all the same
        }
      }
      return [event.raw];
    },
    finish() {
      done = true;
      return [];
    },
    finished: () => done,
    usage: () => streamUsage(usage, answered, () => countCompletion(output)),
    output: () => output,
  };
}
