import { describe, expect, test } from "bun:test";
import { createSseParser } from "./sse.ts";

describe("SSE parser", () => {
  test("events split across reads come out whole, with raw text and data", () => {
    const parser = createSseParser();
    expect(parser.push('data: {"a":')).toEqual([]);
    const events = parser.push("1}\n\ndata: [DONE]\n\n");
    expect(events).toEqual([
      { raw: 'data: {"a":1}\n\n', event: "", data: '{"a":1}' },
      { raw: "data: [DONE]\n\n", event: "", data: "[DONE]" },
    ]);
  });

  test("CRLF separators, event names, multi-line data and comments", () => {
    const parser = createSseParser();
    const events = parser.push(": keep-alive\r\n\r\nevent: message\r\ndata: one\r\ndata: two\r\n\r\ndata:x\n\n");
    expect(events.map((event) => [event.event, event.data])).toEqual([
      ["", ""],
      ["message", "one\ntwo"],
      ["", "x"],
    ]);
  });

  test("a last event without its blank line is flushed at the end", () => {
    const parser = createSseParser();
    expect(parser.push("data: tail")).toEqual([]);
    expect(parser.flush()).toEqual([{ raw: "data: tail\n\n", event: "", data: "tail" }]);
    expect(parser.flush()).toEqual([]);
  });
});

describe("SSE parser cost", () => {
  test("an event arriving in thousands of small reads is searched once (the test would time out otherwise)", () => {
    const parser = createSseParser();
    const piece = "x".repeat(1000);
    for (let i = 0; i < 20_000; i++) expect(parser.push(i === 0 ? `data: ${piece}` : piece).length).toBe(0);
    const [event] = parser.push("\n\n");
    expect(event!.data.length).toBe(20_000 * 1000);
  });
});
