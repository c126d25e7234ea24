// The functions the channel management API calls (CONTRACTS.md): testChannel, testAllChannels,
// fetchUpstreamModels and queryUpstreamBalance, run in-process over a real store (SQLite or
// PostgreSQL) against the imitation upstream.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { openSharedState } from "../../src/cache/open-shared-state.ts";
import type { SharedState } from "../../src/cache/shared-state.ts";
import { testAllChannels, testChannel } from "../../src/relay/channels/channel-test.ts";
import { fetchUpstreamModels, queryUpstreamBalance } from "../../src/relay/channels/channel-upstream.ts";
import { createChannels } from "../../src/services/channels/channel-writes.ts";
import { loadOptions, setOptionsInternal } from "../../src/services/options/options.ts";
import { createRootIfEmpty } from "../../src/services/users/registration.ts";
import { closeStore, openStore } from "../../src/store/client.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let store: TestStore;
let shared: SharedState;
let upstream: Upstream;

beforeAll(async () => {
  store = await createTestStore();
  await openStore(
    store.dialect === "pg" ? { dialect: "pg", url: store.env.SQL_DSN! } : { dialect: "sqlite", path: store.env.SQLITE_PATH! },
  );
  shared = await openSharedState(undefined);
  await loadOptions();
  await createRootIfEmpty();
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.stop();
  await shared.close();
  await closeStore();
  await store.dispose();
});
beforeEach(async () => {
  upstream.reset();
  await setOptionsInternal([
    { key: "AutomaticDisableChannelEnabled", value: "false" },
    { key: "AutomaticEnableChannelEnabled", value: "false" },
    { key: "ChannelDisableThreshold", value: "5" },
  ]);
});

const testActor = { id: 1, name: "root", address: "127.0.0.1" };

async function channel(key: string, fields: Record<string, unknown> = {}): Promise<number> {
  const [created] = await createChannels(testActor, {
    name: key,
    type: ChannelType.OpenAI,
    key,
    base_url: upstream.url,
    models: "gpt-4o-mini,gpt-4o",
    group: "default",
    ...fields,
  });
  return created!.id;
}

const row = async (id: number) => (await store.query("select * from channels where id = ?", id))[0]!;
const options = (values: Record<string, string>) => setOptionsInternal(Object.entries(values).map(([key, value]) => ({ key, value })));

describe("testChannel", () => {
  test("a passing test records the time and writes an uncharged test log for user 1", async () => {
    const id = await channel("sk-test-ok");
    const result = await testChannel(id);
    expect(result).toMatchObject({ success: true, message: "" });
    expect(result.timeSeconds).toBeGreaterThanOrEqual(0);
    const received = upstream.received[0]!;
    expect(received.json).toEqual({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], max_tokens: 10 });
    const channelRow = await row(id);
    expect(Number(channelRow.test_time)).toBeGreaterThan(0);
    const [log] = await store.query("select * from logs where channel_id = ? order by id desc limit 1", id);
    expect([
      Number(log!.user_id),
      log!.token_name,
      log!.model_name,
      Number(log!.quota),
      Number(log!.prompt_tokens),
      Number(log!.completion_tokens),
    ]).toEqual([1, "模型测试", "gpt-4o-mini", 0, 10, 5]);
    const [root] = await store.query("select used_quota from users where id = 1");
    expect(Number(root!.used_quota)).toBe(0);
  });

  test("the model asked for, else the channel's test model; mapping applies; embedding models are tested as embeddings", async () => {
    const id = await channel("sk-test-models", {
      test_model: "gpt-4o",
      models: "gpt-4o,text-embedding-3-small",
      model_mapping: '{"gpt-4o":"gpt-4o-2024-11-20"}',
    });
    await testChannel(id);
    expect(upstream.received[0]!.json.model).toBe("gpt-4o-2024-11-20");
    await testChannel(id, "text-embedding-3-small");
    expect(upstream.received[1]!.path).toBe("/v1/embeddings");
    expect(upstream.received[1]!.json).toEqual({ model: "text-embedding-3-small", input: ["hello world"] });
  });

  test("a failing test reports the scrubbed upstream message and disables a channel with a dead key", async () => {
    const id = await channel("sk-test-dead");
    upstream.behave("sk-test-dead", { status: 401 });
    const quiet = await testChannel(id);
    expect(quiet.success).toBe(false);
    expect(quiet.message).toContain("Incorrect API key provided: sk-***");
    expect(Number((await row(id)).status)).toBe(1);
    await options({ AutomaticDisableChannelEnabled: "true" });
    await testChannel(id);
    expect(Number((await row(id)).status)).toBe(3);
    expect(JSON.parse(String((await row(id)).other_info)).status_reason).toContain("401");
  });

  test("slower than ChannelDisableThreshold: disabled with the reason", async () => {
    const id = await channel("sk-test-slow");
    upstream.behave("sk-test-slow", { delayMs: 400 });
    await options({ AutomaticDisableChannelEnabled: "true", ChannelDisableThreshold: "0.2" });
    const result = await testChannel(id);
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/^响应时间 0\.\d+s 超过阈值 0\.2s$/);
    expect(Number((await row(id)).status)).toBe(3);
  });

  test("a channel the relay disabled comes back after a passing test, when enabling is on", async () => {
    const id = await channel("sk-test-back");
    await store.query("update channels set status = 3 where id = ?", id);
    await testChannel(id);
    expect(Number((await row(id)).status)).toBe(3);
    await options({ AutomaticEnableChannelEnabled: "true" });
    await testChannel(id);
    expect(Number((await row(id)).status)).toBe(1);
    const abilities = await store.query("select enabled from abilities where channel_id = ?", id);
    expect(abilities.every((ability) => Number(ability.enabled) === 1)).toBe(true);
  });

  test("a channel an admin disabled stays disabled", async () => {
    const id = await channel("sk-test-manual");
    await store.query("update channels set status = 2 where id = ?", id);
    await options({ AutomaticEnableChannelEnabled: "true" });
    expect((await testChannel(id)).success).toBe(true);
    expect(Number((await row(id)).status)).toBe(2);
  });

  test("an unknown channel", async () => {
    await expect(testChannel(999_999)).rejects.toThrow("渠道不存在");
  });
});

describe("testAllChannels", () => {
  test("tests every channel, one run at a time", async () => {
    const [{ count }] = (await store.query("select count(*) as count from channels")) as [{ count: unknown }];
    await testAllChannels();
    await expect(testAllChannels()).rejects.toThrow("测试已在运行中");
    for (let wait = 0; wait < 100 && upstream.received.length < Number(count); wait++) await Bun.sleep(20);
    expect(upstream.received.length).toBe(Number(count));
    await Bun.sleep(50);
    await testAllChannels({ wait: true });
    expect(upstream.received.length).toBe(2 * Number(count));
  });
});

describe("fetchUpstreamModels and queryUpstreamBalance", () => {
  test("the upstream's model list", async () => {
    expect(await fetchUpstreamModels({ type: ChannelType.OpenAI, baseUrl: upstream.url, key: "sk-list" })).toEqual([
      "gpt-4o-mini",
      "gpt-4o",
      "text-embedding-3-small",
    ]);
    expect(upstream.received[0]!.headers.authorization).toBe("Bearer sk-list");
    await expect(fetchUpstreamModels({ type: ChannelType.OpenAI, baseUrl: "http://127.0.0.1:9", key: "x" })).rejects.toThrow(
      "上游返回错误：请求上游地址失败",
    );
  });

  test("balances where the kind reports one", async () => {
    expect(await queryUpstreamBalance({ id: 1, type: ChannelType.OpenAI, key: "k", base_url: upstream.url })).toBe(99.5);
    expect(await queryUpstreamBalance({ id: 1, type: ChannelType.DeepSeek, key: "k", base_url: upstream.url })).toBe(12.25);
    expect(await queryUpstreamBalance({ id: 1, type: ChannelType.SiliconCloud, key: "k", base_url: upstream.url })).toBe(9.75);
    expect(await queryUpstreamBalance({ id: 1, type: ChannelType.Moonshot, key: "k", base_url: upstream.url })).toBe(49.58894);
    await expect(queryUpstreamBalance({ id: 1, type: ChannelType.Mistral, key: "k", base_url: upstream.url })).rejects.toThrow("尚未实现");
  });
});
