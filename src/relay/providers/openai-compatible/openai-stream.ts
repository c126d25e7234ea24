// A streamed OpenAI-style answer on its way to the client. Events are forwarded as received
// (no re-encoding); only chunks that may carry usage are parsed. The usage-only chunk the relay
// asked for on the client's behalf is withheld from a client that did not ask for it, and a
// client that did ask gets a usage chunk even from an upstream that sent none (counted locally).
//
// Vendors put a stream's usage in different places: OpenAI, DeepSeek, Ark, Baidu v2 and Ollama
// in a final chunk without choices (asked for with stream_options), Mistral, Zhipu v4 and
// SiliconCloud beside the choices of their last chunk(s), Moonshot inside the finishing choice
// (`choices[0].usage`, Moonshot's streaming guide). All are read. A client gets one usage figure:
// when the vendor's sits inside a choice and the client asked for usage, the choice's copy is
// taken out of the chunk and the figure goes to the client in OpenAI's usage chunk instead.
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter, Usage } from "../adaptor.ts";
import { roughTokens } from "../../../services/billing/text-pieces.ts";
import { openAIUsageBody } from "../vendor-format-helpers/usage-body.ts";
import { addMessage, normalizeUsage } from "./openai-usage.ts";

/** Whether a chunk has a `"usage"` field holding an object (OpenAI sends `"usage":null` in every chunk). */
function mayCarryUsage(data: string): boolean {
  for (let at = data.indexOf('"usage"'); at >= 0; at = data.indexOf('"usage"', at + 7)) {
    let index = at + 7;
    while (index < data.length && data[index] !== "{" && data[index] !== "n") index++;
    if (data[index] === "{") return true;
  }
  return false;
}

function parse(data: string): Record<string, any> | undefined {
  try {
    const value = JSON.parse(data);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Usage a vendor put inside its choices (Moonshot: the finishing choice); summed over choices when n > 1. */
function usageInChoices(choices: unknown): Usage | null {
  if (!Array.isArray(choices)) return null;
  let total: Usage | undefined;
  for (const choice of choices) {
    const usage = normalizeUsage((choice as { usage?: unknown } | null)?.usage);
    if (!usage) continue;
    if (!total) total = usage;
    else {
      // Each choice reports the same prompt; the completions are its own.
      total.completion_tokens += usage.completion_tokens;
      total.total_tokens += usage.completion_tokens;
    }
  }
  return total ?? null;
}

/**
 * What a stream keeps for counting its output locally (needed only when the upstream reports no
 * usage, or the client leaves) is bounded, whatever the answer's length: chunk payloads up to
 * `keptChunkChars`, then only the text they carry; text past `keptTextChars` is estimated at once
 * (the rough count the token counter itself falls back to past its time budget, linear and
 * native) and only the estimate kept. (It was every payload of the answer, held for as long as
 * the stream: a 16 MB answer held 16 MB, as long as its client took to read it.)
 */
const keptChunkChars = 128 * 1024;
const keptTextChars = 256 * 1024;

function outputOf(chunks: string[]): GeneratedOutput {
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
}

export function createOpenAIStreamConverter(call: RelayCall, countCompletion: CompletionCounter): StreamConverter {
  let usage: Usage | null = null;
  /** The usage the client saw in OpenAI's place (a chunk's top-level `usage`). */
  let usageDelivered = false;
  let done = false;
  /** Chunk payloads that may hold generated text, kept for local counting (see `keptChunkChars`). */
  const chunks: string[] = [];
  let chunkChars = 0;
  /** The text of the payloads already reduced, the tool calls they announced, the tokens counted. */
  let text = "";
  let toolCalls = 0;
  let countedTokens = 0;
  /** The last payload with choices: the usage chunk made locally copies its id, created and model. */
  let lastChunk: string | undefined;

  const keep = (data: string) => {
    chunks.push(data);
    lastChunk = data;
    chunkChars += data.length;
    if (chunkChars <= keptChunkChars) return;
    const part = outputOf(chunks);
    chunks.length = 0;
    chunkChars = 0;
    text += part.text;
    toolCalls += part.toolCalls;
    if (text.length > keptTextChars) {
      countedTokens += roughTokens(text);
      text = "";
    }
  };

  const output = (): GeneratedOutput => {
    const rest = outputOf(chunks);
    const result: GeneratedOutput = { text: text + rest.text, toolCalls: toolCalls + rest.toolCalls };
    if (countedTokens > 0) result.countedTokens = countedTokens;
    return result;
  };

  const localUsage = (): Usage => {
    const completion = countCompletion(output());
    const promptTokens = call.countPromptTokens();
    return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
  };

  const usageChunk = (figures: Usage): string => {
    const last = lastChunk === undefined ? undefined : parse(lastChunk);
    const chunk = {
      id: last?.id ?? `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`,
      object: call.endpoint === "completions" ? "text_completion" : "chat.completion.chunk",
      created: last?.created ?? Math.floor(Date.now() / 1000),
      model: last?.model ?? call.upstreamModel,
      choices: [],
      usage: openAIUsageBody(figures),
    };
    return `data: ${JSON.stringify(chunk)}\n\n`;
  };

  const closing = (): string[] => {
    if (done) return [];
    done = true;
    const events: string[] = [];
    if (call.clientWantsUsage && !usageDelivered) events.push(usageChunk(usage ?? localUsage()));
    events.push("data: [DONE]\n\n");
    return events;
  };

  /** A chunk whose usage sits in its choices: read it, and keep the client to one usage figure. */
  const choiceUsage = (chunk: Record<string, any>, event: SseEvent): string[] => {
    const reported = usageInChoices(chunk.choices);
    if (!reported) return [event.raw];
    usage = reported;
    // A client that did not ask for usage sees the vendor's chunk as it is (its only figure).
    if (!call.clientWantsUsage) return [event.raw];
    const stripped = { ...chunk, choices: (chunk.choices as Record<string, unknown>[]).map(({ usage: _usage, ...choice }) => choice) };
    return [`data: ${JSON.stringify(stripped)}\n\n`];
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
        const hasChoices = Array.isArray(chunk?.choices) && chunk.choices.length > 0;
        if (hasChoices) keep(data);
        if (!reported) return chunk && hasChoices ? choiceUsage(chunk, event) : [event.raw];
        usage = reported;
        // The usage-only chunk exists because the relay asked for it; a client that did not ask
        // would not expect a chunk without choices.
        if (!hasChoices && !call.clientWantsUsage) return [];
        usageDelivered = true;
        return [event.raw];
      }
      keep(data);
      return [event.raw];
    },
    finish: closing,
    finished: () => done,
    usage: () => usage,
    output,
  };
}
