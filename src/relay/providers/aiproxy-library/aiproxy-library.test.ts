import { describe, expect, test } from "bun:test";
import type { UpstreamTarget } from "../adaptor.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { askRequest, convertAskAnswer, parseAskError, queryOf } from "./aiproxy-library.ts";

const target = (other: string): UpstreamTarget => ({ id: 1, type: 21, key: "aip-key", baseUrl: "", other, organization: "", setting: {} });
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const chat = testCall(
  {
    model: "kb",
    messages: [
      { role: "system", content: "你是客服。" },
      { role: "user", content: "你好" },
      { role: "assistant", content: "请问有什么可以帮你？" },
      {
        role: "user",
        content: [
          { type: "text", text: "退货期限" },
          { type: "text", text: "是多久？" },
        ],
      },
    ],
  },
  { upstreamModel: "gpt-4o-mini" },
);

describe("AI Proxy knowledge base", () => {
  test("the question is the last user message; the library id is numeric when it looks so", async () => {
    expect(queryOf(chat)).toBe("退货期限\n是多久？");
    const request = askRequest(chat, target(" 123456 "));
    expect(request.url).toBe("https://api.aiproxy.io/api/library/ask");
    expect(request.headers.authorization).toBe("Bearer aip-key");
    expect(JSON.parse(String(request.body))).toEqual({
      libraryId: 123456,
      model: "gpt-4o-mini",
      query: "退货期限\n是多久？",
      stream: false,
    });
    expect(JSON.parse(String(askRequest(chat, target("lib-a")).body)).libraryId).toBe("lib-a");
  });

  test("a channel without a library id is a setup error (500, another channel is tried); a call without a question is the client's", () => {
    expect(() => askRequest(chat, target(""))).toThrow(expect.objectContaining({ kind: "internal", messageKey: "渠道未设置知识库 ID" }));
    expect(() => queryOf(testCall({ model: "kb", messages: [{ role: "system", content: "x" }] }))).toThrow(
      expect.objectContaining({ kind: "invalid" }),
    );
  });

  test("answers: a success is a chat.completion under the client's model, a refusal an error", () => {
    const answered = convertAskAnswer(chat, bytes({ success: true, answer: "30 天。", documents: [] }));
    const body = JSON.parse(String(answered.body));
    expect([body.object, body.model, body.choices[0].message.content, answered.usage]).toEqual(["chat.completion", "kb", "30 天。", null]);
    expect(answered.output()).toEqual({ text: "30 天。", toolCalls: 0 });
    expect(convertAskAnswer(chat, bytes({ success: false, errCode: 1001, errMsg: "libraryId not found" })).error).toMatchObject({
      message: "libraryId not found",
      code: 1001,
    });
    expect(parseAskError(401, '{"success":false,"message":"Invalid API key"}')).toMatchObject({
      message: "Invalid API key",
      type: "authentication_error",
    });
    expect(parseAskError(429, "<html>busy</html>").type).toBe("rate_limit_error");
  });
});
