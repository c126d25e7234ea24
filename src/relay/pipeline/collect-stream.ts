// A streamed upstream answer for a client that asked for a whole one. Some types only stream (a
// WebSocket, an agent app); their stream converter turns the answer into OpenAI chunks as usual,
// and the chunks are folded here into one chat.completion (or text_completion), so every type
// answers both ways without a second converter.
import type {
  ConvertedResponse,
  FrameDecoder,
  RelayCall,
  SseEvent,
  StreamConverter,
  UpstreamErrorDetails,
  Usage,
} from "../providers/adaptor.ts";
import type { Deadline } from "../upstream/deadline.ts";
import { createSseParser } from "../upstream/sse.ts";

type ToolCall = { id: string; type: string; function: { name: string; arguments: string } };
type Choice = { content: string; reasoning: string; toolCalls: ToolCall[]; finish: string | null; role: string };

type ChunkChoice = {
  index?: number;
  text?: string;
  finish_reason?: string | null;
  delta?: {
    role?: string;
    content?: string | null;
    reasoning_content?: string | null;
    tool_calls?: { index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
  };
};
type Chunk = {
  id?: string;
  created?: number;
  model?: string;
  choices?: ChunkChoice[];
  usage?: Usage;
  error?: Partial<UpstreamErrorDetails>;
};

export type ChunkCollector = {
  add(sseText: string): void;
  error(): UpstreamErrorDetails | undefined;
  body(usage: Usage | null): Record<string, unknown>;
};

export function createChunkCollector(call: Pick<RelayCall, "endpoint" | "model">): ChunkCollector {
  const parser = createSseParser();
  const choices = new Map<number, Choice>();
  let id = "";
  let created = 0;
  let model = call.model;
  let failure: UpstreamErrorDetails | undefined;
  let reportedUsage: Usage | undefined;

  const choiceAt = (index: number): Choice => {
    let choice = choices.get(index);
    if (!choice) choices.set(index, (choice = { content: "", reasoning: "", toolCalls: [], finish: null, role: "assistant" }));
    return choice;
  };

  const take = (chunk: Chunk) => {
    if (chunk.error) {
      failure ??= {
        message: String(chunk.error.message ?? "upstream error"),
        type: String(chunk.error.type ?? "upstream_error"),
        code: chunk.error.code ?? null,
        param: chunk.error.param ?? null,
      };
      return;
    }
    id ||= chunk.id ?? "";
    created ||= chunk.created ?? 0;
    if (chunk.model) model = chunk.model;
    if (chunk.usage) reportedUsage = chunk.usage;
    for (const part of chunk.choices ?? []) {
      const choice = choiceAt(part.index ?? 0);
      if (typeof part.text === "string") choice.content += part.text;
      const delta = part.delta;
      if (delta) {
        if (delta.role) choice.role = delta.role;
        if (typeof delta.content === "string") choice.content += delta.content;
        if (typeof delta.reasoning_content === "string") choice.reasoning += delta.reasoning_content;
        for (const call of delta.tool_calls ?? []) {
          const at = call.index ?? choice.toolCalls.length;
          const tool = (choice.toolCalls[at] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
          if (call.id) tool.id = call.id;
          if (call.type) tool.type = call.type;
          if (call.function?.name) tool.function.name += call.function.name;
          if (call.function?.arguments) tool.function.arguments += call.function.arguments;
        }
      }
      if (part.finish_reason) choice.finish = part.finish_reason;
    }
  };

  return {
    add(sseText) {
      for (const event of parser.push(sseText)) {
        if (event.data === "" || event.data === "[DONE]") continue;
        try {
          take(JSON.parse(event.data) as Chunk);
        } catch {
          // A converter only emits JSON; anything else is not part of the answer.
        }
      }
    },
    error: () => failure,
    body(usage) {
      const ordered = [...choices.entries()].sort(([a], [b]) => a - b);
      const completion = call.endpoint === "completions";
      return {
        id: id || `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`,
        object: completion ? "text_completion" : "chat.completion",
        created: created || Math.floor(Date.now() / 1000),
        model,
        choices: ordered.map(([index, choice]) =>
          completion
            ? { index, text: choice.content, finish_reason: choice.finish ?? "stop" }
            : {
                index,
                message: {
                  role: choice.role,
                  content: choice.content === "" && choice.toolCalls.length ? null : choice.content,
                  ...(choice.reasoning ? { reasoning_content: choice.reasoning } : {}),
                  ...(choice.toolCalls.length ? { tool_calls: choice.toolCalls.filter(Boolean) } : {}),
                },
                finish_reason: choice.finish ?? "stop",
              },
        ),
        ...((usage ?? reportedUsage) ? { usage: usage ?? reportedUsage } : {}),
      };
    },
  };
}

/** Reads the rest of a stream through the type's converter and folds it into a whole answer. */
export async function collectStream(
  call: RelayCall,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  frames: FrameDecoder,
  converter: StreamConverter,
  firstEvents: SseEvent[],
  deadline: Deadline,
): Promise<ConvertedResponse> {
  const collector = createChunkCollector(call);
  const feed = (events: SseEvent[]) => {
    for (const event of events) for (const text of converter.push(event)) collector.add(text);
  };
  feed(firstEvents);
  while (!converter.finished()) {
    const { value, done } = await reader.read();
    if (done) {
      feed(frames.flush());
      break;
    }
    deadline.refresh();
    feed(frames.push(value));
  }
  deadline.clear();
  void reader.cancel().catch(() => undefined);
  for (const text of converter.finish()) collector.add(text);
  const usage = converter.usage();
  const body = JSON.stringify(collector.body(usage));
  const failure = collector.error();
  return {
    body,
    contentType: "application/json",
    usage,
    output: converter.output,
    ...(failure ? { error: failure } : {}),
  };
}
