import { describe, expect, test } from "bun:test";
import { responsesToChat } from "./responses-request.ts";

describe("Responses request to chat", () => {
  test("a string input with instructions and settings", () => {
    const { chat, refusal } = responsesToChat(
      {
        model: "m",
        instructions: "Be brief.",
        input: "Hello",
        max_output_tokens: 64,
        temperature: 0.5,
        reasoning: { effort: "high", summary: "auto" },
        store: false,
      },
      "m",
      false,
    );
    expect(refusal).toBeUndefined();
    expect(chat).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello" },
      ],
      max_tokens: 64,
      temperature: 0.5,
      reasoning_effort: "high",
    });
  });

  test("items: messages and parts, function calls joined into one assistant turn, their outputs as tool messages", () => {
    const { chat } = responsesToChat(
      {
        model: "m",
        input: [
          { role: "developer", content: "Rules." },
          {
            type: "message",
            role: "user",
            content: [
              { type: "input_text", text: "Look:" },
              { type: "input_image", image_url: "https://x/y.png", detail: "low" },
            ],
          },
          { type: "reasoning", id: "rs_1", summary: [] },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "Calling.", annotations: [] }] },
          { type: "function_call", call_id: "c1", name: "a", arguments: "{}" },
          { type: "function_call", call_id: "c2", name: "b", arguments: '{"x":1}' },
          { type: "function_call_output", call_id: "c1", output: "A" },
          { type: "function_call_output", call_id: "c2", output: [{ type: "input_text", text: "B" }] },
        ],
        tools: [{ type: "function", name: "a", description: "A", parameters: { type: "object", properties: {} }, strict: true }],
        tool_choice: { type: "function", name: "a" },
        parallel_tool_calls: false,
        text: { format: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true } },
      },
      "m",
      true,
    );
    expect(chat.messages).toEqual([
      { role: "system", content: "Rules." },
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image_url", image_url: { url: "https://x/y.png", detail: "low" } },
        ],
      },
      {
        role: "assistant",
        content: "Calling.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "a", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "b", arguments: '{"x":1}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "tool", tool_call_id: "c2", content: "B" },
    ]);
    expect(chat.tools).toEqual([
      { type: "function", function: { name: "a", parameters: { type: "object", properties: {} }, description: "A", strict: true } },
    ]);
    expect(chat.tool_choice).toEqual({ type: "function", function: { name: "a" } });
    expect(chat.parallel_tool_calls).toBe(false);
    expect(chat.response_format).toEqual({ type: "json_schema", json_schema: { name: "out", schema: { type: "object" }, strict: true } });
    expect(chat.stream_options).toEqual({ include_usage: true });
  });

  test("state nobody keeps and files only OpenAI holds are refused clearly; hosted tools are carried or left out", () => {
    const previous = responsesToChat({ model: "m", input: "next", previous_response_id: "resp_1" }, "m", false);
    expect(previous.refusal?.messageKey).toBe("未找到 {{field}} 所指的响应或条目：{{id}}");
    expect(previous.refusal?.params).toEqual({ field: "previous_response_id", id: "resp_1" });
    expect(previous.chat.messages).toEqual([{ role: "user", content: "next" }]);
    const search = responsesToChat(
      {
        model: "m",
        input: "x",
        tools: [{ type: "web_search", filters: { allowed_domains: ["a.example"] } }, { type: "image_generation" }],
      },
      "m",
      false,
    );
    expect(search.refusal).toBeUndefined();
    expect(search.hostedTools).toEqual([{ type: "web_search", allowedDomains: ["a.example"] }]);
    expect(search.leftOut).toEqual(["image_generation"]);
    const reference = responsesToChat({ model: "m", input: [{ type: "item_reference", id: "msg_1" }] }, "m", false);
    expect(reference.refusal?.params).toEqual({ field: "item_reference", id: "msg_1" });
    const file = responsesToChat(
      { model: "m", input: [{ role: "user", content: [{ type: "input_file", file_id: "file-1" }] }] },
      "m",
      false,
    );
    expect(file.refusal?.params).toEqual({ type: "input_file" });
  });
});

describe("reasoning state for the next turn", () => {
  test("a reasoning item the gateway encoded gives its assistant turn the vendor's state back; OpenAI's own is not read", async () => {
    const { encodeReasoning } = await import("../reasoning-state.ts");
    const blocks = [{ type: "thinking" as const, thinking: "Hmm.", signature: "sig-1" }];
    const { chat } = responsesToChat(
      {
        model: "m",
        input: [
          { role: "user", content: "go" },
          { type: "reasoning", id: "rs_1", summary: [], encrypted_content: encodeReasoning({ anthropic: { thinking_blocks: blocks } }) },
          { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
          { type: "function_call_output", call_id: "c1", output: "done" },
          { type: "reasoning", id: "rs_2", summary: [], encrypted_content: "gAAAA-openai-own" },
          { type: "function_call", call_id: "c2", name: "f", arguments: "{}" },
          { type: "reasoning", id: "rs_3", summary: [], encrypted_content: encodeReasoning({ google: { calls: { c2: "gsig" } } }) },
          { type: "function_call_output", call_id: "c2", output: "done" },
        ],
      },
      "m",
      false,
    );
    const messages = chat.messages as any[];
    expect(messages[1]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      extra_content: { anthropic: { thinking_blocks: blocks } },
    });
    // A signature that arrived after its turn's call (a stream's late state) still joins that turn.
    expect(messages[3].tool_calls[0].extra_content).toEqual({ google: { thought_signature: "gsig" } });
    expect(messages[3].extra_content).toBeUndefined();
  });
});
