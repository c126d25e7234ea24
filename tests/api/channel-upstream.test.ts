// The channel endpoints that reach the upstream (through the relay's adaptors, against the
// imitation upstream): test one and all, fetch models on create and edit, update balances.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let server: TestServer;
let upstream: Upstream;
let root: ApiSession;
beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(async () => {
  await server.stop();
  await upstream.stop();
});

async function channel(fields: Record<string, unknown>): Promise<number> {
  const result = await root.post("/api/channel/", {
    type: ChannelType.OpenAI,
    base_url: upstream.url,
    models: "gpt-4o-mini,gpt-4o",
    group: "default",
    ...fields,
  });
  expect(result.body.success).toBe(true);
  return result.body.data[0].id;
}
const row = async (id: number) => (await server.store.query<Record<string, any>>("select * from channels where id = ?", id))[0]!;

describe("tests", () => {
  test("one channel: success with the time in seconds, response time stored, a test log for root", async () => {
    const id = await channel({ name: "tested", key: "sk-test-one" });
    const result = await root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(typeof result.body.time).toBe("number");
    expect(result.body.message).toBe(`通道 tested 测试成功，耗时 ${result.body.time.toFixed(2)} 秒。`);
    const stored = await row(id);
    expect(Number(stored.test_time)).toBeGreaterThan(0);
    expect(Number(stored.response_time)).toBeGreaterThanOrEqual(0);
    const logs = await server.store.query<{ user_id: number; token_name: string; model_name: string; quota: number }>(
      "select user_id, token_name, model_name, quota from logs where channel_id = ?",
      id,
    );
    expect(logs.map((log) => [Number(log.user_id), log.token_name, log.model_name, Number(log.quota)])).toEqual([
      [1, "模型测试", "gpt-4o-mini", 0],
    ]);
  });

  test("a chosen model is the one sent; a failing upstream gives success false with its message", async () => {
    const id = await channel({ name: "chosen", key: "sk-test-model" });
    expect((await root.get(`/api/channel/test/${id}?model=gpt-4o`)).body.success).toBe(true);
    expect(upstream.receivedBy("sk-test-model").at(-1)!.json.model).toBe("gpt-4o");
    const broken = await channel({ name: "broken", key: "sk-test-broken" });
    upstream.behave("sk-test-broken", { status: 500 });
    const result = await root.get(`/api/channel/test/${broken}`);
    expect(result.body.success).toBe(false);
    expect(result.body.message).toContain("mock failure 500");
    expect((await root.get("/api/channel/test/999999")).body).toEqual({ success: false, message: "渠道不存在" });
  });

  test("test all starts in the background and tests every channel", async () => {
    const id = await channel({ name: "later", key: "sk-test-all" });
    const result = await root.get("/api/channel/test");
    expect(result.body).toEqual({ success: true, message: "已成功开始测试所有渠道，请刷新页面查看结果。" });
    for (let attempt = 0; attempt < 100 && Number((await row(id)).test_time) === 0; attempt++) await Bun.sleep(50);
    expect(Number((await row(id)).test_time)).toBeGreaterThan(0);
  });
});

describe("fetch models", () => {
  test("on edit: the upstream's list with the stored key", async () => {
    const id = await channel({ name: "models", key: "sk-fetch-edit" });
    expect((await root.get(`/api/channel/fetch_models/${id}`)).body.data).toEqual(["gpt-4o-mini", "gpt-4o", "text-embedding-3-small"]);
    expect(upstream.receivedBy("sk-fetch-edit").at(-1)!.path).toBe("/v1/models");
  });

  test("on create: needs a key; uses the form's base URL (trailing /v1 tolerated) and first key", async () => {
    expect((await root.post("/api/channel/fetch_models", { type: ChannelType.OpenAI, base_url: upstream.url })).body).toEqual({
      success: false,
      message: "请填写密钥",
    });
    const result = await root.post("/api/channel/fetch_models", {
      type: ChannelType.OpenAI,
      base_url: `${upstream.url}/v1/`,
      key: "sk-fetch-new\nsk-second",
    });
    expect(result.body.data).toContain("gpt-4o");
    expect(upstream.receivedBy("sk-fetch-new")).toHaveLength(1);
    upstream.behave("sk-fetch-bad", { status: 401 });
    expect(
      (await root.post("/api/channel/fetch_models", { type: ChannelType.OpenAI, base_url: upstream.url, key: "sk-fetch-bad" })).body
        .success,
    ).toBe(false);
  });
});

describe("balances", () => {
  test("one channel: the provider's balance is stored with its time; kinds without one say so", async () => {
    const id = await channel({ name: "billing", key: "sk-balance" });
    const result = await root.get(`/api/channel/update_balance/${id}/`);
    expect(result.body.success).toBe(true);
    expect(result.body.balance).toBeGreaterThan(0);
    const stored = await row(id);
    expect(Number(stored.balance)).toBe(result.body.balance);
    expect(Number(stored.balance_updated_time)).toBeGreaterThan(0);
    const mistral = await channel({ name: "mistral", type: ChannelType.Mistral, key: "sk-mistral" });
    expect((await root.get(`/api/channel/update_balance/${mistral}/`)).body).toEqual({ success: false, message: "尚未实现" });
  });

  test("all enabled channels, disabled ones skipped", async () => {
    const enabled = await channel({ name: "all-a", key: "sk-balance-all" });
    const disabled = await channel({ name: "all-b", key: "sk-balance-off" });
    await root.put("/api/channel/", { id: disabled, status: 2 });
    const result = await root.get("/api/channel/update_balance");
    expect(result.body.success).toBe(true);
    expect(result.body.message).toMatch(/^已更新 \d+ 个渠道的余额，\d+ 个失败$/);
    expect(Number((await row(enabled)).balance_updated_time)).toBeGreaterThan(0);
    expect(Number((await row(disabled)).balance_updated_time)).toBe(0);
  });

  test("common users are refused every upstream endpoint", async () => {
    const user = await newUserSession(server.url, "nosy");
    for (const path of [
      "/api/channel/test",
      "/api/channel/test/1",
      "/api/channel/update_balance",
      "/api/channel/update_balance/1/",
      "/api/channel/fetch_models/1",
    ]) {
      expect((await user.get(path)).body.message).toBe("无权进行此操作，权限不足");
    }
    expect((await user.post("/api/channel/fetch_models", { key: "x" })).body.message).toBe("无权进行此操作，权限不足");
  });
});

describe("secrets", () => {
  test("no channel key ever reaches the process log", async () => {
    await root.get("/api/channel/update_balance");
    const output = server.output();
    for (const key of ["sk-test-one", "sk-test-broken", "sk-fetch-edit", "sk-fetch-bad", "sk-balance", "sk-mistral", "sk-balance-all"]) {
      expect(output).not.toContain(key);
    }
  });
});
