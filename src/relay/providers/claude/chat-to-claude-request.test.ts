import { describe, expect, test } from "bun:test";
import { AppError } from "../../../errors/app-error.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { defaultMaxTokens } from "./claude-models.ts";
import { claudeRequestFromOpenAI, maxTokensFor } from "./chat-to-claude-request.ts";

const convert = (json: Record<string, unknown>, overrides = {}) => claudeRequestFromOpenAI(testCall(json, overrides), "url-source");
const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return `${error.kind}: ${error.messageKey}`;
    throw error;
  }
  throw new Error("not refused");
};

describe("OpenAI chat -> Claude Messages request", () => {
  test("system messages become the top-level system; max_tokens defaults per model", () => {
    const body = convert({
      model: "claude-3-5-sonnet-20241022",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: [{ type: "text", text: "Answer in English." }] },
        { role: "user", content: "hi" },
      ],
    });
    expect(body).toEqual({
      model: "claude-3-5-sonnet-20241022",
      max_tokens: 8192,
      system: "Be brief.\n\nAnswer in English.",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(convert({ model: "claude-3-haiku-20240307", messages: [{ role: "user", content: "x" }] }).max_tokens).toBe(4096);
  });

  test("the client's max_tokens wins; without one the default never exceeds the hold's allowance", () => {
    expect(convert({ model: "claude-3-5-sonnet-20241022", max_tokens: 300, messages: [{ role: "user", content: "x" }] }).max_tokens).toBe(
      300,
    );
    expect(
      convert({
        model: "claude-3-5-sonnet-20241022",
        max_completion_tokens: 200,
        max_tokens: 300,
        messages: [{ role: "user", content: "x" }],
      }).max_tokens,
    ).toBe(200);
    const call = testCall({ model: "claude-3-5-sonnet-20241022", messages: [] }, { completionAllowance: 1000 });
    expect(maxTokensFor(call)).toBe(1000);
    expect(maxTokensFor({ ...call, completionAllowance: 50_000 })).toBe(8192);
    expect(defaultMaxTokens("anthropic.claude-3-haiku-20240307-v1:0")).toBe(4096);
    expect(defaultMaxTokens("claude-sonnet-4-20250514-thinking")).toBe(16384);
  });

  test("consecutive same-role messages merge; tool calls and results become tool_use and tool_result blocks", () => {
    const body = convert({
      model: "claude-3-5-sonnet-20241022",
      messages: [
        { role: "user", content: "weather?" },
        { role: "user", content: [{ type: "text", text: "in Paris" }] },
        {
          role: "assistant",
          content: "Let me check.",
          tool_calls: [
            { id: "toolu_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
            { id: "toolu_2", type: "function", function: { name: "time", arguments: "" } },
          ],
        },
        { role: "tool", tool_call_id: "toolu_1", content: "18C" },
        { role: "tool", tool_call_id: "toolu_2", content: [{ type: "text", text: "noon" }] },
        { role: "user", content: "thanks" },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "weather?" },
          { type: "text", text: "in Paris" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_2", name: "time", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "18C" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "noon" },
          { type: "text", text: "thanks" },
        ],
      },
    ]);
  });

  test("images: data URLs as base64 sources, links as url sources (never fetched); base64-only types refuse links", () => {
    const json = {
      model: "claude-3-5-sonnet-20241022",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "compare" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.com/cat.jpg", detail: "high" } },
          ],
        },
      ],
    };
    expect(convert(json).messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "compare" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
        ],
      },
    ]);
    expect(refusal(() => claudeRequestFromOpenAI(testCall(json), "base64-only"))).toBe("invalid: 该渠道只接受 base64 图片，不接受图片链接");
    const file = { model: "m", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "file:///etc/passwd" } }] }] };
    expect(refusal(() => convert(file))).toBe("invalid: 图片地址无效，请使用 http(s) 链接或 base64 data URL");
    const pdf = {
      model: "m",
      messages: [{ role: "user", content: [{ type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=" } }] }],
    };
    expect(convert(pdf).messages).toEqual([
      { role: "user", content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } }] },
    ]);
  });

  test("tools, tool_choice and parallel_tool_calls", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "weather",
          description: "Weather by city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ];
    const base = { model: "claude-3-5-sonnet-20241022", messages: [{ role: "user", content: "x" }], tools };
    expect(convert(base).tools).toEqual([
      {
        name: "weather",
        description: "Weather by city",
        input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ]);
    expect(convert(base).tool_choice).toBeUndefined();
    expect(convert({ ...base, tool_choice: "required" }).tool_choice).toEqual({ type: "any" });
    expect(convert({ ...base, tool_choice: "none" }).tool_choice).toEqual({ type: "none" });
    expect(convert({ ...base, tool_choice: { type: "function", function: { name: "weather" } } }).tool_choice).toEqual({
      type: "tool",
      name: "weather",
    });
    expect(convert({ ...base, parallel_tool_calls: false }).tool_choice).toEqual({ type: "auto", disable_parallel_tool_use: true });
    // A tool_choice without tools is meaningless to Claude (and refused there).
    expect(convert({ model: "m", messages: [{ role: "user", content: "x" }], tool_choice: "auto" }).tool_choice).toBeUndefined();
  });

  test("sampling, stop, user and stream", () => {
    const body = convert({
      model: "claude-3-5-sonnet-20241022",
      messages: [{ role: "user", content: "x" }],
      temperature: 1.7,
      top_p: 0.9,
      stop: "END",
      user: "u-7",
      stream: true,
    });
    expect(body).toMatchObject({ temperature: 1, top_p: 0.9, stop_sequences: ["END"], metadata: { user_id: "u-7" }, stream: true });
  });

  test("extended thinking: the -thinking suffix or reasoning_effort, budget from max_tokens", () => {
    const suffix = convert({
      model: "claude-3-7-sonnet-20250219-thinking",
      messages: [{ role: "user", content: "x" }],
      temperature: 0.3,
      top_p: 0.5,
    });
    expect(suffix).toMatchObject({
      model: "claude-3-7-sonnet-20250219",
      max_tokens: 16384,
      thinking: { type: "enabled", budget_tokens: 13107 },
      top_p: 0.95,
    });
    expect(suffix.temperature).toBeUndefined();
    const effort = convert({
      model: "claude-sonnet-4-20250514",
      max_tokens: 10000,
      reasoning_effort: "low",
      messages: [{ role: "user", content: "x" }],
    });
    expect(effort.thinking).toEqual({ type: "enabled", budget_tokens: 2000 });
    // Below Claude's 1,024-token floor there is no room for thinking: the call goes without it.
    expect(
      convert({ model: "claude-sonnet-4-20250514", max_tokens: 1000, reasoning_effort: "high", messages: [{ role: "user", content: "x" }] })
        .thinking,
    ).toBeUndefined();
    // Models without thinking ignore the effort.
    expect(
      convert({ model: "claude-3-5-sonnet-20241022", reasoning_effort: "high", messages: [{ role: "user", content: "x" }] }).thinking,
    ).toBeUndefined();
    // A forced tool, or a tool step whose signed thinking an OpenAI client cannot send back.
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    expect(
      convert({
        model: "claude-sonnet-4-20250514",
        reasoning_effort: "high",
        tools,
        tool_choice: "required",
        messages: [{ role: "user", content: "x" }],
      }).thinking,
    ).toBeUndefined();
    const loop = [
      { role: "user", content: "x" },
      { role: "assistant", tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "t1", content: "ok" },
    ];
    expect(convert({ model: "claude-sonnet-4-20250514", reasoning_effort: "high", tools, messages: loop }).thinking).toBeUndefined();
  });

  test("a tool step that kept its signed thinking (extra_content) gives it back first, and thinking stays on", () => {
    const thinkingBlocks = [
      { type: "thinking", thinking: "Look it up.", signature: "sig-1" },
      { type: "redacted_thinking", data: "opaque" },
    ];
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const messages = [
      { role: "user", content: "x" },
      {
        role: "assistant",
        content: null,
        extra_content: { anthropic: { thinking_blocks: thinkingBlocks } },
        tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "t1", content: "ok" },
    ];
    const on = convert({ model: "claude-sonnet-4-20250514", reasoning_effort: "high", max_tokens: 4000, tools, messages });
    expect(on.thinking).toEqual({ type: "enabled", budget_tokens: 3200 });
    expect((on.messages as any[])[1].content).toEqual([...thinkingBlocks, { type: "tool_use", id: "t1", name: "f", input: {} }]);
    // Without thinking on, the blocks cannot go: they are left out.
    const off = convert({ model: "claude-sonnet-4-20250514", tools, messages });
    expect((off.messages as any[])[1].content).toEqual([{ type: "tool_use", id: "t1", name: "f", input: {} }]);
  });

  test("a final assistant turn (prefill) loses its trailing whitespace; empty texts are dropped", () => {
    const body = convert({
      model: "m",
      messages: [
        { role: "user", content: "x" },
        { role: "assistant", content: "" },
        { role: "user", content: "y" },
        { role: "assistant", content: "Sure: " },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "x" },
          { type: "text", text: "y" },
        ],
      },
      { role: "assistant", content: "Sure:" },
    ]);
  });

  test("careless input is refused with a clear error instead of a silent loss", () => {
    expect(refusal(() => convert({ model: "m", messages: [{ role: "function", name: "f", content: "x" }] }))).toBe(
      "invalid: Claude 不支持该消息角色（只支持 system、user、assistant 和 tool）",
    );
    expect(
      refusal(() =>
        convert({ model: "m", messages: [{ role: "assistant", tool_calls: [{ id: "t", function: { name: "f", arguments: "{oops" } }] }] }),
      ),
    ).toBe("invalid: 工具调用参数不是合法的 JSON");
    expect(refusal(() => convert({ model: "m", messages: [{ role: "user", content: [{ type: "input_audio", input_audio: {} }] }] }))).toBe(
      "invalid: Claude 不支持该类型的消息内容（只支持文本、图片和 PDF 文件）",
    );
    expect(refusal(() => convert({ model: "m", n: 2, messages: [{ role: "user", content: "x" }] }))).toBe(
      "invalid: Claude 不支持 n 大于 1",
    );
    expect(refusal(() => convert({ model: "m", input: "x" }, { endpoint: "embeddings" }))).toBe("invalid: 该渠道只支持对话补全接口");
  });
});
