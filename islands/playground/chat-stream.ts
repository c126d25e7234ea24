// Sending one chat completion to /pg/chat/completions and reading the answer: a stream
// of server-sent events whose data lines carry OpenAI chunks and end with [DONE], or one JSON
// answer when streaming is off. Content and reasoning pieces are handed over as they arrive, the
// usage (the stream's usage chunk, asked for with stream_options) at the end, with the times.
// An error (HTTP, or an error object in the stream) comes back as its message; a stop (the
// caller aborts) as `stopped`, after which the relay ends the upstream call.
import { reportHttpFailure, userHeaders } from "../../console-runtime/api-client.ts";

export type Usage = { prompt_tokens?: number; completion_tokens?: number };

export type AnswerListener = {
  content(text: string): void;
  reasoning(text: string): void;
};

export type Timing = { firstTokenMs?: number; durationMs: number; generationMs?: number };

export type ChatOutcome =
  | { ok: true; usage?: Usage; timing: Timing }
  | { ok: false; stopped: boolean; error: string; usage?: Usage; timing: Timing };

type Delta = { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
type Chunk = { choices?: { delta?: Delta; message?: Delta }[]; usage?: Usage | null; error?: unknown };

export function errorText(body: unknown, fallback: string): string {
  if (body && typeof body === "object") {
    const record = body as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof record.error === "string") return record.error;
    if (record.error && typeof record.error.message === "string") return record.error.message;
    if (typeof record.message === "string") return record.message;
  }
  return fallback;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

class Clock {
  private readonly started = performance.now();
  private first?: number;
  mark(): void {
    this.first ??= performance.now();
  }
  timing(): Timing {
    const now = performance.now();
    return {
      firstTokenMs: this.first === undefined ? undefined : Math.round(this.first - this.started),
      durationMs: Math.round(now - this.started),
      generationMs: this.first === undefined ? undefined : now - this.first,
    };
  }
}

/** Hands a chunk's pieces to the listener; true when something arrived. */
function deliver(delta: Delta | undefined, listener: AnswerListener): boolean {
  if (!delta) return false;
  const reasoning = delta.reasoning_content ?? delta.reasoning;
  if (reasoning) listener.reasoning(reasoning);
  if (delta.content) listener.content(delta.content);
  return Boolean(reasoning || delta.content);
}

export async function sendChat(body: Record<string, unknown>, listener: AnswerListener, signal: AbortSignal): Promise<ChatOutcome> {
  const clock = new Clock();
  const failed = (error: string, usage?: Usage): ChatOutcome => ({
    ok: false,
    stopped: signal.aborted,
    error,
    usage,
    timing: clock.timing(),
  });
  let response: Response;
  try {
    response = await fetch("/pg/chat/completions", {
      method: "POST",
      headers: { ...userHeaders(), "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
      signal,
    });
  } catch (error) {
    return failed(String(error));
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => "");
    if (response.status === 401) reportHttpFailure(401);
    return failed(errorText(parse(text), text || `HTTP ${response.status}`));
  }
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    let answer: Chunk;
    try {
      answer = (await response.json()) as Chunk;
    } catch (error) {
      return failed(String(error));
    }
    if (answer.error) return failed(errorText(answer, "error"));
    clock.mark();
    deliver(answer.choices?.[0]?.message, listener);
    return { ok: true, usage: answer.usage ?? undefined, timing: clock.timing() };
  }
  return readStream(response.body, listener, clock, failed);
}

async function readStream(
  stream: ReadableStream<BufferSource>,
  listener: AnswerListener,
  clock: Clock,
  failed: (error: string, usage?: Usage) => ChatOutcome,
): Promise<ChatOutcome> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let usage: Usage | undefined;
  for (;;) {
    let value: string | undefined;
    let done: boolean;
    try {
      ({ value, done } = await reader.read());
    } catch (error) {
      // The connection broke, or the user stopped: what arrived stays, the reason follows.
      return failed(String(error), usage);
    }
    if (done || value === undefined) return { ok: true, usage, timing: clock.timing() };
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.trim();
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") {
        void reader.cancel().catch(() => undefined);
        return { ok: true, usage, timing: clock.timing() };
      }
      const chunk = parse(data) as Chunk | undefined;
      if (!chunk) continue;
      if (chunk.error) return failed(errorText(chunk, data), usage);
      if (chunk.usage) usage = chunk.usage;
      if (deliver(chunk.choices?.[0]?.delta, listener)) clock.mark();
    }
  }
}
