import { describe, expect, test } from "bun:test";
import { createSseDecoder } from "./sse-decoder.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("server-sent events as a frame decoder", () => {
  test("events across chunks, with the last push's text kept for byte passthrough", () => {
    const frames = createSseDecoder();
    expect(frames.push(bytes('data: {"a":'))).toEqual([]);
    expect(frames.pending()).toBe(true);
    const events = frames.push(bytes("1}\n\ndata: [DONE]\n\n"));
    expect(events.map((event) => event.data)).toEqual(['{"a":1}', "[DONE]"]);
    expect(frames.lastText!()).toBe("1}\n\ndata: [DONE]\n\n");
    expect(frames.pending()).toBe(false);
  });

  test("a chunk that ends inside a multi-byte character is pending, so its bytes are not forwarded alone", () => {
    const frames = createSseDecoder();
    const whole = bytes("data: 你好\n\ndata: 世");
    const cut = whole.length - 1; // inside 世 (three bytes)
    const events = frames.push(whole.slice(0, cut));
    expect(events.map((event) => event.data)).toEqual(["你好"]);
    expect(frames.pending()).toBe(true);
    expect(frames.push(whole.slice(cut))).toEqual([]);
    expect(frames.flush().map((event) => event.data)).toEqual(["世"]);
  });

  test("flush returns a last event without its blank line", () => {
    const frames = createSseDecoder();
    frames.push(bytes("event: ping\ndata: x"));
    expect(frames.flush()).toEqual([{ raw: "event: ping\ndata: x\n\n", event: "ping", data: "x" }]);
  });
});
