// A streamed OpenAI-style answer on its way to the client. Events are forwarded as received
// (no re-encoding); only chunks that may carry usage are parsed. The usage-only chunk the relay
// asked for on the client's behalf is withheld from a client that did not ask for it, and a
// client that did ask gets a usage chunk even from an upstream that sent none (counted locally).
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter, Usage } from "../adaptor.ts";
import { addMessage, normalizeUsage } from "./openai-usage.ts";

/** Whether a chunk's `"usage"` field holds an object (OpenAI sends `"usage":null` in every chunk). */
function mayCarryUsage(data: string): boolean {
  let index = data.indexOf('"usage"');
  if (index < 0) return false;
  index += 7;
  while (index < data.length && data[index] !== "{" && data[index] !== "n") index++;
  return data[index] === "{";
}

function parse(data: string): Record<string, any> | undefined {
  try {
    const value = JSON.parse(data);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

export function createOpenAIStreamConverter(
  call: RelayCall,
  countCompletion: CompletionCounter,
): StreamConverter {
  let usage: Usage | null = null;
  let done = false;
  /** Chunk payloads that may hold generated text, kept for local counting. */
  const chunks: string[] = [];

  const output = (): GeneratedOutput => {
    const result: GeneratedOutput = { text: "", toolCalls: 0 };
    for (const data of chunks) {
      const chunk = parse(data);
      if (!Array.isArray(chunk?.choices)) continue;
      for (const choice of chunk.choices) {
        addMessage(result, choice?.delta);
        if (typeof choice?.text === "string") result.text += choice.text;
      }
    }
    return result;
  };

  const usageChunk = (): string => {
    const last = chunks.length ? parse(chunks[chunks.length - 1]!) : undefined;
    const completion = countCompletion(output());
    const promptTokens = call.countPromptTokens();
    const chunk = {
      id: last?.id ?? `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`,
      object: call.endpoint === "completions" ? "text_completion" : "chat.completion.chunk",
      created: last?.created ?? Math.floor(Date.now() / 1000),
      model: last?.model ?? call.upstreamModel,
      choices: [],
      usage: { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion },
    };
    return `data: ${JSON.stringify(chunk)}\n\n`;
  };

  const closing = (): string[] => {
    if (done) return [];
    done = true;
    const events: string[] = [];
    if (!usage && call.clientWantsUsage) events.push(usageChunk());
    events.push("data: [DONE]\n\n");
    return events;
  };

  return {
    push(event: SseEvent): string[] {
      if (done) return [];
      const data = event.data;
      if (data === "[DONE]") return closing();
      if (data === "") return [];
      if (mayCarryUsage(data)) {
        const chunk = parse(data);
        const reported = normalizeUsage(chunk?.usage);
        if (reported) usage = reported;
        const hasChoices = Array.isArray(chunk?.choices) && chunk.choices.length > 0;
        if (hasChoices) chunks.push(data);
        // The usage-only chunk exists because the relay asked for it; a client that did not ask
        // would not expect a chunk without choices.
        if (reported && !hasChoices && !call.clientWantsUsage) return [];
        return [event.raw];
      }
      chunks.push(data);
      return [event.raw];
    },
    finish: closing,
    finished: () => done,
    usage: () => usage,
    output,
  };
}
