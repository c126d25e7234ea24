import { describe, expect, test } from "bun:test";
import { jsonSchemaOf } from "./gemini-fields.ts";
import { geminiToChat } from "./gemini-to-chat-request.ts";

describe("Gemini request to chat", () => {
  test("systemInstruction, roles, inline images, generationConfig (camelCase or snake_case)", () => {
    const camel = geminiToChat(
      {
        systemInstruction: { parts: [{ text: "Be brief." }] },
        contents: [
          { role: "user", parts: [{ text: "What is " }, { text: "this?" }] },
          { role: "model", parts: [{ text: "Show me." }] },
          { role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "iVBOR" } }, { text: "here" }] },
        ],
        generationConfig: {
          temperature: 0.3,
          topP: 0.9,
          topK: 40,
          maxOutputTokens: 200,
          stopSequences: ["END"],
          candidateCount: 2,
          thinkingConfig: { thinkingBudget: 2048 },
        },
      },
      "g",
      false,
    );
    expect(camel.refusal).toBeUndefined();
    expect(camel.chat).toEqual({
      model: "g",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What is this?" },
        { role: "assistant", content: "Show me." },
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
            { type: "text", text: "here" },
          ],
        },
      ],
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 200,
      n: 2,
      stop: ["END"],
      reasoning_effort: "low",
    });
    const snake = geminiToChat(
      {
        system_instruction: { parts: [{ text: "Be brief." }] },
        contents: [{ parts: [{ inline_data: { mime_type: "image/jpeg", data: "AA" } }] }],
        generation_config: { max_output_tokens: 5 },
      },
      "g",
      false,
    );
    expect(snake.chat.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/jpeg;base64,AA" } }] },
    ]);
    expect(snake.chat.max_tokens).toBe(5);
  });

  test("function calls get ids and their responses find them by name; declarations become tools", () => {
    const { chat } = geminiToChat(
      {
        contents: [
          { role: "user", parts: [{ text: "Weather in Paris and Rome?" }] },
          {
            role: "model",
            parts: [
              { functionCall: { name: "weather", args: { city: "Paris" } } },
              { functionCall: { name: "weather", args: { city: "Rome" } } },
            ],
          },
          {
            role: "user",
            parts: [
              { functionResponse: { name: "weather", response: { temp: 18 } } },
              { functionResponse: { name: "weather", response: { temp: 22 } } },
            ],
          },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: "weather",
                description: "Weather",
                parameters: { type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["weather"] } },
      },
      "g",
      true,
    );
    expect(chat.messages).toEqual([
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1_weather", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          { id: "call_2_weather", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1_weather", content: '{"temp":18}' },
      { role: "tool", tool_call_id: "call_2_weather", content: '{"temp":22}' },
    ]);
    expect(chat.tools).toEqual([
      {
        type: "function",
        function: {
          name: "weather",
          description: "Weather",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: "function", function: { name: "weather" } });
    expect(chat.stream).toBe(true);
  });

  test("Gemini's own tools: Search grounding is a hosted web search, the others left out; unreadable parts are refused", () => {
    const search = geminiToChat(
      { contents: [{ role: "user", parts: [{ text: "x" }] }], tools: [{ googleSearch: {} }, { codeExecution: {} }, { urlContext: {} }] },
      "g",
      false,
    );
    expect(search.refusal).toBeUndefined();
    expect(search.hostedTools).toEqual([{ type: "web_search" }]);
    expect(search.leftOut).toEqual(["codeExecution", "urlContext"]);
    const video = geminiToChat(
      { contents: [{ role: "user", parts: [{ inlineData: { mimeType: "video/mp4", data: "AA" } }] }] },
      "g",
      false,
    );
    expect(video.refusal?.params).toEqual({ type: "video/mp4" });
  });

  test("a declaration that is not an object is the client's error, whichever channel serves the call", () => {
    for (const declaration of [null, 7, "weather", []]) {
      const body = { contents: [{ role: "user", parts: [{ text: "x" }] }], tools: [{ functionDeclarations: [declaration] }] };
      expect(() => geminiToChat(body, "g", false)).toThrow(
        expect.objectContaining({ kind: "invalid", params: { field: "functionDeclarations" } }),
      );
    }
  });

  test("schemas: upper-case types lowered, nullable folded in, ordering hints dropped", () => {
    expect(
      jsonSchemaOf({
        type: "OBJECT",
        propertyOrdering: ["a"],
        properties: { a: { type: "ARRAY", items: { type: "INTEGER" } }, b: { type: "STRING", nullable: true } },
      }),
    ).toEqual({
      type: "object",
      properties: { a: { type: "array", items: { type: "integer" } }, b: { type: ["string", "null"] } },
    });
  });

  test("JSON output: responseMimeType with a schema becomes a json_schema response format", () => {
    const { chat } = geminiToChat(
      {
        contents: [{ role: "user", parts: [{ text: "x" }] }],
        generationConfig: {
          responseMimeType: "application/json",
          responseSchema: { type: "OBJECT", properties: { n: { type: "NUMBER" } } },
        },
      },
      "g",
      false,
    );
    expect(chat.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "response", schema: { type: "object", properties: { n: { type: "number" } } } },
    });
  });
});
