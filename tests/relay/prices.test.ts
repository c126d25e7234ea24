// Prices on the relay (issues 24 §4-5, 27 §3): a long-context call billed at its prompt-size
// tier exact to the unit, the hold taking the tier its estimate falls in; a model without a price
// under each UnpricedModelPolicy (refused with an operator-addressed 503 the SDKs do not retry,
// billed at the default ratio, free); relay errors in the client's Accept-Language; an upstream's
// 429 keeping its own reason with secrets scrubbed; and /v1/models in Anthropic's shape for
// Anthropic's clients, through the official @anthropic-ai/sdk.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
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
} from "../helpers/relay-world.ts";

let world: RelayWorld;
let key: string;
let channelId: number;

beforeAll(async () => {
  world = await startRelayWorld();
  channelId = await addChannel(world, { key: "sk-prices", models: "gemini-2.5-pro,unpriced-relay-model,claude-sonnet-4-5-20250929" });
  await addChannel(world, { key: "sk-limited", models: "limited-model" });
  await setOptions(world, { ModelRatio: JSON.stringify({ "limited-model": 1 }) });
  ({ key } = await addToken(world.root, { name: "prices" }));
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const setUserQuota = (quota: number) => world.server.store.query("update users set quota = ? where id = 1", quota);
const userQuota = async () => n((await one(world, "select quota from users where id = 1")).quota);
const lastLog = () => one(world, "select quota, content, other, prompt_tokens from logs where type = 2 order by id desc limit 1");

/** Runs a call and returns what it cost the user, checked against the log and the channel. */
async function charged(call: () => Promise<unknown>): Promise<number> {
  const channelBefore = n((await one(world, "select used_quota from channels where id = ?", channelId)).used_quota);
  const before = await userQuota();
  await call();
  const cost = before - (await userQuota());
  expect(n((await lastLog()).quota)).toBe(cost);
  expect(n((await one(world, "select used_quota from channels where id = ?", channelId)).used_quota) - channelBefore).toBe(cost);
  return cost;
}

describe("prices by prompt size (issue 27 §3)", () => {
  test("a long-context call is billed at its tier, exact to the unit, and the log names the tier", async () => {
    await setUserQuota(100_000_000);
    // Gemini 2.5 Pro: $1.25 / $10 up to 200,000 prompt tokens (ratio 0.625, completion 8), above
    // that $2.50 / $15 (ratio 1.25, completion 6); cache reads a tenth of the input price.
    world.upstream.behave("sk-prices", { promptTokens: 250_001, completionTokens: 1000, cachedTokens: 50_000 });
    const cost = await charged(() =>
      openai(world, key).chat.completions.create({ model: "gemini-2.5-pro", messages: [{ role: "user", content: "a long document" }] }),
    );
    // (250,001 - 50,000 + 50,000 x 0.1 + 1,000 x 6) x 1.25 = 263,751.25
    expect(cost).toBe(263_751);
    const log = await lastLog();
    expect(JSON.parse(log.other)).toMatchObject({
      model_ratio: 1.25,
      completion_ratio: 6,
      price_tier: { above: 200_000 },
      cache_ratio: 0.1,
    });
    expect(log.content).toContain("价格档：提示超过 200000 tokens");
  });

  test("a prompt of exactly the threshold is billed at the base price; a stream settles by its tier too", async () => {
    world.upstream.behave("sk-prices", { promptTokens: 200_000, completionTokens: 1000 });
    expect(
      await charged(() =>
        openai(world, key).chat.completions.create({ model: "gemini-2.5-pro", messages: [{ role: "user", content: "just under" }] }),
      ),
    ).toBe((200_000 + 8000) * 0.625);
    expect(JSON.parse((await lastLog()).other).price_tier).toBeUndefined();
    // Claude Sonnet 4.5 with its 1M context: above 200k, $6 / $22.50 (ratio 3, completion 3.75).
    world.upstream.behave("sk-prices", { promptTokens: 300_000, completionTokens: 400 });
    const streamed = await charged(async () => {
      const stream = await openai(world, key).chat.completions.create({
        model: "claude-sonnet-4-5-20250929",
        messages: [{ role: "user", content: "long" }],
        stream: true,
      });
      for await (const _ of stream);
    });
    expect(streamed).toBe((300_000 + 400 * 3.75) * 3);
  });

  test("the hold uses the tier its estimate falls in", async () => {
    // 250,000 prompt tokens given as token ids (an exact estimate): the base price would hold
    // about 156k quota, the tier about 313k. A balance of 250,000 is refused, 400,000 admitted.
    const input = [Array.from({ length: 250_000 }, () => 1)];
    const embed = () => postRelay(world, "/v1/embeddings", key, { model: "gemini-2.5-pro", input });
    await setUserQuota(250_000);
    const refused = await embed();
    expect(refused.status).toBe(403);
    expect(world.upstream.received).toHaveLength(0);
    await setUserQuota(400_000);
    world.upstream.behave("sk-prices", { promptTokens: 250_000 });
    const admitted = await embed();
    expect(admitted.status).toBe(200);
    expect(await userQuota()).toBe(400_000 - 250_000 * 1.25);
    await setUserQuota(100_000_000);
  });

  test("an operator's own tiers replace the built-in ones; an empty list turns them off", async () => {
    await setOptions(world, { ModelPriceTiers: JSON.stringify({ "gemini-2.5-pro": [{ above: 1000, model_ratio: 2 }] }) });
    world.upstream.behave("sk-prices", { promptTokens: 5000, completionTokens: 100 });
    const chat = () => openai(world, key).chat.completions.create({ model: "gemini-2.5-pro", messages: [{ role: "user", content: "x" }] });
    // Above 1,000: ratio 2, the completion ratio kept (8).
    expect(await charged(chat)).toBe((5000 + 800) * 2);
    await setOptions(world, { ModelPriceTiers: JSON.stringify({ "gemini-2.5-pro": [] }) });
    world.upstream.behave("sk-prices", { promptTokens: 300_000, completionTokens: 100 });
    expect(await charged(chat)).toBe((300_000 + 800) * 0.625);
    const bad = await world.root.put("/api/option/", { key: "ModelPriceTiers", value: '{"gemini-2.5-pro":[{"above":0,"model_ratio":1}]}' });
    expect(bad.body).toMatchObject({ success: false, message: expect.stringContaining("above 须为正整数") });
    await setOptions(world, { ModelPriceTiers: "{}" });
  });
});

describe("a model without a price (issue 24 §4)", () => {
  const unpriced = () =>
    postRelay(world, "/v1/chat/completions", key, { model: "unpriced-relay-model", messages: [{ role: "user", content: "hi" }] });

  test("refused by default: 503 addressed to the operator, naming the setting; the official SDK does not retry it", async () => {
    const response = await unpriced();
    expect(response.status).toBe(503);
    expect(response.headers.get("x-should-retry")).toBe("false");
    const error = withoutRequestId(response.json).error;
    expect(Object.keys(error).sort()).toEqual(["code", "message", "param", "type"]);
    expect(error.code).toBe("model_price_not_configured");
    expect(error.message).toStartWith("模型 unpriced-relay-model 倍率或价格未配置：这是网关的设置问题，不是请求的错误。");
    expect(error.message).toContain("UnpricedModelPolicy");
    let sent = 0;
    const counting = (input: RequestInfo | URL, init?: RequestInit) => (sent++, fetch(input, init));
    const client = new OpenAI({ baseURL: `${world.server.url}/v1`, apiKey: `sk-${key}`, maxRetries: 2, fetch: counting as typeof fetch });
    const caught = await client.chat.completions
      .create({ model: "unpriced-relay-model", messages: [{ role: "user", content: "hi" }] })
      .catch((thrown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.InternalServerError);
    expect(caught.status).toBe(503);
    expect(sent).toBe(1);
    expect(world.upstream.received).toHaveLength(0);
  });

  test("billed at the default ratio when the operator says so (new-api's 30), and the log says why", async () => {
    await setOptions(world, { UnpricedModelPolicy: "ratio", UnpricedModelRatio: 30 });
    world.upstream.behave("sk-prices", { promptTokens: 100, completionTokens: 20 });
    expect(await charged(unpriced)).toBe((100 + 20) * 30);
    const log = await lastLog();
    expect(JSON.parse(log.other)).toMatchObject({ model_ratio: 30, completion_ratio: 1, unpriced_policy: "ratio" });
    expect(log.content).toContain("未定价模型，按默认倍率计费");
  });

  test("free on a self-use gateway: served, logged, nothing charged", async () => {
    await setOptions(world, { UnpricedModelPolicy: "free" });
    world.upstream.behave("sk-prices", { promptTokens: 100, completionTokens: 20 });
    expect(await charged(unpriced)).toBe(0);
    expect(JSON.parse((await lastLog()).other)).toMatchObject({ model_price: 0, unpriced_policy: "free" });
    await setOptions(world, { UnpricedModelPolicy: "refuse" });
    expect((await unpriced()).status).toBe(503);
  });
});

describe("relay errors in the client's language (issue 24 §5)", () => {
  const badKey = (headers: Record<string, string>) =>
    postRelay(world, "/v1/chat/completions", "not-a-real-key", { model: "gemini-2.5-pro", messages: [] }, headers);
  const messageOf = async (headers: Record<string, string>) => withoutRequestId((await badKey(headers)).json).error.message;

  test("Accept-Language picks the console's languages by preference; other languages fall to the operator's default", async () => {
    expect(await messageOf({})).toBe("无效的令牌");
    expect(await messageOf({ "accept-language": "en-US,en;q=0.9" })).toBe("Invalid token");
    expect(await messageOf({ "accept-language": "zh-CN,zh;q=0.9,en;q=0.8" })).toBe("无效的令牌");
    expect(await messageOf({ "accept-language": "fr-FR, en;q=0.5" })).toBe("Invalid token");
    // Traditional Chinese and Japanese are languages of their own (issue 26): what their catalogs
    // lack reads in English, not in Simplified Chinese.
    expect(await messageOf({ "accept-language": "en;q=0.3, zh-TW;q=0.8" })).toBe("Invalid token");
    expect(await messageOf({ "accept-language": "ja-JP, zh;q=0.8" })).toBe("Invalid token");
    expect(await messageOf({ "accept-language": "zh-Hans-CN, zh-TW;q=0.8" })).toBe("无效的令牌");
    expect(await messageOf({ "accept-language": "fr-FR" })).toBe("无效的令牌");
    await setOptions(world, { RelayErrorLanguage: "en" });
    expect(await messageOf({})).toBe("Invalid token");
    expect(await messageOf({ "accept-language": "fr-FR" })).toBe("Invalid token");
    expect(await messageOf({ "accept-language": "zh" })).toBe("无效的令牌");
    // The console's own language choice (the playground's calls) wins.
    expect(await messageOf({ "accept-language": "en", cookie: "lang=zh" })).toBe("无效的令牌");
    await setOptions(world, { RelayErrorLanguage: "zh" });
  });

  test("the OpenAI error object keeps its shape; the unpriced-model error reads in English too", async () => {
    const response = await postRelay(
      world,
      "/v1/chat/completions",
      key,
      { model: "unpriced-relay-model", messages: [{ role: "user", content: "hi" }] },
      { "accept-language": "en" },
    );
    const error = withoutRequestId(response.json).error;
    expect(Object.keys(response.json)).toEqual(["error"]);
    expect(error).toEqual({
      message:
        "Model unpriced-relay-model has no price configured: this is a gateway configuration problem, not a fault of this request. Gateway operator: price it in Settings → Models (ModelRatio or ModelPrice), or on the unpriced-models page, or change how unpriced models are handled (UnpricedModelPolicy)",
      type: "new_api_error",
      param: null,
      code: "model_price_not_configured",
    });
  });
});

describe("an upstream's 429 (issue 24 §5)", () => {
  test("keeps the upstream's own reason, scrubbed of keys, tokens and addresses", async () => {
    world.upstream.behave("sk-limited", {
      status: 429,
      retryAfter: "7",
      errorBody: {
        error: {
          message:
            "Rate limit reached for limited-model in organization org-1 on tokens per min (TPM): Limit 30000, Used 29990. Key sk-proj-SECRET0123456789 (Bearer abc.def.ghi) via https://internal.example/v1?key=leaky-9f8e from 10.0.3.7",
          type: "rate_limit_exceeded",
          code: "rate_limit_exceeded",
        },
      },
    });
    const ask = (headers: Record<string, string> = {}) =>
      postRelay(world, "/v1/chat/completions", key, { model: "limited-model", messages: [{ role: "user", content: "hi" }] }, headers);
    const response = await ask();
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    const message = withoutRequestId(response.json).error.message as string;
    expect(message).toStartWith(
      "当前分组上游负载已饱和，请稍后再试（上游原因：Rate limit reached for limited-model in organization org-1 on tokens per min (TPM): Limit 30000, Used 29990.",
    );
    for (const secret of ["SECRET0123456789", "abc.def.ghi", "internal.example", "leaky-9f8e", "10.0.3.7"])
      expect(message).not.toContain(secret);
    const english = withoutRequestId((await ask({ "accept-language": "en" })).json).error.message as string;
    expect(english).toStartWith(
      "The upstreams of this group are saturated, please try again later (upstream's reason: Rate limit reached for limited-model",
    );
  });
});

describe("/v1/models for Anthropic's clients (issue 24 §5)", () => {
  const client = () => new Anthropic({ baseURL: world.server.url, apiKey: `sk-${key}`, maxRetries: 0 });

  test("the official SDK's models.list() pages through the same models as the OpenAI list", async () => {
    const openaiIds = (await openai(world, key).models.list()).data.map((model) => model.id);
    const ids: string[] = [];
    for await (const model of client().models.list({ limit: 2 })) {
      expect(model).toMatchObject({ type: "model", display_name: model.id, created_at: "2021-07-20T10:40:00Z" });
      ids.push(model.id);
    }
    expect(ids).toEqual(openaiIds);
    expect(ids.length).toBeGreaterThan(2);
    const page = await client().models.list({ limit: 2 });
    expect(page.data.map((model) => model.id)).toEqual(openaiIds.slice(0, 2));
    expect(page.has_more).toBe(true);
  });

  test("retrieve answers one model; an unknown one is Anthropic's 404, a bad key its 401", async () => {
    expect(await client().models.retrieve("gemini-2.5-pro")).toMatchObject({ type: "model", id: "gemini-2.5-pro" });
    const missing = await client()
      .models.retrieve("no-such-model")
      .catch((thrown) => thrown);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect(missing.error).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    const denied = await new Anthropic({ baseURL: world.server.url, apiKey: "sk-wrong", maxRetries: 0 }).models
      .list()
      .catch((thrown) => thrown);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    // Without Anthropic's headers the list stays OpenAI's.
    const plain = await fetch(`${world.server.url}/v1/models`, { headers: { authorization: `Bearer sk-${key}` } });
    expect((await plain.json()).object).toBe("list");
    const bearer = await fetch(`${world.server.url}/v1/models?limit=1`, {
      headers: { authorization: `Bearer sk-${key}`, "anthropic-version": "2023-06-01" },
    });
    expect(await bearer.json()).toMatchObject({ data: [{ type: "model" }], has_more: true });
  });
});
