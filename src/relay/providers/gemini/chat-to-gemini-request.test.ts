// OpenAI chat requests as Gemini GenerateContentRequests (the conversion Vertex reuses too).
import { describe, expect, test } from "bun:test";
import { AppError } from "../../../errors/app-error.ts";
import { geminiChatBody, thinkingConfigOf } from "./chat-to-gemini-request.ts";
import { apiVersionOf, safetySettingsOf } from "./gemini-settings.ts";

const safety = { default: "BLOCK_NONE", HARM_CATEGORY_CIVIC_INTEGRITY: "BLOCK_NONE" };
const body = (json: Record<string, unknown>, model = "gemini-2.0-flash") => geminiChatBody(json, model, { safety }) as Record<string, any>;

describe("conversation", () => {
  test("system and developer messages become systemInstruction; assistant is the model role; turns of one role merge", () => {
    const converted = body({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: [{ type: "text", text: "Answer in French." }] },
        { role: "user", content: "hi" },
        { role: "user", content: [{ type: "text", text: "there" }] },
        { role: "assistant", content: "Bonjour" },
        { role: "user", content: "again" },
      ],
    });
    expect(converted.systemInstruction).toEqual({ parts: [{ text: "Be brief." }, { text: "Answer in French." }] });
    expect(converted.contents).toEqual([
      { role: "user", parts: [{ text: "hi" }, { text: "there" }] },
      { role: "model", parts: [{ text: "Bonjour" }] },
      { role: "user", parts: [{ text: "again" }] },
    ]);
  });

  test("a request of system messages only sends them as the prompt", () => {
    const converted = body({ messages: [{ role: "system", content: "Say hi." }] });
    expect(converted.systemInstruction).toBeUndefined();
    expect(converted.contents).toEqual([{ role: "user", parts: [{ text: "Say hi." }] }]);
  });

  test("images: data URLs inline, http(s) URLs by reference with the MIME type of their extension", () => {
    const converted = body({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://images.example/cat.webp?size=2" } },
            { type: "image_url", image_url: { url: "https://images.example/render" } },
            { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
          ],
        },
      ],
    });
    expect(converted.contents[0].parts).toEqual([
      { text: "what is this?" },
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
      { fileData: { mimeType: "image/webp", fileUri: "https://images.example/cat.webp?size=2" } },
      { fileData: { mimeType: "image/jpeg", fileUri: "https://images.example/render" } },
      { inlineData: { mimeType: "audio/wav", data: "UklGRg==" } },
    ]);
  });

  test("an image address that is neither a data URL nor http(s)/gs is refused as the client's error", () => {
    const refused = (() => {
      try {
        body({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "file:///etc/passwd" } }] }] });
      } catch (error) {
        return error;
      }
    })() as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect([refused.kind, refused.messageKey]).toEqual(["invalid", "图片地址无效，请使用 http(s) 链接或 base64 data URL"]);
  });

  test("tool calls become functionCall parts (thought signature carried back), tool results functionResponse parts of a user turn", () => {
    const converted = body({
      messages: [
        { role: "user", content: "weather in Paris and Rome?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Paris"}' },
              extra_content: { google: { thought_signature: "c2ln" } },
            },
            { id: "call_2", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"celsius":21}' },
        { role: "tool", tool_call_id: "call_2", content: "sunny" },
      ],
    });
    expect(converted.contents).toEqual([
      { role: "user", parts: [{ text: "weather in Paris and Rome?" }] },
      {
        role: "model",
        parts: [
          { functionCall: { name: "weather", args: { city: "Paris" } }, thoughtSignature: "c2ln" },
          { functionCall: { name: "weather", args: { city: "Rome" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "weather", response: { celsius: 21 } } },
          { functionResponse: { name: "weather", response: { content: "sunny" } } },
        ],
      },
    ]);
  });

  test("a tool message answering no known call, and malformed arguments, are refused", () => {
    expect(() => body({ messages: [{ role: "tool", tool_call_id: "nope", content: "x" }] })).toThrow(
      "工具消息必须回应此前助手消息中的工具调用",
    );
    expect(() =>
      body({ messages: [{ role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "{oops" } }] }] }),
    ).toThrow("工具调用参数不是合法的 JSON");
  });
});

describe("tools and generation settings", () => {
  test("function tools become functionDeclarations with a Gemini-shaped schema; tool_choice becomes toolConfig", () => {
    const converted = body({
      messages: [{ role: "user", content: "hi" }],
      tools: [
        {
          type: "function",
          function: {
            name: "weather",
            description: "Current weather",
            strict: true,
            parameters: {
              $schema: "http://json-schema.org/draft-07/schema#",
              type: "object",
              additionalProperties: false,
              properties: {
                city: { type: "string" },
                unit: { type: ["string", "null"], enum: ["c", "f"] },
                days: { type: "array", items: { type: "integer", additionalProperties: false } },
              },
              required: ["city"],
            },
          },
        },
        { type: "function", function: { name: "now", parameters: { type: "object", properties: {} } } },
      ],
      tool_choice: { type: "function", function: { name: "weather" } },
    });
    expect(converted.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "weather",
            description: "Current weather",
            parameters: {
              type: "object",
              properties: {
                city: { type: "string" },
                unit: { type: "string", nullable: true, enum: ["c", "f"] },
                days: { type: "array", items: { type: "integer" } },
              },
              required: ["city"],
            },
          },
          { name: "now" },
        ],
      },
    ]);
    expect(converted.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["weather"] } });
    expect(
      body({ messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "f" } }], tool_choice: "required" })
        .toolConfig,
    ).toEqual({ functionCallingConfig: { mode: "ANY" } });
    expect(
      body({ messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "f" } }], tool_choice: "none" })
        .toolConfig,
    ).toEqual({ functionCallingConfig: { mode: "NONE" } });
  });

  test("sampling fields, max_tokens, stop and response_format go to generationConfig", () => {
    const converted = body({
      messages: [{ role: "user", content: "x" }],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 64,
      stop: "END",
      n: 2,
      seed: 7,
      response_format: {
        type: "json_schema",
        json_schema: { name: "x", schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false } },
      },
    });
    expect(converted.generationConfig).toEqual({
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 64,
      stopSequences: ["END"],
      candidateCount: 2,
      seed: 7,
      responseMimeType: "application/json",
      responseSchema: { type: "object", properties: { a: { type: "string" } } },
    });
    expect(
      body({ messages: [{ role: "user", content: "x" }], max_completion_tokens: 9, response_format: { type: "json_object" } })
        .generationConfig,
    ).toEqual({ maxOutputTokens: 9, responseMimeType: "application/json" });
  });

  test("safety settings: every category at the option's threshold, BLOCK_NONE by default", () => {
    expect(body({ messages: [{ role: "user", content: "x" }] }).safetySettings).toEqual([
      { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" },
      { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_NONE" },
      { category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", threshold: "BLOCK_NONE" },
      { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_NONE" },
      { category: "HARM_CATEGORY_CIVIC_INTEGRITY", threshold: "BLOCK_NONE" },
    ]);
    expect(safetySettingsOf({ default: "BLOCK_ONLY_HIGH", HARM_CATEGORY_HATE_SPEECH: "OFF" })).toEqual([
      { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" },
      { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "OFF" },
      { category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", threshold: "BLOCK_ONLY_HIGH" },
      { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_ONLY_HIGH" },
    ]);
  });

  test("reasoning_effort: a thinking budget for Gemini 2.x, a thinking level for Gemini 3, thoughts included", () => {
    expect(thinkingConfigOf({ reasoning_effort: "low" }, "gemini-2.5-flash")).toEqual({ thinkingBudget: 1024, includeThoughts: true });
    expect(thinkingConfigOf({ reasoning_effort: "high" }, "gemini-2.5-pro")).toEqual({ thinkingBudget: 24576, includeThoughts: true });
    expect(thinkingConfigOf({ reasoning_effort: "none" }, "gemini-2.5-flash")).toEqual({ thinkingBudget: 0 });
    expect(thinkingConfigOf({ reasoning_effort: "high" }, "gemini-3-pro-preview")).toEqual({
      thinkingLevel: "high",
      includeThoughts: true,
    });
    expect(thinkingConfigOf({ google: { thinking_config: { thinking_budget: 300, include_thoughts: true } } }, "gemini-2.5-flash")).toEqual(
      { thinkingBudget: 300, includeThoughts: true },
    );
    expect(thinkingConfigOf({}, "gemini-2.5-flash")).toBeUndefined();
  });

  test("API version: the channel's, else the option's entry for the model, else its default", () => {
    const versions = { default: "v1beta", "gemini-1.0-pro": "v1" };
    expect(apiVersionOf("gemini-2.0-flash", "", versions)).toBe("v1beta");
    expect(apiVersionOf("gemini-1.0-pro", "", versions)).toBe("v1");
    expect(apiVersionOf("gemini-1.0-pro", "v1alpha", versions)).toBe("v1alpha");
    expect(apiVersionOf("gemini-2.0-flash", "", {})).toBe("v1beta");
  });
});

describe("thought signatures", () => {
  const loop = (signature?: string, extra?: Record<string, unknown>) => [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "f", arguments: "{}" },
          ...(signature ? { extra_content: { google: { thought_signature: signature } } } : {}),
        },
      ],
      ...extra,
    },
    { role: "tool", tool_call_id: "c1", content: "ok" },
  ];

  test("a call's signature goes back on its part; a lost one on Gemini 3's current turn gets Google's skip value", () => {
    expect(body({ messages: loop("sig") }, "gemini-3-pro-preview").contents[1].parts[0].thoughtSignature).toBe("sig");
    expect(body({ messages: loop() }, "gemini-3-pro-preview").contents[1].parts[0].thoughtSignature).toBe(
      "skip_thought_signature_validator",
    );
    // Gemini 2.5 does not check, and a past turn is not checked either.
    expect(body({ messages: loop() }, "gemini-2.5-pro").contents[1].parts[0].thoughtSignature).toBeUndefined();
    const past = body(
      { messages: [...loop(), { role: "assistant", content: "done" }, { role: "user", content: "next" }] },
      "gemini-3-pro-preview",
    );
    expect(past.contents[1].parts[0].thoughtSignature).toBeUndefined();
  });

  test("a text answer's signature goes back on the last part of its turn", () => {
    const converted = body(
      {
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "Hello.", extra_content: { google: { thought_signature: "tsig" } } },
          { role: "user", content: "again" },
        ],
      },
      "gemini-3-pro-preview",
    );
    expect(converted.contents[1]).toEqual({ role: "model", parts: [{ text: "Hello.", thoughtSignature: "tsig" }] });
  });
});
