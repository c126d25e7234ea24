// InvokeModelWithResponseStream answers in the AWS event-stream binary framing
// (application/vnd.amazon.eventstream): length-prefixed messages with typed headers and CRCs.
// The AWS SDK's codec (@smithy/core/event-streams) checks and parses each message; this decoder
// only cuts the byte stream at the message lengths. A `chunk` event carries one Claude stream
// event, base64-encoded in {"bytes": ...}; it comes out as the server-sent event Anthropic would
// have sent, so Claude's stream converters (and Claude-format clients) read it unchanged. An
// exception message (modelStreamErrorException, throttlingException...) comes out as Claude's
// `error` event.
import { EventStreamCodec, type Message } from "@smithy/core/event-streams";
import { fromUtf8 } from "@smithy/core/serde";
import type { FrameDecoder, SseEvent } from "../adaptor.ts";

/** Bedrock's payloads are small; a length beyond this is a broken stream, not a message. */
const maxMessageBytes = 16 * 1024 * 1024;

const decoder = new TextDecoder();
/** Header names and values as text: a shared TextDecoder costs less than a Buffer per header. */
const toUtf8 = (bytes: Uint8Array) => decoder.decode(bytes);

function headerText(message: Message, name: string): string {
  const header = message.headers[name];
  return header && header.type === "string" ? header.value : "";
}

function sse(type: string, data: string): SseEvent {
  return { raw: `event: ${type}\ndata: ${data}\n\n`, event: type, data };
}

function errorEvent(type: string, message: string): SseEvent {
  return sse("error", JSON.stringify({ type: "error", error: { type, message } }));
}

/** The base64 text of a chunk's {"bytes": ...} payload (read without parsing in the usual layout). */
function chunkBytes(body: string): string | undefined {
  const prefix = '{"bytes":"';
  if (body.startsWith(prefix)) {
    const end = body.indexOf('"', prefix.length);
    if (end > 0) return body.slice(prefix.length, end);
  }
  const bytes = (JSON.parse(body) as { bytes?: unknown }).bytes;
  return typeof bytes === "string" ? bytes : undefined;
}

/** The Claude event a message carries, or an error event; undefined for messages of no interest. */
function eventOfMessage(message: Message): SseEvent | undefined {
  const body = decoder.decode(message.body);
  const messageType = headerText(message, ":message-type");
  if (messageType === "exception") {
    let text = body;
    try {
      text = String((JSON.parse(body) as { message?: unknown }).message ?? body);
    } catch {
      // The payload is the message itself.
    }
    return errorEvent(headerText(message, ":exception-type") || "exception", text);
  }
  if (messageType === "error") return errorEvent(headerText(message, ":error-code") || "error", headerText(message, ":error-message"));
  if (headerText(message, ":event-type") !== "chunk") return undefined;
  const encoded = chunkBytes(body);
  if (encoded === undefined) return undefined;
  const data = decoder.decode(Uint8Array.fromBase64(encoded));
  const type = /^\s*\{\s*"type"\s*:\s*"([^"]+)"/.exec(data)?.[1] ?? (JSON.parse(data) as { type?: string }).type ?? "";
  return sse(type, data);
}

export function createEventStreamDecoder(): FrameDecoder {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let buffer: Uint8Array = new Uint8Array(0);

  const take = (): SseEvent[] => {
    const events: SseEvent[] = [];
    while (buffer.length >= 4) {
      const length = new DataView(buffer.buffer, buffer.byteOffset, 4).getUint32(0);
      if (length < 16 || length > maxMessageBytes) throw new Error(`event stream message of ${length} bytes`);
      if (buffer.length < length) break;
      const event = eventOfMessage(codec.decode(buffer.subarray(0, length)));
      buffer = buffer.subarray(length);
      if (event) events.push(event);
    }
    return events;
  };

  return {
    push(bytes) {
      if (buffer.length === 0) buffer = bytes;
      else {
        const joined = new Uint8Array(buffer.length + bytes.length);
        joined.set(buffer);
        joined.set(bytes, buffer.length);
        buffer = joined;
      }
      return take();
    },
    // A message cut off by the end of the stream is not an event.
    flush: () => [],
    pending: () => buffer.length > 0,
  };
}

export const isEventStreamBody = (contentType: string) => contentType.startsWith("application/vnd.amazon.eventstream");
