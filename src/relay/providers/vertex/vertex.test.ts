// Vertex AI: the service-account assertion (signature and claims checked with the public half of
// a throwaway key), the token exchange, regions, URLs and refusals.
import { beforeAll, describe, expect, test } from "bun:test";
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from "jose";
import { AppError } from "../../../errors/app-error.ts";
import type { UpstreamTarget } from "../adaptor.ts";
import { testCall } from "../../../../tests/helpers/test-call.ts";
import { vertexAdaptor } from "./vertex.ts";
import { vertexClaudeModel } from "./vertex-claude-models.ts";
import { parseVertexError } from "./vertex-errors.ts";
import { parseServiceAccount } from "./vertex-key.ts";
import { hostOf, regionOf } from "./vertex-region.ts";
import { cloudPlatformScope, jwtBearerGrant, parseToken, tokenRequest } from "./vertex-token.ts";

let publicKey: CryptoKey;
let key: string;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  publicKey = pair.publicKey;
  key = JSON.stringify({
    type: "service_account",
    project_id: "proj-1",
    private_key_id: "kid-1",
    private_key: await exportPKCS8(pair.privateKey),
    client_email: "relay@proj-1.iam.gserviceaccount.com",
    token_uri: "https://oauth2.example/token",
  });
});

const target = (extra: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  id: 1,
  type: 41,
  key,
  baseUrl: "",
  other: "",
  organization: "",
  setting: {},
  credential: "ya29.token",
  ...extra,
});

describe("token exchange", () => {
  test("the assertion is an RS256 JWT of the account, for the cloud-platform scope, at the token URI, valid one hour", async () => {
    const request = await tokenRequest(target(), 1_700_000_000);
    expect(request.url).toBe("https://oauth2.example/token");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(String(request.body));
    expect(form.get("grant_type")).toBe(jwtBearerGrant);
    const assertion = form.get("assertion")!;
    expect(decodeProtectedHeader(assertion)).toEqual({ alg: "RS256", typ: "JWT", kid: "kid-1" });
    const { payload } = await jwtVerify(assertion, publicKey, { currentDate: new Date(1_700_000_100_000) });
    expect(payload).toEqual({
      iss: "relay@proj-1.iam.gserviceaccount.com",
      scope: cloudPlatformScope,
      aud: "https://oauth2.example/token",
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
  });

  test("the answer's token lives expires_in seconds", () => {
    expect(parseToken('{"access_token":"ya29.x","expires_in":3599,"token_type":"Bearer"}', 100)).toEqual({
      value: "ya29.x",
      expiresAt: 3699,
    });
    expect(() => parseToken('{"error":"invalid_grant"}', 100)).toThrow();
  });

  test("a key that is not a service account key is refused as a channel set up wrongly (tried elsewhere, never sent)", async () => {
    for (const bad of ["not json", "{}", JSON.stringify({ client_email: "a", private_key: "b", project_id: "c" })]) {
      const refusal = await tokenRequest(target({ key: bad }), 0).catch((error) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect([refusal.kind, refusal.code]).toEqual(["internal", "channel_config_error"]);
    }
    expect(parseServiceAccount(JSON.stringify({ client_email: "a", private_key: "b", project_id: "c" })).tokenUri).toBe(
      "https://oauth2.googleapis.com/token",
    );
  });

  test("OAuth refusals of the token URI are authentication errors; API errors have Gemini's verdicts", () => {
    expect(parseVertexError(400, '{"error":"invalid_grant","error_description":"Invalid JWT Signature."}')).toEqual({
      message: "OAuth token exchange failed: Invalid JWT Signature.",
      type: "authentication_error",
      code: "invalid_api_key",
      param: null,
    });
    expect(parseVertexError(429, '{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}')).toMatchObject({
      type: "rate_limit_error",
    });
  });
});

describe("regions and URLs", () => {
  test("a region for every model, or a model map with a default", () => {
    const map = JSON.stringify({ default: "us-central1", "claude-3-5-sonnet-20240620": "europe-west1" });
    expect(regionOf("", ["gemini-2.0-flash"])).toBe("us-central1");
    expect(regionOf("asia-northeast1", ["gemini-2.0-flash"])).toBe("asia-northeast1");
    expect(regionOf(map, ["gemini-2.0-flash"])).toBe("us-central1");
    expect(regionOf(map, ["claude-3-5-sonnet@20240620", "claude-3-5-sonnet-20240620"])).toBe("europe-west1");
    expect(hostOf("global")).toBe("https://aiplatform.googleapis.com");
  });

  test("Gemini models: generateContent / streamGenerateContent?alt=sse of Google's publisher, with the bearer token", async () => {
    const call = testCall({ model: "gemini-2.0-flash", messages: [{ role: "user", content: "hi" }] });
    const request = await vertexAdaptor.buildRequest(call, target({ other: "europe-west4" }));
    expect(request.url).toBe(
      "https://europe-west4-aiplatform.googleapis.com/v1/projects/proj-1/locations/europe-west4/publishers/google/models/gemini-2.0-flash:generateContent",
    );
    expect(request.headers.authorization).toBe("Bearer ya29.token");
    expect(JSON.parse(String(request.body)).contents).toEqual([{ role: "user", parts: [{ text: "hi" }] }]);
    const stream = await vertexAdaptor.buildRequest(
      testCall({ model: "gemini-2.0-flash", messages: [{ role: "user", content: "hi" }], stream: true }),
      target({ other: "global" }),
    );
    expect(stream.url).toBe(
      "https://aiplatform.googleapis.com/v1/projects/proj-1/locations/global/publishers/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse",
    );
  });

  test("a Gemini-format call passes through with the channel's model", async () => {
    const raw = new TextEncoder().encode('{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}');
    const call = {
      ...testCall({ contents: [] }),
      format: "gemini" as const,
      model: "gemini-pro",
      upstreamModel: "gemini-2.0-flash-001",
      rawBody: raw,
      json: JSON.parse(new TextDecoder().decode(raw)),
    };
    const request = await vertexAdaptor.buildRequest(call, target());
    expect(request.url).toEndWith("/publishers/google/models/gemini-2.0-flash-001:generateContent");
    expect(request.body).toBe(raw);
  });

  test("endpoints Vertex does not serve here are refused", () => {
    expect(() =>
      vertexAdaptor.buildRequest(testCall({ model: "text-embedding-005", input: "x" }, { endpoint: "embeddings" }), target()),
    ).toThrow("尚未实现");
  });
});

describe("Anthropic's publisher", () => {
  const regions = JSON.stringify({ default: "us-central1", "claude-3-5-sonnet-20240620": "europe-west1" });

  test("Vertex's Claude ids: the date after an @, 3.5 Sonnet v2 renamed, ids with an @ kept", () => {
    expect(vertexClaudeModel("claude-3-5-sonnet-20240620")).toBe("claude-3-5-sonnet@20240620");
    expect(vertexClaudeModel("claude-3-5-sonnet-20241022")).toBe("claude-3-5-sonnet-v2@20241022");
    expect(vertexClaudeModel("claude-sonnet-4-20250514")).toBe("claude-sonnet-4@20250514");
    expect(vertexClaudeModel("claude-3-7-sonnet@20250219")).toBe("claude-3-7-sonnet@20250219");
    expect(vertexClaudeModel("claude-custom")).toBe("claude-custom");
  });

  test("rawPredict in the model's region, Claude's body without model, with anthropic_version vertex-2023-10-16", async () => {
    const call = testCall({
      model: "claude-3-5-sonnet-20240620",
      messages: [
        { role: "system", content: "Brief." },
        { role: "user", content: "hi" },
      ],
      max_tokens: 30,
    });
    const request = await vertexAdaptor.buildRequest(call, target({ other: regions }));
    expect(request.url).toBe(
      "https://europe-west1-aiplatform.googleapis.com/v1/projects/proj-1/locations/europe-west1/publishers/anthropic/models/claude-3-5-sonnet@20240620:rawPredict",
    );
    expect(request.headers.authorization).toBe("Bearer ya29.token");
    expect(JSON.parse(String(request.body))).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 30,
      system: "Brief.",
      messages: [{ role: "user", content: "hi" }],
    });
    const stream = await vertexAdaptor.buildRequest(
      testCall({ model: "claude-3-5-sonnet-20241022", messages: [{ role: "user", content: "hi" }], stream: true }),
      target({ other: regions }),
    );
    expect(stream.url).toBe(
      "https://us-central1-aiplatform.googleapis.com/v1/projects/proj-1/locations/us-central1/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:streamRawPredict",
    );
    expect(JSON.parse(String(stream.body))).toMatchObject({ anthropic_version: "vertex-2023-10-16", stream: true, max_tokens: 8192 });
    expect(vertexAdaptor.defaultMaxTokens!("claude-3-5-sonnet-20241022")).toBe(8192);
    expect(vertexAdaptor.defaultMaxTokens!("gemini-2.5-flash")).toBe(0);
  });

  test("image links are downloaded before the body is built (a host that does not resolve: 400); cross-format calls are refused for another channel", async () => {
    const linked = testCall({
      model: "claude-3-5-sonnet-20240620",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://unresolvable.invalid/y.png" } }] }],
    });
    await expect(Promise.resolve(vertexAdaptor.buildRequest(linked, target()))).rejects.toThrow("下载图片失败：unknown host");
    const geminiFormat = { ...testCall({ contents: [] }), format: "gemini" as const, upstreamModel: "claude-3-5-sonnet-20240620" };
    const claudeFormat = { ...testCall({ messages: [] }), format: "claude" as const, upstreamModel: "gemini-2.0-flash" };
    for (const call of [geminiFormat, claudeFormat]) {
      const refusal = await (async () => {
        try {
          await vertexAdaptor.buildRequest(call, target());
        } catch (error) {
          return error as AppError;
        }
      })();
      expect(refusal?.httpStatus).toBe(501);
    }
  });

  test("Claude's error objects keep their types; the platform's stay Gemini's", () => {
    expect(parseVertexError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toMatchObject({
      type: "overloaded_error",
    });
    expect(parseVertexError(403, '{"error":{"code":403,"message":"denied","status":"PERMISSION_DENIED"}}')).toMatchObject({
      type: "permission_error",
    });
  });
});
