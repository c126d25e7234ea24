// A whole upstream answer for a client that asked for a stream. Some types never stream (a
// knowledge-base ask, a legacy API); rather than each synthesising chunks, the relay turns the
// whole chat.completion into OpenAI chunks (role and text, tool calls, finish reason, usage) and
// hands them to the usual stream path, so settlement before [DONE], the client's usage chunk
// and inbound-format conversions work exactly as for a streamed answer.
import { createOpenAIStreamConverter } from "../providers/openai-compatible/openai-stream.ts";
import type { CompletionCounter, ConvertedResponse, RelayCall } from "../providers/adaptor.ts";
import type { Deadline } from "../upstream/deadline.ts";
import { createSseDecoder } from "../upstream/sse-decoder.ts";
import type { OpenStream } from "./attempt-types.ts";

type Completion = {
  id?: string;
  created?: number;
  model?: string;
  choices?: { index?: number; text?: string; finish_reason?: string | null; message?: Record<string, unknown> }[];
  usage?: unknown;
};

function parseCompletion(converted: ConvertedResponse): Completion | undefined {
  const text = typeof converted.body === "string" ? converted.body : new TextDecoder().decode(converted.body);
  try {
    const parsed = JSON.parse(text) as Completion;
    return Array.isArray(parsed?.choices) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The chunks of one whole answer, as server-sent events ending with [DONE]. */
export function chunksOf(call: Pick<RelayCall, "endpoint" | "upstreamModel">, completion: Completion, usage: unknown): string {
  const legacy = call.endpoint === "completions";
  const base = {
    id: completion.id ?? `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`,
    object: legacy ? "text_completion" : "chat.completion.chunk",
    created: completion.created ?? Math.floor(Date.now() / 1000),
    model: completion.model ?? call.upstreamModel,
  };
  const event = (chunk: Record<string, unknown>) => `data: ${JSON.stringify({ ...base, ...chunk })}\n\n`;
  let text = "";
  for (const [position, choice] of (completion.choices ?? []).entries()) {
    const index = choice.index ?? position;
    if (legacy) {
      text += event({ choices: [{ index, text: choice.text ?? "", finish_reason: null }] });
    } else {
      const message = choice.message ?? {};
      const delta: Record<string, unknown> = { role: "assistant", content: message.content ?? "" };
      if (typeof message.reasoning_content === "string") delta.reasoning_content = message.reasoning_content;
      if (Array.isArray(message.tool_calls)) delta.tool_calls = message.tool_calls.map((call, at) => ({ index: at, ...(call as object) }));
      text += event({ choices: [{ index, delta, finish_reason: null }] });
    }
    text += event({ choices: [{ index, ...(legacy ? { text: "" } : { delta: {} }), finish_reason: choice.finish_reason ?? "stop" }] });
  }
  if (usage) text += event({ choices: [], usage });
  return `${text}data: [DONE]\n\n`;
}

/** An open stream over the chunks of a whole answer, or undefined when it is not a completion. */
export function wholeAnswerAsStream(
  call: RelayCall,
  converted: ConvertedResponse,
  countCompletion: CompletionCounter,
  deadline: Deadline,
): OpenStream | undefined {
  const completion = parseCompletion(converted);
  if (!completion) return undefined;
  const bytes = new TextEncoder().encode(chunksOf(call, completion, converted.usage ?? completion.usage));
  const reader = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  }).getReader();
  return { reader, deadline, frames: createSseDecoder(), converter: createOpenAIStreamConverter(call, countCompletion), firstEvents: [] };
}
