// Streaming a chat completion from /pg/chat/completions (spec §7): server-sent events whose
// data lines carry OpenAI chunks, ending with [DONE]. The text of choices[0].delta.content is
// handed over as it arrives; an error (HTTP or in the stream) is returned as its message.
import { reportHttpFailure, userHeaders } from "../console/api-client.ts";

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };
export type ChatRequest = { messages: ChatMessage[]; model: string; group: string; temperature: number; max_tokens: number };
export type StreamOutcome = { ok: true } | { ok: false; error: string };

function errorText(body: unknown, fallback: string): string {
  if (body && typeof body === "object") {
    const record = body as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof record.error === "string") return record.error;
    if (record.error && typeof record.error.message === "string") return record.error.message;
    if (typeof record.message === "string") return record.message;
  }
  return fallback;
}

export async function streamChat(request: ChatRequest, onText: (text: string) => void, signal?: AbortSignal): Promise<StreamOutcome> {
  const body = {
    messages: request.messages,
    stream: true,
    model: request.model,
    group: request.group,
    temperature: request.temperature,
    ...(request.max_tokens > 0 ? { max_tokens: request.max_tokens } : {}),
  };
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
    return { ok: false, error: String(error) };
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => "");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status === 401) reportHttpFailure(401);
    return { ok: false, error: errorText(parsed, text || `HTTP ${response.status}`) };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    let value: string | undefined;
    let done: boolean;
    try {
      ({ value, done } = await reader.read());
    } catch (error) {
      // The connection broke (or the caller aborted) half-way: what arrived stays, the error follows.
      return { ok: false, error: String(error) };
    }
    if (done || value === undefined) return { ok: true };
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.trim();
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") return { ok: true };
      let chunk: { choices?: { delta?: { content?: string } }[]; error?: unknown };
      try {
        chunk = JSON.parse(data);
      } catch {
        continue;
      }
      if (chunk.error) return { ok: false, error: errorText(chunk, data) };
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) onText(text);
    }
  }
}
