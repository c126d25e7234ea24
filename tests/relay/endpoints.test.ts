// Every /v1 endpoint of issue 3 through the official openai client, streamed and not: the answer
// arrives as the upstream gave it, the request reaches the upstream faithfully (unknown fields
// included), and each call leaves one consumption log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toFile } from "openai";
import { addChannel, addToken, n, one, openai, postRelay, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let key: string;
let client: ReturnType<typeof openai>;

beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, {
    key: "sk-endpoints",
    models:
      "gpt-4o-mini,gpt-3.5-turbo-instruct,text-embedding-3-small,omni-moderation-latest,text-moderation-stable,BAAI/bge-reranker-v2-m3,dall-e-2,dall-e-3,tts-1,whisper-1",
  });
  await world.root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "BAAI/bge-reranker-v2-m3": 0.1 }) });
  key = (await addToken(world.root)).key;
  client = openai(world, key);
});
afterAll(() => world.stop());

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const lastReceived = () => world.upstream.received[world.upstream.received.length - 1]!;

describe("chat completions", () => {
  test("non-streamed: the upstream's answer, the client's body forwarded with unknown fields", async () => {
    const answer = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      // A field the gateway does not know must reach the upstream untouched.
      ...({ vendor_extension: { keep: ["me", 1] } } as object),
    });
    expect(answer.choices[0]!.message.content).toBe("Hello from the mock upstream.");
    expect(answer.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(lastReceived().json).toEqual({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      vendor_extension: { keep: ["me", 1] },
    });
    expect(lastReceived().path).toBe("/v1/chat/completions");
    expect(lastReceived().key).toBe("sk-endpoints");
    const log = await lastLog();
    expect([log.model_name, n(log.prompt_tokens), n(log.completion_tokens), Boolean(n(log.is_stream))]).toEqual([
      "gpt-4o-mini",
      10,
      5,
      false,
    ]);
  });

  test("streamed without include_usage: usage is asked upstream but not shown", async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Hello from the ");
    expect(chunks.every((chunk) => chunk.choices.length > 0 && !chunk.usage)).toBe(true);
    expect(lastReceived().json.stream_options).toEqual({ include_usage: true });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), Boolean(n(log.is_stream))]).toEqual([10, 3, true]);
  });

  test("streamed with include_usage: the usage chunk arrives", async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[chunks.length - 1]!.usage).toEqual({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
  });

  test("the stream ends with [DONE] and the request id header", async () => {
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    expect(response.text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(response.headers.get("x-oneapi-request-id")).toMatch(/^\d{20}[A-Za-z0-9]{8}$/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("completions", () => {
  test("non-streamed and streamed", async () => {
    const answer = await client.completions.create({ model: "gpt-3.5-turbo-instruct", prompt: "Say hi" });
    expect(answer.choices[0]!.text).toBe("Hello from the mock upstream.");
    const stream = await client.completions.create({ model: "gpt-3.5-turbo-instruct", prompt: "Say hi", stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? "";
    expect(text).toBe("Hello from the ");
    expect(lastReceived().path).toBe("/v1/completions");
  });
});

describe("embeddings", () => {
  test("by body and by the engines path", async () => {
    const answer = await client.embeddings.create({ model: "text-embedding-3-small", input: ["a", "b"], encoding_format: "float" });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [0.1, 0.2, 0.3],
      [0.1, 0.2, 0.3],
    ]);
    expect((await lastLog()).model_name).toBe("text-embedding-3-small");
    const viaEngine = await postRelay(world, "/v1/engines/text-embedding-3-small/embeddings", key, { input: "hello" });
    expect(viaEngine.status).toBe(200);
    expect(lastReceived().json.model).toBe("text-embedding-3-small");
  });
});

describe("moderations and rerank", () => {
  test("moderations default to text-moderation-stable", async () => {
    const answer = await client.moderations.create({ input: "hello" });
    expect(answer.results[0]!.flagged).toBe(false);
    expect((await lastLog()).model_name).toBe("text-moderation-stable");
    await client.moderations.create({ model: "omni-moderation-latest", input: "hello" });
    expect(lastReceived().json.model).toBe("omni-moderation-latest");
  });

  test("rerank", async () => {
    const response = await postRelay(world, "/v1/rerank", key, { model: "BAAI/bge-reranker-v2-m3", query: "q", documents: ["a", "b"] });
    expect(response.status).toBe(200);
    expect(response.json.results).toHaveLength(2);
    expect(n((await lastLog()).prompt_tokens)).toBe(12);
  });
});

describe("images", () => {
  test("generations", async () => {
    const answer = await client.images.generate({ model: "dall-e-3", prompt: "a cat", n: 1, size: "1024x1024" });
    expect(answer.data![0]!.url).toBe("https://images.example/0.png");
    expect((await lastLog()).content).toContain("大小 1024x1024");
  });

  test("edits (multipart, forwarded as sent)", async () => {
    const answer = await client.images.edit({
      model: "dall-e-2",
      image: await toFile(new Uint8Array([137, 80, 78, 71]), "cat.png", { type: "image/png" }),
      prompt: "a hat",
      n: 2,
      size: "512x512",
    });
    expect(answer.data).toHaveLength(2);
    expect(lastReceived().path).toBe("/v1/images/edits");
    expect(lastReceived().fields).toMatchObject({ model: "dall-e-2", prompt: "a hat", n: "2", size: "512x512" });
    expect(lastReceived().files).toEqual(["image"]);
  });
});

describe("audio", () => {
  test("speech returns the upstream's bytes", async () => {
    const speech = await client.audio.speech.create({ model: "tts-1", voice: "alloy", input: "Hello there" });
    expect(speech.headers.get("content-type")).toBe("audio/mpeg");
    expect([...new Uint8Array(await speech.arrayBuffer())]).toEqual([0x49, 0x44, 0x33, 0x04, 0x00, 0x01, 0x02, 0x03]);
    expect(n((await lastLog()).prompt_tokens)).toBe("Hello there".length);
  });

  test("transcriptions and translations (multipart), JSON and text answers", async () => {
    const file = await toFile(new Uint8Array([1, 2, 3, 4]), "speech.mp3", { type: "audio/mpeg" });
    const transcript = await client.audio.transcriptions.create({ model: "whisper-1", file });
    expect(transcript.text).toBe("the quick brown fox jumps over the lazy dog");
    expect(lastReceived().files).toEqual(["file"]);
    const text = await client.audio.transcriptions.create({ model: "whisper-1", file, response_format: "text" });
    expect(String(text).trim()).toBe("the quick brown fox jumps over the lazy dog");
    const translation = await client.audio.translations.create({ model: "whisper-1", file });
    expect(translation.text).toBe("the quick brown fox jumps over the lazy dog");
    expect(lastReceived().path).toBe("/v1/audio/translations");
    expect(n((await lastLog()).completion_tokens)).toBeGreaterThan(0);
  });
});

describe("models", () => {
  test("list and retrieve what the token's group may use", async () => {
    const list = await client.models.list();
    const ids = list.data.map((model) => model.id);
    expect(ids).toContain("gpt-4o-mini");
    expect(ids).toContain("BAAI/bge-reranker-v2-m3");
    expect(list.data.find((model) => model.id === "gpt-4o-mini")!.owned_by).toBe("openai");
    expect((await client.models.retrieve("gpt-4o-mini")).id).toBe("gpt-4o-mini");
    const missing = await fetch(`${world.server.url}/v1/models/nope`, { headers: { authorization: `Bearer sk-${key}` } });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toEqual({
      message: "The model 'nope' does not exist",
      type: "invalid_request_error",
      param: "model",
      code: "model_not_found",
    });
  });

  test("a token with model limits lists exactly those", async () => {
    const limited = await addToken(world.root, { name: "limited", model_limits_enabled: true, model_limits: "gpt-4o-mini,tts-1" });
    const ids = (await openai(world, limited.key).models.list()).data.map((model) => model.id);
    expect(ids).toEqual(["gpt-4o-mini", "tts-1"]);
  });
});

describe("legacy billing endpoints", () => {
  test("a limited token's grant and use, in dollars; unlimited tokens show 100000000", async () => {
    const limited = await addToken(world.root, { name: "billing", unlimited_quota: false, remain_quota: 1_000_000 });
    await world.server.store.query("update tokens set remain_quota = 750000, used_quota = 250000 where id = ?", limited.id);
    const get = async (path: string, token: string) =>
      (await fetch(`${world.server.url}${path}`, { headers: { authorization: `Bearer sk-${token}` } })).json();
    expect(await get("/v1/dashboard/billing/subscription", limited.key)).toEqual({
      object: "billing_subscription",
      has_payment_method: true,
      soft_limit_usd: 2,
      hard_limit_usd: 2,
      system_hard_limit_usd: 2,
      access_until: 0,
    });
    expect(await get("/dashboard/billing/usage", limited.key)).toEqual({ object: "list", total_usage: 50 });
    expect((await get("/dashboard/billing/subscription", key)).hard_limit_usd).toBe(100_000_000);
    const refused = await fetch(`${world.server.url}/dashboard/billing/usage`);
    expect(refused.status).toBe(401);
  });
});

describe("the relay face", () => {
  test("unknown /v1 paths answer 404 in the OpenAI shape; unimplemented ones 501", async () => {
    const unknown = await postRelay(world, "/v1/nothing", key, {});
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toBe("Invalid URL (POST /v1/nothing)");
    const variations = await postRelay(world, "/v1/images/variations", key, {});
    expect(variations.status).toBe(501);
    expect(variations.json.error.code).toBe("api_not_implemented");
  });

  test("browsers may call it (CORS preflight)", async () => {
    const preflight = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: {
        origin: "https://chat.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });
});
