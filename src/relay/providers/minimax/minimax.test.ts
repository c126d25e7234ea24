import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { minimaxErrorOf } from "./minimax-errors.ts";
import { readMinimaxEvent } from "./minimax-stream.ts";
import { minimaxCall } from "./minimax.ts";

const event = (value: Record<string, unknown>) => ({ raw: "", event: "", data: JSON.stringify(value) });

describe("MiniMax", () => {
  test("temperature and top_p moved inside (0, 1]", () => {
    expect(minimaxCall(testCall({ model: "abab6.5s-chat", messages: [], temperature: 0, top_p: 1.5 })).json).toEqual({
      model: "abab6.5s-chat",
      messages: [],
      temperature: 0.01,
      top_p: 1,
    });
    const untouched = testCall({ model: "m", messages: [] });
    expect(minimaxCall(untouched)).toBe(untouched);
  });

  test("the stream's closing chat.completion gives finish and usage without repeating the text", () => {
    const stream = createChunkStream(
      testCall({ model: "m", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
      readMinimaxEvent,
    );
    stream.push(event({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "你好" } }] }));
    const closing = stream.push(
      event({
        object: "chat.completion",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "你好" } }],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        base_resp: { status_code: 0, status_msg: "" },
      }),
    );
    expect(JSON.parse(closing[0]!.slice(6)).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
    expect(stream.finish()).toEqual(["data: [DONE]\n\n"]);
    expect(stream.output().text).toBe("你好");
    expect(stream.usage()).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
  });

  test("base_resp codes carry verdicts", () => {
    expect(minimaxErrorOf({ base_resp: { status_code: 1004, status_msg: "login fail" } })).toMatchObject({
      status: 401,
      type: "authentication_error",
    });
    expect(minimaxErrorOf({ base_resp: { status_code: 1002, status_msg: "rate limit" } })).toMatchObject({
      status: 429,
      type: "rate_limit_error",
    });
    expect(minimaxErrorOf({ base_resp: { status_code: 1008, status_msg: "insufficient balance" } })).toMatchObject({
      status: 429,
      type: "insufficient_quota",
    });
    expect(minimaxErrorOf({ base_resp: { status_code: 0, status_msg: "" } })).toBeUndefined();
  });
});
