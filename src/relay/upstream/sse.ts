// Server-sent events, read incrementally: text in, complete events out, each with its raw text
// (forwarded as is when nothing changes) and its joined data lines.
import type { SseEvent } from "../providers/adaptor.ts";

function parseEvent(raw: string): SseEvent {
  // The common case, one "data: ..." line, without splitting.
  if (raw.startsWith("data: ")) {
    const firstBreak = raw.indexOf("\n");
    if (firstBreak >= raw.length - 3) {
      const end = raw.charCodeAt(firstBreak - 1) === 13 ? firstBreak - 1 : firstBreak;
      return { raw, event: "", data: raw.slice(6, end) };
    }
  }
  let event = "";
  const data: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  }
  return { raw, event, data: data.join("\n") };
}

export type SseParser = {
  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SseEvent[];
  /** The stream ended: a last event without its blank line, if any. */
  flush(): SseEvent[];
  /** True while part of an event is waiting for the rest of it. */
  pending(): boolean;
};

export function createSseParser(): SseParser {
  // The start of an event still arriving, kept in pieces and joined once its end comes: an event
  // sent in many small reads costs its length, not its length squared (searching one growing
  // buffer on every read did). `tail` is where an event end split across reads may begin.
  let pieces: string[] = [];
  let tail = "";
  let sawCr = false;
  return {
    push(text) {
      // Most upstreams end lines with \n alone: look for \r\n\r\n only once a \r came.
      sawCr ||= text.includes("\r");
      if (pieces.length > 0) {
        const probe = tail + text;
        if (!probe.includes("\n\n") && !(sawCr && probe.includes("\r\n\r\n"))) {
          pieces.push(text);
          tail = probe.slice(-3);
          return [];
        }
      }
      const buffer = pieces.length > 0 ? pieces.join("") + text : text;
      const events: SseEvent[] = [];
      let start = 0;
      for (;;) {
        const lf = buffer.indexOf("\n\n", start);
        const crlf = sawCr ? buffer.indexOf("\r\n\r\n", start) : -1;
        let end: number;
        let length: number;
        if (crlf >= 0 && (lf < 0 || crlf < lf)) {
          end = crlf;
          length = 4;
        } else if (lf >= 0) {
          end = lf;
          length = 2;
        } else break;
        const raw = buffer.slice(start, end + length);
        start = end + length;
        if (raw.trim() !== "") events.push(parseEvent(raw));
      }
      const rest = start === 0 ? buffer : buffer.slice(start);
      pieces = rest === "" ? [] : [rest];
      tail = rest.slice(-3);
      return events;
    },
    flush() {
      const rest = pieces.join("");
      pieces = [];
      tail = "";
      return rest.trim() === "" ? [] : [parseEvent(`${rest.trimEnd()}\n\n`)];
    },
    pending: () => pieces.length > 0,
  };
}
