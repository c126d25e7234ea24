// AWS Bedrock Claude channels (type 33) through the real gateway with the official openai client,
// against an imitation of Bedrock that verifies the SigV4 signature itself: the exact upstream
// request (URL with the model id or inference profile, signed headers, body), whole answers and
// event streams with tools and thinking, usage and billing, AWS exceptions with their retry and
// auto-disable verdicts (as HTTP errors and inside the stream), a malformed key, fetch models
// and the channel test. Bedrock API keys ("ApiKey|Region", AWS's "Use an Amazon Bedrock API key":
// `Authorization: Bearer`) through a Tokyo imitation, with the Region's jp. inference profile. The
// imitation's checks are themselves checked against the official SDK, @aws-sdk/client-bedrock-runtime:
// its SigV4 signature and its bearer-token request are accepted, a wrong secret is not.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { BedrockRuntimeClient, InvokeModelCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { startBedrockUpstream, type BedrockUpstream } from "../../fixtures/bedrock-upstream.ts";
import { signAwsRequest } from "../../../src/relay/providers/bedrock/aws-signing.ts";
import { verifySigV4 } from "../../fixtures/sigv4-verify.ts";
import { catBase64, startImageHost, type ImageHost } from "../../fixtures/image-host.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  openai,
  postRelay,
  setOptions,
  startRelayWorld,
  withoutRequestId,
  type RelayWorld,
} from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let bedrock: BedrockUpstream;
let tokyo: BedrockUpstream;
let key: string;
let images: ImageHost;

const secrets: Record<string, string> = {
  AKIABASIC: "basic/secret+key",
  AKIASTREAM: "stream-secret",
  AKIAPROFILE: "profile-secret",
  AKIATOOLS: "tools-secret",
  AKIATHROTTLED: "throttled-secret",
  AKIASPARE: "spare-secret",
  AKIAINVALID: "invalid-secret",
  AKIAMIDSTREAM: "mid-secret",
  AKIAFIRSTEVENT: "first-event-secret",
  AKIAMODELS: "models-secret",
  AKIATEST: "test-secret",
};
const channelKey = (accessKeyId: string, secret = secrets[accessKeyId]!) => `${accessKeyId}|${secret}|us-east-1`;

beforeAll(async () => {
  images = startImageHost();
  // The image host stands for a public web server: the gateway is told to trust it by name.
  world = await startRelayWorld({ OUTBOUND_ALLOWED_HOSTS: "localhost" });
  bedrock = await startBedrockUpstream({ credentials: secrets, region: "us-east-1" });
  tokyo = await startBedrockUpstream({ credentials: {}, region: "ap-northeast-1", apiKeys: { "ABSK-tokyo-key": "tokyo-app" } });
  key = (await addToken(world.root)).key;
  const aliases = ["b-signature", "b-throttled", "b-invalid", "b-mid-stream", "b-first-event", "b-bad-key", "b-image", "b-apikey"];
  await setOptions(world, { ModelRatio: JSON.stringify(Object.fromEntries(aliases.map((alias) => [alias, 1]))) });
});
afterAll(async () => {
  await world.stop();
  await bedrock.stop();
  await tokyo.stop();
  await images.stop();
});
beforeEach(async () => {
  bedrock.reset();
  tokyo.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: false });
});

const bedrockChannel = (channel: string, models: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, { type: ChannelType.Bedrock, key: channel, base_url: bedrock.url, models, ...extra });
const mapped = (alias: string, model = "claude-3-5-haiku-20241022") => ({ model_mapping: JSON.stringify({ [alias]: model }) });
const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const weatherTool = {
  type: "function" as const,
  function: {
    name: "weather",
    description: "Weather by city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("requests and answers", () => {
  test("InvokeModel: the model id in the URL, SigV4 headers the imitation verifies, Claude's body for Bedrock", async () => {
    await bedrockChannel(channelKey("AKIABASIC"), "claude-3-5-sonnet-20241022");
    const answer = await openai(world, key).chat.completions.create({
      model: "claude-3-5-sonnet-20241022",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello" },
      ],
      max_tokens: 200,
    });
    const received = bedrock.received[0]!;
    expect(received.accessKeyId).toBe("AKIABASIC");
    expect([received.method, received.rawPath]).toEqual(["POST", "/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke"]);
    expect(received.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIABASIC\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(received.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(received.json).toEqual({
      anthropic_version: "bedrock-2023-05-31",
      max_tokens: 200,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    // (10 + 5 x 5) x 1.5 = 52.5
    expect(n((await lastLog()).quota)).toBe(53);
  });

  test("InvokeModelWithResponseStream: the event stream becomes OpenAI chunks, usage chunk included", async () => {
    await bedrockChannel(channelKey("AKIASTREAM"), "claude-3-5-haiku-20241022");
    // Messages written in two pieces each: the decoder reassembles them across reads.
    bedrock.behave("AKIASTREAM", { inputTokens: 30, cacheReadTokens: 70, splitFrames: true });
    const stream = await openai(world, key).chat.completions.create({
      model: "claude-3-5-haiku-20241022",
      messages: [{ role: "user", content: "Stream please" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = "";
    let usage: any;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(bedrock.received[0]!.rawPath).toBe("/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream");
    expect(bedrock.received[0]!.headers.accept).toBe("application/vnd.amazon.eventstream");
    expect(bedrock.received[0]!.json.stream).toBeUndefined();
    expect(bedrock.received[0]!.json.max_tokens).toBe(8192);
    expect(content).toBe("Hello from the mock Claude.");
    expect(usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 5,
      total_tokens: 105,
      prompt_tokens_details: { cached_tokens: 70 },
    });
    // claude-3-5-haiku ($0.80 / $4: ratio 0.4), completion 5, cache reads 0.1: (30 + 70 x 0.1 + 5 x 5) x 0.4 = 24.8
    const log = await lastLog();
    expect([n(log.quota), n(log.prompt_tokens), JSON.parse(log.other).cache_tokens]).toEqual([25, 100, 70]);
  });

  test("a model served only through an inference profile gets the region's prefix; -thinking turns thinking on", async () => {
    await bedrockChannel(channelKey("AKIAPROFILE"), "claude-3-7-sonnet-20250219-thinking");
    const stream = await openai(world, key).chat.completions.create({
      model: "claude-3-7-sonnet-20250219-thinking",
      messages: [{ role: "user", content: "Think." }],
      stream: true,
    });
    let reasoning = "";
    for await (const chunk of stream)
      reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
    expect(bedrock.received[0]!.rawPath).toBe("/model/us.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke-with-response-stream");
    expect(bedrock.received[0]!.json.thinking).toEqual({ type: "enabled", budget_tokens: 13107 });
    expect(reasoning).toBe("Let me think about it.");
  });

  test("tools both ways with the openai client, streamed and whole", async () => {
    await bedrockChannel(channelKey("AKIATOOLS"), "claude-sonnet-4-20250514");
    const client = openai(world, key);
    const stream = await client.chat.completions.create({
      model: "claude-sonnet-4-20250514",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weatherTool],
      stream: true,
    });
    let id = "";
    let args = "";
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
        id ||= call.id ?? "";
        args += call.function?.arguments ?? "";
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect([finish, JSON.parse(args)]).toEqual(["tool_calls", { city: "Paris" }]);
    expect(bedrock.received[0]!.rawPath).toBe("/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream");

    const answer = await client.chat.completions.create({
      model: "claude-sonnet-4-20250514",
      tools: [weatherTool],
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "weather", arguments: args } }] },
        { role: "tool", tool_call_id: id, content: "18C" },
      ],
    });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    expect(bedrock.received[1]!.json.messages[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: "18C" }],
    });
  });
});

describe("errors and their verdicts", () => {
  test("a signature AWS cannot verify (wrong secret) is a 403 that takes the channel out of service", async () => {
    await setOptions(world, { AutomaticDisableChannelEnabled: true });
    const wrong = await bedrockChannel(channelKey("AKIABASIC", "not-the-secret"), "b-signature", mapped("b-signature"));
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "b-signature",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.status).toBe(403);
    expect(withoutRequestId(response.json).error).toMatchObject({
      type: "permission_error",
      message: expect.stringContaining("The request signature we calculated does not match"),
    });
    expect(await channelStatus(wrong)).toBe(3);
  });

  test("ThrottlingException (429) is retried on another channel", async () => {
    await setOptions(world, { RetryTimes: 1, AutomaticDisableChannelEnabled: true });
    const throttled = await bedrockChannel(channelKey("AKIATHROTTLED"), "b-throttled", { priority: 10, ...mapped("b-throttled") });
    await bedrockChannel(channelKey("AKIASPARE"), "b-throttled", { priority: 0, ...mapped("b-throttled") });
    bedrock.behave("AKIATHROTTLED", { status: 429, errorMessage: "Too many requests, please wait before trying again." });
    const answer = await openai(world, key).chat.completions.create({ model: "b-throttled", messages: [{ role: "user", content: "hi" }] });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    expect(bedrock.received.map((entry) => entry.accessKeyId)).toEqual(["AKIATHROTTLED", "AKIASPARE"]);
    expect(await channelStatus(throttled)).toBe(1);
  });

  test("ValidationException (400) is not retried", async () => {
    await setOptions(world, { RetryTimes: 2 });
    await bedrockChannel(channelKey("AKIAINVALID"), "b-invalid", { priority: 10, ...mapped("b-invalid") });
    await bedrockChannel(channelKey("AKIASPARE"), "b-invalid", { priority: 0, ...mapped("b-invalid") });
    bedrock.behave("AKIAINVALID", { status: 400, errorMessage: "Input is too long for requested model." });
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "b-invalid",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.status).toBe(400);
    expect(withoutRequestId(response.json).error).toMatchObject({
      message: "Input is too long for requested model.",
      type: "invalid_request_error",
    });
    expect(bedrock.received).toHaveLength(1);
  });

  test("modelStreamErrorException opening the stream is retried; in the middle it reaches the client", async () => {
    await setOptions(world, { RetryTimes: 1 });
    await bedrockChannel(channelKey("AKIAFIRSTEVENT"), "b-first-event", { priority: 10, ...mapped("b-first-event") });
    await bedrockChannel(channelKey("AKIASPARE"), "b-first-event", { priority: 0, ...mapped("b-first-event") });
    bedrock.behave("AKIAFIRSTEVENT", { errorInStream: true });
    let content = "";
    for await (const chunk of await openai(world, key).chat.completions.create({
      model: "b-first-event",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    })) {
      content += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(content).toBe("Hello from the mock Claude.");
    expect(bedrock.received.map((entry) => entry.accessKeyId)).toEqual(["AKIAFIRSTEVENT", "AKIASPARE"]);

    await bedrockChannel(channelKey("AKIAMIDSTREAM"), "b-mid-stream", mapped("b-mid-stream"));
    bedrock.behave("AKIAMIDSTREAM", { errorAfterDeltas: 3 });
    let partial = "";
    let failure: Error | undefined;
    try {
      for await (const chunk of await openai(world, key).chat.completions.create({
        model: "b-mid-stream",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      })) {
        partial += chunk.choices[0]?.delta?.content ?? "";
      }
    } catch (error) {
      failure = error as Error;
    }
    expect(partial).toBe("Hello from the ");
    expect(failure?.message).toContain("The model encountered an error processing the stream.");
    expect(n((await lastLog()).completion_tokens)).toBeGreaterThan(0);
  });

  test("a malformed key is a clear channel error, and another channel serves the call", async () => {
    await setOptions(world, { RetryTimes: 1 });
    await bedrockChannel("AKIAONLY|secret", "b-bad-key", { priority: 10, ...mapped("b-bad-key") });
    const alone = await postRelay(world, "/v1/chat/completions", key, { model: "b-bad-key", messages: [{ role: "user", content: "hi" }] });
    expect(alone.status).toBe(500);
    expect(withoutRequestId(alone.json).error).toMatchObject({
      message: "AWS 渠道密钥格式错误，应为 Ak|Sk|Region 或 ApiKey|Region，例如 AKIA…|secret|us-east-1",
      code: "channel_config_error",
    });
    await bedrockChannel(channelKey("AKIASPARE"), "b-bad-key", { priority: 0, ...mapped("b-bad-key") });
    expect(
      (await postRelay(world, "/v1/chat/completions", key, { model: "b-bad-key", messages: [{ role: "user", content: "hi" }] })).status,
    ).toBe(200);
    expect(bedrock.received.map((entry) => entry.accessKeyId)).toEqual(["AKIASPARE"]);
  });

  test("an image link is downloaded (redirect followed) and sent inline, Bedrock taking base64 only", async () => {
    await bedrockChannel(channelKey("AKIASPARE"), "b-image", mapped("b-image"));
    const answer = await openai(world, key).chat.completions.create({
      model: "b-image",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: `${images.url}/cat.png` } },
            { type: "image_url", image_url: { url: `${images.url}/moved` } },
          ],
        },
      ],
    });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: catBase64 } };
    expect(bedrock.received[0]!.json.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What is this?" }, image, image] },
    ]);
  });

  test("a Claude-format call's url image source is inlined too", async () => {
    await bedrockChannel(channelKey("AKIASPARE"), "b-image", mapped("b-image"));
    const response = await postRelay(world, "/v1/messages", key, {
      model: "b-image",
      max_tokens: 100,
      messages: [{ role: "user", content: [{ type: "image", source: { type: "url", url: `${images.url}/cat.png` } }] }],
    });
    expect(response.status).toBe(200);
    expect(bedrock.received[0]!.json.messages[0].content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: catBase64 } },
    ]);
  });

  test("links the gateway must not or cannot fetch are refused with 400 before anything is sent", async () => {
    await bedrockChannel(channelKey("AKIASPARE"), "b-image", mapped("b-image"));
    const ask = (url: string) =>
      postRelay(world, "/v1/chat/completions", key, {
        model: "b-image",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }],
      });
    const cases: [string, string][] = [
      // A private address (the same server by its loopback address, not trusted): never fetched.
      [`${images.privateUrl}/cat.png`, "图片地址指向不允许访问的地址"],
      ["http://169.254.169.254/latest/meta-data/", "图片地址指向不允许访问的地址"],
      [`${images.url}/page`, "下载图片失败：not an image (text/html)"],
      [`${images.url}/missing.png`, "下载图片失败：HTTP 404"],
      [`${images.url}/huge.png`, "图片超过 10 MB，无法转发"],
    ];
    images.served.length = 0;
    for (const [url, message] of cases) {
      const response = await ask(url);
      expect([url, response.status, withoutRequestId(response.json).error.message]).toEqual([url, 400, message]);
    }
    expect(images.served.filter((path) => path === "/cat.png")).toHaveLength(0);
    expect(bedrock.received).toHaveLength(0);
  });
});

describe("Bedrock API keys", () => {
  test("ApiKey|Region: the key as Bearer (nothing signed), the model through the Region's jp. profile, whole and streamed", async () => {
    await addChannel(world, {
      type: ChannelType.Bedrock,
      key: "ABSK-tokyo-key|ap-northeast-1",
      base_url: tokyo.url,
      models: "b-apikey",
      model_mapping: JSON.stringify({ "b-apikey": "claude-sonnet-4-6" }),
    });
    const answer = await openai(world, key).chat.completions.create({ model: "b-apikey", messages: [{ role: "user", content: "Hi" }] });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock Claude.");
    const received = tokyo.received[0]!;
    expect([received.accessKeyId, received.rawPath]).toEqual(["tokyo-app", "/model/jp.anthropic.claude-sonnet-4-6/invoke"]);
    expect(received.headers.authorization).toBe("Bearer ABSK-tokyo-key");
    expect(received.headers["x-amz-date"]).toBeUndefined();
    const stream = await openai(world, key).chat.completions.create({
      model: "b-apikey",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
    });
    let content = "";
    for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? "";
    expect(content).toBe("Hello from the mock Claude.");
    expect(tokyo.received[1]!.rawPath).toBe("/model/jp.anthropic.claude-sonnet-4-6/invoke-with-response-stream");
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens)]).toEqual([10, 5]);
  });

  test("an unknown API key is refused by Bedrock and disables the channel", async () => {
    await setOptions(world, { AutomaticDisableChannelEnabled: true });
    const id = await addChannel(world, {
      type: ChannelType.Bedrock,
      key: "ABSK-revoked|ap-northeast-1",
      base_url: tokyo.url,
      models: "b-apikey",
      model_mapping: JSON.stringify({ "b-apikey": "claude-sonnet-4-6" }),
      priority: 100,
    });
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "b-apikey", messages: [{ role: "user", content: "x" }] });
    expect(response.status).toBe(403);
    expect(await channelStatus(id)).toBe(3);
  });

  test("the imitation accepts what the official AWS SDK sends: SigV4 signed by it, and its bearer token; a wrong secret is refused", async () => {
    const body = JSON.stringify({ anthropic_version: "bedrock-2023-05-31", max_tokens: 20, messages: [{ role: "user", content: "hi" }] });
    const command = (modelId: string) =>
      new InvokeModelCommand({ modelId, body, contentType: "application/json", accept: "application/json" });
    const signed = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: bedrock.url,
      credentials: { accessKeyId: "AKIABASIC", secretAccessKey: secrets.AKIABASIC! },
      requestHandler: new NodeHttpHandler(),
      maxAttempts: 1,
    });
    const answer = await signed.send(command("anthropic.claude-3-5-haiku-20241022-v1:0"));
    expect(JSON.parse(new TextDecoder().decode(answer.body)).content[0].text).toBe("Hello from the mock Claude.");
    expect(bedrock.received[0]!.accessKeyId).toBe("AKIABASIC");
    const bearer = new BedrockRuntimeClient({
      region: "ap-northeast-1",
      endpoint: tokyo.url,
      token: { token: "ABSK-tokyo-key" },
      authSchemePreference: ["httpBearerAuth"],
      requestHandler: new NodeHttpHandler(),
      maxAttempts: 1,
    });
    await bearer.send(command("jp.anthropic.claude-sonnet-4-6"));
    expect(tokyo.received[0]!.headers.authorization).toBe("Bearer ABSK-tokyo-key");
    expect(tokyo.received[0]!.accessKeyId).toBe("tokyo-app");
    const wrong = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: bedrock.url,
      credentials: { accessKeyId: "AKIABASIC", secretAccessKey: "not-the-secret" },
      requestHandler: new NodeHttpHandler(),
      maxAttempts: 1,
    });
    await expect(wrong.send(command("anthropic.claude-3-5-haiku-20241022-v1:0"))).rejects.toMatchObject({
      name: "InvalidSignatureException",
    });
  });
});

describe("channel management", () => {
  test("fetch models lists the Anthropic foundation models by their Claude names (signed call)", async () => {
    const result = await world.root.post("/api/channel/fetch_models", {
      type: ChannelType.Bedrock,
      key: channelKey("AKIAMODELS"),
      base_url: bedrock.url,
    });
    expect(result.body.data).toEqual([
      "claude-3-haiku-20240307",
      "claude-3-5-sonnet-20240620",
      "claude-3-5-sonnet-20241022",
      "claude-3-5-haiku-20241022",
      "claude-3-7-sonnet-20250219",
      "claude-sonnet-4-20250514",
      "claude-sonnet-4-6",
    ]);
    expect([bedrock.received[0]!.path, bedrock.received[0]!.query.byProvider, bedrock.received[0]!.accessKeyId]).toEqual([
      "/foundation-models",
      "Anthropic",
      "AKIAMODELS",
    ]);
  });

  test("the channel test signs and converts like a client's call", async () => {
    const id = await bedrockChannel(channelKey("AKIATEST"), "claude-3-haiku-20240307");
    expect((await world.root.get(`/api/channel/test/${id}`)).body.success).toBe(true);
    expect(bedrock.received[0]!.json).toEqual({
      anthropic_version: "bedrock-2023-05-31",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
  });

  test("the imitation's own checks: AWS's SigV4 vector verifies, a tampered one does not; Bedrock's body rules", async () => {
    const vector = (path: string) => ({
      method: "GET",
      rawPath: path,
      query: new URLSearchParams(),
      headers: new Headers({
        host: "example.amazonaws.com",
        "x-amz-date": "20150830T123600Z",
        authorization:
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
      }),
      body: new Uint8Array(),
    });
    const vectorSecrets = new Map([["AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"]]);
    const at = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));
    expect(verifySigV4(vector("/"), vectorSecrets, { region: "us-east-1", service: "service" }, at)).toEqual({
      ok: true,
      accessKeyId: "AKIDEXAMPLE",
    });
    expect(verifySigV4(vector("/other"), vectorSecrets, { region: "us-east-1", service: "service" }, at)).toMatchObject({
      ok: false,
      type: "InvalidSignatureException",
    });

    // A body with `model`, or without anthropic_version, is refused (unsigned requests first).
    const unsigned = await fetch(`${bedrock.url}/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke`, { method: "POST", body: "{}" });
    expect([unsigned.status, (await unsigned.json()).message]).toEqual([
      403,
      "Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters.",
    ]);
    const signedPost = async (path: string, body: unknown) => {
      const url = `${bedrock.url}${path}`;
      const text = JSON.stringify(body);
      const headers = await signAwsRequest(
        { method: "POST", url, headers: { "content-type": "application/json" }, body: text },
        { credentials: { accessKeyId: "AKIASPARE", secretAccessKey: secrets.AKIASPARE! }, region: "us-east-1", service: "bedrock" },
        new Date(),
      );
      delete headers.host;
      const response = await fetch(url, { method: "POST", headers, body: text });
      return [response.status, (await response.json()).message];
    };
    const base = { anthropic_version: "bedrock-2023-05-31", max_tokens: 5, messages: [{ role: "user", content: "hi" }] };
    expect(
      await signedPost("/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke", { ...base, model: "claude-3-haiku-20240307" }),
    ).toEqual([400, expect.stringContaining("model: Extra inputs are not permitted")]);
    expect(await signedPost("/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke", { ...base, anthropic_version: undefined })).toEqual([
      400,
      expect.stringContaining("anthropic_version"),
    ]);
    expect(await signedPost("/model/anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke", base)).toEqual([
      400,
      expect.stringContaining("with on-demand throughput isn't supported"),
    ]);
    // The same call, well formed, is answered.
    expect(await signedPost("/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke", base)).toEqual([200, undefined]);
  });
});
