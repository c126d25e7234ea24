// The default stream framing: server-sent events over UTF-8 text, as a FrameDecoder.
import type { FrameDecoder } from "../providers/adaptor.ts";
import { createSseParser } from "./sse.ts";

/**
 * True when the bytes end inside a multi-byte UTF-8 character: the text decoder keeps those
 * bytes for the next chunk, so this chunk's text does not stand for all of its bytes.
 */
function endsMidCharacter(bytes: Uint8Array): boolean {
  const length = bytes.length;
  if (length === 0 || bytes[length - 1]! < 0x80) return false;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte and compare lengths.
  for (let back = 1; back <= 4 && back <= length; back++) {
    const byte = bytes[length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back;
  }
  return false;
}

export function createSseDecoder(): FrameDecoder {
  const decoder = new TextDecoder();
  const parser = createSseParser();
  let text = "";
  let splitCharacter = false;
  return {
    push(bytes) {
      text = decoder.decode(bytes, { stream: true });
      splitCharacter = endsMidCharacter(bytes);
      return parser.push(text);
    },
    flush() {
      text = decoder.decode();
      splitCharacter = false;
      return [...parser.push(text), ...parser.flush()];
    },
    pending: () => splitCharacter || parser.pending(),
    lastText: () => text,
  };
}

export const isEventStream = (contentType: string) => contentType.startsWith("text/event-stream");
