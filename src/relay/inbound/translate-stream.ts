// A stream converter for a client of another format: the channel's own converter turns the
// upstream stream into OpenAI chunks as for any client, and this one turns those chunks into the
// client's format. Usage and output stay the channel converter's (what the settlement bills);
// the closing events report the same numbers.
import type { StreamBreak, StreamConverter, Usage } from "../providers/adaptor.ts";
import { normalizeUsage } from "../providers/openai-compatible/openai-usage.ts";
import { createSseParser } from "../upstream/sse.ts";
import type { ChatChunk } from "./chat-answer.ts";
import type { ChunkTranslator } from "./inbound-codec.ts";

function parseChunk(data: string): ChatChunk | undefined {
  try {
    const value = JSON.parse(data);
    return value && typeof value === "object" ? (value as ChatChunk) : undefined;
  } catch {
    return undefined;
  }
}

function errorOfChunk(chunk: ChatChunk): StreamBreak | undefined {
  const error = chunk.error;
  if (!error) return undefined;
  if (typeof error === "string") return { status: 502, message: error, type: "upstream_error", code: null, param: null };
  const code = typeof error.code === "string" || typeof error.code === "number" ? error.code : null;
  return {
    status: 502,
    message: String(error.message ?? "upstream error"),
    type: String(error.type ?? "upstream_error"),
    code,
    param: null,
  };
}

/**
 * @param localUsage the usage the settlement would count when neither the upstream nor the
 *   channel converter reported any.
 */
export function translateStream(inner: StreamConverter, translator: ChunkTranslator, localUsage: () => Usage): StreamConverter {
  const parser = createSseParser();
  let chunkUsage: Usage | null = null;
  let over = false;

  const translate = (texts: string[]): string[] => {
    const out: string[] = [];
    for (const text of texts) {
      for (const event of parser.push(text)) {
        if (over || event.data === "") continue;
        if (event.data === "[DONE]") {
          over = true;
          out.push(...translator.end(inner.usage() ?? chunkUsage ?? localUsage()));
          continue;
        }
        const chunk = parseChunk(event.data);
        if (!chunk) continue;
        const failure = errorOfChunk(chunk);
        if (failure) {
          over = true;
          out.push(...translator.fail(failure));
          continue;
        }
        const usage = normalizeUsage(chunk.usage);
        if (usage) chunkUsage = usage;
        out.push(...translator.chunk(chunk));
      }
    }
    return out;
  };

  return {
    push: (event) => translate(inner.push(event)),
    finish: () => translate(inner.finish()),
    finished: () => inner.finished(),
    usage: () => inner.usage(),
    output: () => inner.output(),
    abort(error) {
      if (over) return [];
      over = true;
      return translator.fail(error);
    },
  };
}
