import { describe, expect, test } from "bun:test";
import { claudeToChat, effortOfBudget } from "./claude-to-chat-request.ts";

describe("Claude request to chat", () => {
  test("system, text and images become chat messages and parts", () => {
    const { chat, refusal } = claudeToChat(
      {
        system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
        max_tokens: 300,
        stop_sequences: ["END"],
        temperature: 0.2,
        metadata: { user_id: "u-1" },
        messages: [
          { role: "user", content: "Hello" },
          { role: "assistant", content: [{ type: "text", text: "Hi." }] },
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
              { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
            ],
          },
        ],
      },
      "claude-x",
      false,
    );
    expect(refusal).toBeUndefined();
    expect(chat).toEqual({
      model: "claude-x",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello" },
        { role: "assistant", content: "Hi." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
            { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
          ],
        },
      ],
      max_tokens: 300,
      temperature: 0.2,
      stop: ["END"],
      user: "u-1",
    });
  });

  test("tool_use and tool_result: assistant tool_calls, then tool messages before the rest of the user turn", () => {
    const { chat } = claudeToChat(
      {
        max_tokens: 100,
        tools: [
          { name: "get_weather", description: "Weather", input_schema: { type: "object", properties: { city: { type: "string" } } } },
        ],
        tool_choice: { type: "tool", name: "get_weather", disable_parallel_tool_use: true },
        messages: [
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "Use the tool.", signature: "sig" },
              { type: "text", text: "Checking." },
              { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "text", text: "Thanks" },
              { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "18C" }] },
            ],
          },
        ],
      },
      "m",
      true,
    );
    expect(chat.messages).toEqual([
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "18C" },
      { role: "user", content: "Thanks" },
    ]);
    expect(chat.tools).toEqual([
      {
        type: "function",
        function: { name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    expect(chat.parallel_tool_calls).toBe(false);
    expect(chat.stream).toBe(true);
    expect(chat.stream_options).toEqual({ include_usage: true });
  });

  test("images a tool returned follow its tool message as the user's (tool messages hold text only)", () => {
    const { chat } = claudeToChat(
      {
        max_tokens: 9,
        messages: [
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "screenshot", input: {} }] },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "t1",
                content: [
                  { type: "text", text: "Taken." },
                  { type: "image", source: { type: "base64", media_type: "image/png", data: "AAA" } },
                ],
              },
            ],
          },
        ],
      },
      "m",
      false,
    );
    expect((chat.messages as unknown[]).slice(1)).toEqual([
      { role: "tool", tool_call_id: "t1", content: "Taken." },
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAA" } }] },
    ]);
  });

  test("thinking budgets become reasoning efforts", () => {
    expect(effortOfBudget(1024)).toBe("low");
    expect(effortOfBudget(8000)).toBe("medium");
    expect(effortOfBudget(32000)).toBe("high");
    const { chat } = claudeToChat(
      { max_tokens: 9000, thinking: { type: "enabled", budget_tokens: 8000 }, messages: [{ role: "user", content: "x" }] },
      "m",
      false,
    );
    expect(chat.reasoning_effort).toBe("medium");
    expect(
      claudeToChat({ max_tokens: 9, thinking: { type: "disabled" }, messages: [{ role: "user", content: "x" }] }, "m", false).chat
        .reasoning_effort,
    ).toBeUndefined();
  });

  test("tool_choice any/auto/none", () => {
    const tools = [{ name: "t", input_schema: { type: "object" } }];
    const choice = (tool_choice: unknown) =>
      claudeToChat({ max_tokens: 9, tools, tool_choice, messages: [{ role: "user", content: "x" }] }, "m", false).chat.tool_choice;
    expect(choice({ type: "any" })).toBe("required");
    expect(choice({ type: "auto" })).toBe("auto");
    expect(choice({ type: "none" })).toBe("none");
  });

  test("server tools: web search is a hosted tool, the others are left out; what cannot be carried is refused", () => {
    const server = claudeToChat(
      {
        max_tokens: 9,
        tools: [
          { type: "web_search_20250305", name: "web_search", max_uses: 2, allowed_domains: ["example.com"] },
          { type: "code_execution_20250825", name: "code_execution" },
        ],
        messages: [{ role: "user", content: "x" }],
      },
      "m",
      false,
    );
    expect(server.refusal).toBeUndefined();
    expect(server.hostedTools).toEqual([{ type: "web_search", maxUses: 2, allowedDomains: ["example.com"] }]);
    expect(server.leftOut).toEqual(["code_execution_20250825"]);
    expect(server.chat.tools).toBeUndefined();
    expect(server.chat.messages).toEqual([{ role: "user", content: "x" }]);
    const forced = claudeToChat(
      {
        max_tokens: 9,
        tools: [{ type: "code_execution_20250825", name: "code_execution" }],
        tool_choice: { type: "tool", name: "code_execution" },
        messages: [{ role: "user", content: "x" }],
      },
      "m",
      false,
    );
    expect(forced.refusal?.params).toEqual({ type: "code_execution" });
    const file = claudeToChat(
      { max_tokens: 9, messages: [{ role: "user", content: [{ type: "image", source: { type: "file", file_id: "f1" } }] }] },
      "m",
      false,
    );
    expect(file.refusal?.params).toEqual({ type: "image/file" });
  });

  test("documents: text as text, PDFs as file parts", () => {
    const { chat } = claudeToChat(
      {
        max_tokens: 9,
        messages: [
          {
            role: "user",
            content: [
              { type: "document", source: { type: "text", media_type: "text/plain", data: "The text." } },
              { type: "document", title: "a.pdf", source: { type: "base64", media_type: "application/pdf", data: "JVBER" } },
            ],
          },
        ],
      },
      "m",
      false,
    );
    expect(chat.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "The text." },
          { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBER" } },
        ],
      },
    ]);
  });
});
