import { describe, expect, test } from "bun:test";
import { buildJsonBody, buildMultipartBody, reasoningEffortSuffix } from "./openai-request.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";

const rules = { streamUsage: true, reasoningModels: true };
const bodyOf = (body: BodyInit) => (typeof body === "string" ? JSON.parse(body) : JSON.parse(new TextDecoder().decode(body as Uint8Array)));

describe("the upstream JSON body", () => {
  test("the client's bytes go out untouched when nothing changes, unknown fields included", () => {
    const call = testCall({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], custom_field: { x: 1 } });
    expect(buildJsonBody(call, rules)).toBe(call.rawBody);
  });

  test("a mapped model is renamed and every other field kept", () => {
    const call = testCall({ model: "alias", messages: [], custom_field: 1 }, { upstreamModel: "gpt-4o" });
    expect(bodyOf(buildJsonBody(call, rules))).toEqual({ model: "gpt-4o", messages: [], custom_field: 1 });
  });

  test("streams ask for the usage chunk, keeping the client's other stream options", () => {
    const call = testCall({ model: "gpt-4o-mini", messages: [], stream: true, stream_options: { other: true } });
    expect(bodyOf(buildJsonBody(call, rules)).stream_options).toEqual({ other: true, include_usage: true });
    const asked = testCall({ model: "gpt-4o-mini", messages: [], stream: true, stream_options: { include_usage: true } });
    expect(buildJsonBody(asked, rules)).toBe(asked.rawBody);
  });

  test("vendors without stream_options never receive it", () => {
    const call = testCall({ model: "m", messages: [], stream: true, stream_options: { include_usage: true } });
    expect(bodyOf(buildJsonBody(call, { streamUsage: false, reasoningModels: false }))).toEqual({ model: "m", messages: [], stream: true });
  });

  test("reasoning models: max_completion_tokens, no temperature, developer role, effort suffix", () => {
    const call = testCall({
      model: "o3-mini-high",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
      ],
      max_tokens: 100,
      temperature: 0.2,
    });
    expect(bodyOf(buildJsonBody(call, rules))).toEqual({
      model: "o3-mini",
      messages: [
        { role: "developer", content: "be brief" },
        { role: "user", content: "hi" },
      ],
      max_completion_tokens: 100,
      reasoning_effort: "high",
    });
    expect(reasoningEffortSuffix("o3-mini-high")).toBe("high");
    expect(reasoningEffortSuffix("gpt-4o-high")).toBeUndefined();
  });

  test("o1-mini keeps its system role (only o1 and later take developer)", () => {
    const call = testCall({ model: "o1-mini", messages: [{ role: "system", content: "x" }] });
    expect(bodyOf(buildJsonBody(call, rules)).messages[0].role).toBe("system");
  });

  test("an allow-list of fields drops the others", () => {
    const call = testCall({ model: "mistral-small-latest", messages: [], user: "u1", logit_bias: {} });
    expect(
      bodyOf(buildJsonBody(call, { streamUsage: false, reasoningModels: false, allowedFields: new Set(["model", "messages"]) })),
    ).toEqual({
      model: "mistral-small-latest",
      messages: [],
    });
  });
});

describe("the upstream multipart body", () => {
  test("forwarded as received unless the model was renamed", async () => {
    const form = new FormData();
    form.set("model", "whisper-1");
    form.set("file", new Blob(["audio"]), "a.mp3");
    const encoded = new Response(form);
    const contentType = encoded.headers.get("content-type")!;
    const rawBody = new Uint8Array(await encoded.arrayBuffer());
    const call = testCall({ model: "whisper-1" }, { endpoint: "transcription", json: null, form, rawBody, contentType });
    expect(buildMultipartBody(call)).toEqual({ body: rawBody, contentType });
    const renamed = buildMultipartBody({ ...call, upstreamModel: "whisper-large" });
    expect(renamed.contentType).toBe("");
    const fields = await new Response(renamed.body).formData().catch(() => undefined);
    expect(renamed.body instanceof FormData && renamed.body.get("model")).toBe("whisper-large");
    expect(fields === undefined || fields instanceof FormData).toBe(true);
  });
});
