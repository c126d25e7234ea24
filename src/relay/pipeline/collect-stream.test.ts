import { describe, expect, test } from "bun:test";
import { createChunkCollector } from "./collect-stream.ts";

const event = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

describe("folding OpenAI chunks into a whole answer", () => {
  test("text, reasoning, streamed tool-call deltas, finish reason and usage", () => {
    const collector = createChunkCollector({ endpoint: "chat", model: "m" });
    collector.add(
      event({ id: "c1", created: 7, model: "up", choices: [{ index: 0, delta: { role: "assistant", reasoning_content: "think " } }] }),
    );
    collector.add(
      event({ choices: [{ index: 0, delta: { reasoning_content: "more" } }] }) +
        event({ choices: [{ index: 0, delta: { content: "Hel" } }] }),
    );
    collector.add(event({ choices: [{ index: 0, delta: { content: "lo" } }] }));
    collector.add(
      event({
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get", arguments: '{"q":' } }] },
          },
        ],
      }),
    );
    collector.add(
      event({
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }, finish_reason: "tool_calls" }],
      }),
    );
    collector.add("data: [DONE]\n\n");
    expect(collector.error()).toBeUndefined();
    expect(collector.body({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })).toEqual({
      id: "c1",
      object: "chat.completion",
      created: 7,
      model: "up",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Hello",
            reasoning_content: "think more",
            tool_calls: [{ id: "call_1", type: "function", function: { name: "get", arguments: '{"q":"x"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
    });
  });

  test("legacy completions fold into text_completion", () => {
    const collector = createChunkCollector({ endpoint: "completions", model: "m" });
    collector.add(
      event({ id: "x", choices: [{ index: 0, text: "a" }] }) + event({ choices: [{ index: 0, text: "b", finish_reason: "length" }] }),
    );
    const body = collector.body(null) as { object: string; choices: unknown[] };
    expect(body.object).toBe("text_completion");
    expect(body.choices).toEqual([{ index: 0, text: "ab", finish_reason: "length" }]);
  });

  test("an error event in the stream makes the answer a failure", () => {
    const collector = createChunkCollector({ endpoint: "chat", model: "m" });
    collector.add(event({ error: { message: "overloaded", type: "overloaded_error" } }));
    expect(collector.error()).toEqual({ message: "overloaded", type: "overloaded_error", code: null, param: null });
  });
});
