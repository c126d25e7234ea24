import { describe, expect, test } from "bun:test";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { difyStreamError, parseDifyError, readDifyEvent } from "./dify-answer.ts";
import { difyBody, difyQuery } from "./dify-request.ts";

const event = (value: Record<string, unknown>) => ({ raw: "", event: "", data: JSON.stringify(value) });

describe("Dify requests", () => {
  test("a lone user message is the query; a history becomes a transcript ending with the newest turn", () => {
    expect(difyQuery(testCall({ model: "dify", messages: [{ role: "user", content: "hi" }] }))).toBe("hi");
    const call = testCall({
      model: "dify",
      messages: [
        { role: "system", content: "be kind" },
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
        { role: "user", content: "again" },
      ],
      user: "alice",
    });
    expect(difyBody(call)).toEqual({
      inputs: {},
      query: "SYSTEM:\nbe kind\n\nUSER:\nhi\n\nASSISTANT:\nhello\n\nUSER:\nagain",
      response_mode: "streaming",
      user: "alice",
      auto_generate_name: false,
    });
  });

  test("images of the newest user message go by URL; a data: URL waits for its upload", () => {
    const call = testCall({
      model: "dify",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what" },
            { type: "image_url", image_url: { url: "https://x/y.png" } },
          ],
        },
      ],
    });
    expect(difyBody(call)).toMatchObject({
      query: "what",
      user: "switchyard",
      files: [{ type: "image", transfer_method: "remote_url", url: "https://x/y.png" }],
    });
    const inline = testCall({
      model: "dify",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] }],
    });
    // An inline image waits for its upload (dify-upload.ts) as a local_file; anything else is refused.
    expect(difyBody(inline).files).toEqual([
      { type: "image", transfer_method: "local_file", upload_file_id: "", pending_upload_data_url: "data:image/png;base64,AAAA" },
    ]);
    const bad = testCall({
      model: "dify",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "ftp://x/y.png" } }] }],
    });
    expect(() => difyBody(bad)).toThrow();
  });
});

describe("Dify streams", () => {
  test("message and agent_message pieces, message_end usage, pings and thoughts skipped", () => {
    const stream = createChunkStream(
      testCall({ model: "dify", messages: [], stream: true }, { countPromptTokens: () => 0 }),
      () => 0,
      readDifyEvent,
    );
    stream.push(event({ event: "ping" }));
    stream.push(event({ event: "message", answer: "Hel", conversation_id: "c" }));
    stream.push(event({ event: "agent_thought", thought: "thinking" }));
    stream.push(event({ event: "agent_message", answer: "lo" }));
    const closing = stream.push(
      event({
        event: "message_end",
        metadata: { usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9, total_price: "0.001" } },
      }),
    );
    expect(closing.at(-1)).toBe("data: [DONE]\n\n");
    expect(stream.output().text).toBe("Hello");
    expect(stream.usage()).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
  });

  test("error events and HTTP errors carry their verdicts", () => {
    expect(difyStreamError(event({ event: "error", status: 400, code: "provider_quota_exceeded", message: "quota" }))).toMatchObject({
      type: "insufficient_quota",
      status: 429,
    });
    expect(difyStreamError(event({ event: "error", status: 500, code: "internal_server_error", message: "x" }))).toMatchObject({
      type: "upstream_error",
      status: 500,
    });
    expect(parseDifyError(401, JSON.stringify({ code: "unauthorized", message: "Access token is invalid", status: 401 }))).toMatchObject({
      type: "authentication_error",
    });
    expect(parseDifyError(400, JSON.stringify({ code: "app_unavailable", message: "App unavailable", status: 400 }))).toMatchObject({
      type: "permission_error",
    });
  });
});
