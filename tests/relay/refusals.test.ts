// Every refusal of a token or user, with its exact OpenAI error object and status (new-api's
// messages, issue 3 §3), and the guards (rate limit, sensitive words, price, channel). A refused
// request never reaches the upstream and never moves quota.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { newUserSession, type ApiSession } from "../helpers/api-session.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  postRelay,
  setOptions,
  startRelayWorld,
  withoutRequestId,
  type RelayWorld,
  reservedFor,
} from "../helpers/relay-world.ts";

let world: RelayWorld;
let rootKey: string;
let channelId: number;

beforeAll(async () => {
  world = await startRelayWorld();
  channelId = await addChannel(world, { key: "sk-refusals", models: "gpt-4o-mini,unpriced-model" });
  rootKey = (await addToken(world.root, { name: "root-token" })).key;
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const chat = (key: string | undefined, model = "gpt-4o-mini", extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  postRelay(world, "/v1/chat/completions", key, { model, messages: [{ role: "user", content: "hi" }], ...extra }, headers);

const errorOf = (message: string, code: string | null = null) => ({ error: { message, type: "new_api_error", param: null, code } });

async function expectRefusal(
  call: Promise<{ status: number; json: any; headers: Headers }>,
  status: number,
  message: string,
  code: string | null = null,
) {
  const response = await call;
  expect({ status: response.status, body: withoutRequestId(response.json) }).toEqual({ status, body: errorOf(message, code) });
  expect(response.json.error.message).toEndWith(` (request id: ${response.headers.get("x-oneapi-request-id")})`);
  return response;
}

describe("tokens", () => {
  test("no key, an unknown key, the Bearer word alone", async () => {
    await expectRefusal(chat(undefined), 401, "未提供令牌");
    await expectRefusal(chat("not-a-real-key-0000000000000000000000000000000000"), 401, "无效的令牌");
    await expectRefusal(
      postRelay(world, "/v1/chat/completions", undefined, { model: "gpt-4o-mini", messages: [] }, { authorization: "Bearer " }),
      401,
      "未提供令牌",
    );
  });

  test("a disabled token is refused at once, through the cache, and works again when enabled", async () => {
    const token = await addToken(world.root, { name: "toggle" });
    expect((await chat(token.key)).status).toBe(200);
    await world.root.put("/api/token/?status_only=true", { id: token.id, status: 2 });
    await expectRefusal(chat(token.key), 401, "该令牌状态不可用");
    await world.root.put("/api/token/?status_only=true", { id: token.id, status: 1 });
    expect((await chat(token.key)).status).toBe(200);
  });

  test("a deleted token is unknown", async () => {
    const token = await addToken(world.root, { name: "doomed" });
    expect((await chat(token.key)).status).toBe(200);
    await world.root.delete(`/api/token/${token.id}/`);
    await expectRefusal(chat(token.key), 401, "无效的令牌");
  });

  test("an expired token is refused and marked expired", async () => {
    const token = await addToken(world.root, { name: "old", expired_time: Math.floor(Date.now() / 1000) - 60 });
    await expectRefusal(chat(token.key), 401, "该令牌已过期");
    await Bun.sleep(50);
    expect(n((await one(world, "select status from tokens where id = ?", token.id)).status)).toBe(3);
    await expectRefusal(chat(token.key), 401, "该令牌已过期");
  });

  test("an exhausted token is refused and marked exhausted", async () => {
    const token = await addToken(world.root, { name: "empty", unlimited_quota: false, remain_quota: 0 });
    await expectRefusal(chat(token.key), 401, "该令牌额度已用尽");
    await Bun.sleep(50);
    expect(n((await one(world, "select status from tokens where id = ?", token.id)).status)).toBe(4);
  });

  test("model limits", async () => {
    const limited = await addToken(world.root, { name: "only-4o", model_limits_enabled: true, model_limits: "gpt-4o" });
    await expectRefusal(chat(limited.key), 403, "该令牌无权访问模型 gpt-4o-mini");
    const none = await addToken(world.root, { name: "nothing", model_limits_enabled: true, model_limits: "" });
    await expectRefusal(chat(none.key), 403, "该令牌无权访问任何模型");
    const allowed = await addToken(world.root, { name: "mini", model_limits_enabled: true, model_limits: "gpt-4o-mini" });
    expect((await chat(allowed.key)).status).toBe(200);
  });

  test("the client address allow-list", async () => {
    const elsewhere = await addToken(world.root, { name: "office", allow_ips: "10.9.9.9\n10.9.9.10" });
    await expectRefusal(chat(elsewhere.key), 403, "您的 IP 不在令牌允许访问的列表中");
    const here = await addToken(world.root, { name: "local", allow_ips: "10.9.9.9\n127.0.0.1" });
    expect((await chat(here.key)).status).toBe(200);
    // Ranges, as the token form accepts them.
    const range = await addToken(world.root, { name: "loopback-range", allow_ips: "127.0.0.0/8" });
    expect((await chat(range.key)).status).toBe(200);
    const otherRange = await addToken(world.root, { name: "private-range", allow_ips: "10.0.0.0/8\n2001:db8::/32" });
    await expectRefusal(chat(otherRange.key), 403, "您的 IP 不在令牌允许访问的列表中");
  });

  test("a token group the owner may no longer use, or that no longer has a ratio", async () => {
    await setOptions(world, {
      UserUsableGroups: JSON.stringify({ default: "默认分组", vip: "vip", legacy: "legacy" }),
      GroupRatio: JSON.stringify({ default: 1, vip: 1, legacy: 1 }),
    });
    const vip = await addToken(world.root, { name: "vip", group: "vip" });
    const legacy = await addToken(world.root, { name: "legacy", group: "legacy" });
    await setOptions(world, {
      UserUsableGroups: JSON.stringify({ default: "默认分组", legacy: "legacy" }),
      GroupRatio: JSON.stringify({ default: 1, vip: 1 }),
    });
    await expectRefusal(chat(vip.key), 403, "令牌分组 vip 已被禁用");
    await expectRefusal(chat(legacy.key), 403, "分组 legacy 已被弃用");
    await setOptions(world, {
      UserUsableGroups: JSON.stringify({ default: "默认分组", vip: "vip分组" }),
      GroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }),
    });
  });

  test("a common user cannot pin a channel; admins can, and a bad or disabled one is refused", async () => {
    const user = await newUserSession(world.server.url, "pinner");
    await world.server.store.query("update users set quota = 1000000 where username = ?", "pinner");
    const userToken = await addToken(user, { name: "p" });
    await expectRefusal(chat(`${userToken.key}-${channelId}`), 403, "普通用户不支持指定渠道");
    await expectRefusal(chat(`${rootKey}-abc`), 400, "无效的渠道 Id");
    await expectRefusal(chat(`${rootKey}-99999`), 400, "无效的渠道 Id");
    // Pinning bypasses the group's model list: the channel serves whatever it is sent.
    expect((await chat(`${rootKey}-${channelId}`, "gpt-4o-mini")).status).toBe(200);
    expect(world.upstream.received).toHaveLength(1);
    const disabled = await addChannel(world, { key: "sk-off", models: "gpt-4o-mini" });
    await world.root.put("/api/channel/", { id: disabled, status: 2 });
    await expectRefusal(chat(`${rootKey}-${disabled}`), 403, "该渠道已被禁用");
  });
});

describe("users", () => {
  let user: ApiSession;
  let key: string;
  beforeAll(async () => {
    user = await newUserSession(world.server.url, "poor");
    key = (await addToken(user, { name: "poor" })).key;
  });

  test("a user without quota is refused before the upstream is called", async () => {
    await expectRefusal(chat(key), 403, "用户额度不足", "insufficient_user_quota");
    expect(world.upstream.received).toHaveLength(0);
    expect(await reservedFor(world, { userId: user.userId!, tokenKey: key })).toBe(false);
  });

  test("a limited token cannot reserve more than it has left", async () => {
    await world.server.store.query("update users set quota = 1000000 where username = ?", "poor");
    const small = await addToken(user, { name: "small", unlimited_quota: false, remain_quota: 3 });
    await expectRefusal(chat(small.key, "gpt-4o-mini", { max_tokens: 1000 }), 403, "令牌额度不足", "pre_consume_token_quota_failed");
    expect(n((await one(world, "select remain_quota from tokens where id = ?", small.id)).remain_quota)).toBe(3);
    expect(n((await one(world, "select quota from users where username = ?", "poor")).quota)).toBe(1000000);
  });

  test("a banned user", async () => {
    const banned = await newUserSession(world.server.url, "banned");
    const bannedKey = (await addToken(banned, { name: "b" })).key;
    await world.server.store.query("update users set status = 2 where username = ?", "banned");
    await expectRefusal(chat(bannedKey), 403, "用户已被封禁");
  });

  test("a ban, an unban and a deletion from user management reach a user already in the cache at once", async () => {
    const member = await newUserSession(world.server.url, "managed");
    await world.server.store.query("update users set quota = 10000000 where username = ?", "managed");
    const key = (await addToken(member, { name: "m" })).key;
    expect((await chat(key)).status).toBe(200);
    const manage = (action: string) => world.root.post("/api/user/manage", { id: member.userId, action });
    expect((await manage("disable")).body.data).toEqual({ status: 2, role: 1 });
    await expectRefusal(chat(key), 403, "用户已被封禁");
    expect((await manage("enable")).body.data).toEqual({ status: 1, role: 1 });
    expect((await chat(key)).status).toBe(200);
    expect((await manage("delete")).body.success).toBe(true);
    await expectRefusal(chat(key), 401, "无效的令牌");
  });
});

describe("guards", () => {
  test("a model served only in another group: 503 naming both", async () => {
    await addChannel(world, { key: "sk-refusals-vip", models: "gpt-4o", group: "vip" });
    const response = await expectRefusal(chat(rootKey, "gpt-4o"), 503, "当前分组 default 下对于模型 gpt-4o 无可用渠道");
    expect(response.headers.get("retry-after")).toBeNull();
  });

  test("a model no channel serves in any group: 404 model_not_found, which the SDKs do not retry (issue 15 §5)", async () => {
    await expectRefusal(chat(rootKey, "gpt-4o-typo"), 404, "模型 gpt-4o-typo 不存在", "model_not_found");
    // The official client with its default retries, counting what it sends.
    let sent = 0;
    const counting = (input: RequestInfo | URL, init?: RequestInit) => (sent++, fetch(input, init));
    const client = new OpenAI({
      baseURL: `${world.server.url}/v1`,
      apiKey: `sk-${rootKey}`,
      maxRetries: 2,
      fetch: counting as typeof fetch,
    });
    const error = await client.chat.completions
      .create({ model: "gpt-4o-typo", messages: [{ role: "user", content: "hi" }] })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.code).toBe("model_not_found");
    expect(sent).toBe(1);
    expect(world.upstream.received).toHaveLength(0);
  });

  test("a model without a price is refused, not served free: the operator's 503, not the client's 400", async () => {
    await expectRefusal(
      chat(rootKey, "unpriced-model"),
      503,
      "模型 unpriced-model 倍率或价格未配置：这是网关的设置问题，不是请求的错误。请网关管理员在「系统设置 → 模型」中为它定价（或在「未定价模型」页面一次定价），或修改未定价模型的处理方式（UnpricedModelPolicy）",
      "model_price_not_configured",
    );
    expect(world.upstream.received).toHaveLength(0);
  });

  test("sensitive words in the prompt", async () => {
    const response = await postRelay(world, "/v1/chat/completions", rootKey, {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "say TEST_SENSITIVE now" }],
    });
    expect({ status: response.status, body: withoutRequestId(response.json) }).toEqual({
      status: 400,
      body: errorOf("请求包含敏感词：test_sensitive", "sensitive_words_detected"),
    });
    await setOptions(world, { CheckSensitiveOnPromptEnabled: false });
    expect(
      (
        await postRelay(world, "/v1/chat/completions", rootKey, {
          model: "gpt-4o-mini",
          messages: [{ role: "user", content: "say test_sensitive" }],
        })
      ).status,
    ).toBe(200);
    await setOptions(world, { CheckSensitiveOnPromptEnabled: true });
  });

  test("the model request rate limit: all requests, then successful ones", async () => {
    const limited = await newUserSession(world.server.url, "limited");
    await world.server.store.query("update users set quota = 1000000 where username = ?", "limited");
    const limitedKey = (await addToken(limited, { name: "l" })).key;
    await setOptions(world, {
      ModelRequestRateLimitEnabled: true,
      ModelRequestRateLimitCount: 2,
      ModelRequestRateLimitSuccessCount: 1000,
      ModelRequestRateLimitDurationMinutes: 1,
    });
    expect((await chat(limitedKey)).status).toBe(200);
    expect((await chat(limitedKey, "gpt-4o")).status).toBe(503); // failures count too
    const total = await expectRefusal(
      chat(limitedKey),
      429,
      "您已达到总请求数限制：1分钟内最多请求2次，包括失败次数，请检查您的请求是否正确",
    );
    const wait = Number(total.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);

    const other = await newUserSession(world.server.url, "limited2");
    await world.server.store.query("update users set quota = 1000000 where username = ?", "limited2");
    const otherKey = (await addToken(other, { name: "l2" })).key;
    await setOptions(world, { ModelRequestRateLimitCount: 0, ModelRequestRateLimitSuccessCount: 1 });
    expect((await chat(otherKey, "gpt-4o")).status).toBe(503); // a failure is not a success
    expect((await chat(otherKey)).status).toBe(200);
    const success = await expectRefusal(chat(otherKey), 429, "您已达到请求数限制：1分钟内最多请求1次");
    expect(success.headers.get("retry-after")).toBe("60");
    await setOptions(world, { ModelRequestRateLimitEnabled: false });
  });

  test("rerank names only the fields that are missing, and refuses empty documents (issue 15 §5)", async () => {
    const rerank = (body: Record<string, unknown>) =>
      postRelay(world, "/v1/rerank", rootKey, { model: "BAAI/bge-reranker-v2-m3", ...body });
    await expectRefusal(rerank({ query: "q" }), 400, "缺少必填字段 documents", "invalid_request");
    await expectRefusal(rerank({ documents: ["a"] }), 400, "缺少必填字段 query", "invalid_request");
    await expectRefusal(rerank({}), 400, "缺少必填字段 query, documents", "invalid_request");
    await expectRefusal(rerank({ query: "q", documents: [] }), 400, "documents 不能为空", "invalid_request");
    expect(world.upstream.received).toHaveLength(0);
  });

  test("malformed requests", async () => {
    const notJson = await postRelay(world, "/v1/chat/completions", rootKey, "{not json");
    expect(notJson.status).toBe(400);
    expect(withoutRequestId(notJson.json).error).toEqual({
      message: "请求体不是合法的 JSON",
      type: "new_api_error",
      param: null,
      code: "invalid_request",
    });
    const noMessages = await postRelay(world, "/v1/chat/completions", rootKey, { model: "gpt-4o-mini", messages: [] });
    expect(withoutRequestId(noMessages.json).error.message).toBe("缺少必填字段 messages");
    const noModel = await postRelay(world, "/v1/chat/completions", rootKey, { messages: [{ role: "user", content: "x" }] });
    expect(withoutRequestId(noModel.json).error.message).toBe("缺少必填字段 model");
    const hugeMax = await chat(rootKey, "gpt-4o-mini", { max_tokens: 2 ** 31 });
    expect(withoutRequestId(hugeMax.json).error.message).toBe("max_tokens 无效");
    expect(world.upstream.received).toHaveLength(0);
  });

  test("English when the caller's language cookie says so", async () => {
    const response = await chat(undefined, "gpt-4o-mini", {}, { cookie: "lang=en" });
    expect(withoutRequestId(response.json).error.message).toBe("No token provided");
  });
});
