// `switchyard import` from new-api: a SQLite source of today's schema and a PostgreSQL source of
// the v0.4 generation, each built here from new-api's published model definitions. After the
// import the old clients must simply keep working: the same sk- key relays through the official
// openai client, the old password signs in, the old access token runs scripts, and every
// balance and log sum is exactly what the source held.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { createLegacyDatabase, type LegacyDatabase } from "../fixtures/legacy-databases.ts";
import { seedNewApi, type SeededLegacy } from "../fixtures/legacy-data.ts";
import { newApiCurrent, newApiV04 } from "../fixtures/legacy-schemas.ts";
import { ApiSession } from "../helpers/api-session.ts";
import { runSwitchyard } from "../helpers/run-command.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { storeRows } from "../helpers/store-rows.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.stop();
});

async function userRow(store: TestStore, username: string) {
  const [row] = await storeRows(store, `select * from users where username = ?`, username);
  return row;
}

describe("new-api (today's schema) from a SQLite file", () => {
  let source: LegacyDatabase;
  let seeded: SeededLegacy;
  let store: TestStore;
  let server: TestServer;
  let summary: string;

  beforeAll(async () => {
    source = await createLegacyDatabase("sqlite", newApiCurrent);
    seeded = await seedNewApi(source, upstream.url, "current");
    store = await createTestStore();
  });
  afterAll(async () => {
    await server?.stop();
    await store.dispose();
    await source.dispose();
  });

  test("--dry-run prints the counts and the reasons for every skip, and writes nothing", async () => {
    const result = await runSwitchyard(["import", source.source, "--dry-run", "--with-logs"], store.env);
    expect(result.stderr).not.toContain("switchyard import:");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Dry run: nothing was written");
    expect(result.stdout).toContain("new-api v0.4 or later");
    expect(result.stdout).toMatch(/users\s+4\s+4/);
    expect(result.stdout).toMatch(/tokens\s+3\s+2/);
    expect(result.stdout).toContain("tokens: 1 whose owner does not exist in the source (e.g. orphan)");
    expect(result.stdout).toContain("users: 1 email already belongs to another account: cleared (e.g. carol)");
    expect(result.stdout).toContain("discord, a sign-in Switchyard does not offer");
    expect(result.stdout).toContain("options: 1 whose value Switchyard refuses (e.g. RetryTimes:");
    expect(result.stdout).toContain("options Switchyard does not have (not imported): LegacyOnlyFeatureSwitch");
    expect(result.stdout).toContain("future-kind (type 999)");
    expect(result.stdout).toContain("unused but expired: imported disabled (e.g. expired)");
    expect(result.stdout).toContain(
      "tokens: 1 in new-api's auto group, which Switchyard does not have: they use their owner's group (e.g. bob)",
    );
    // Nothing at all in the target (the store file is not even created on SQLite).
    if (store.dialect === "sqlite") expect(await Bun.file(store.env.SQLITE_PATH!).exists()).toBe(false);
    else expect(await store.query("select 1 from information_schema.tables where table_name = 'users'")).toEqual([]);
  });

  test("the import writes everything in one go and prints a summary", async () => {
    const result = await runSwitchyard(["import", source.source, "--with-logs"], store.env);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Import finished");
    expect(result.stdout).toMatch(/logs\s+5\s+5/);
    expect(result.stdout).toMatch(/channels\s+4\s+4/);
    expect(result.stderr).toContain("importing logs");
    summary = result.stdout;
  });

  test("a second import into the now non-empty store is refused without --merge, and changes nothing", async () => {
    const before = await store.query("select count(*) as n from users");
    const result = await runSwitchyard(["import", source.source], store.env);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("the target store is not empty (4 users, 2 tokens, 4 channels, 5 logs");
    expect(result.stderr).toContain("give --merge");
    expect(await store.query("select count(*) as n from users")).toEqual(before);
  });

  test("balances, counters, invites and bindings are exactly the source's; ids are kept", async () => {
    const alice = await userRow(store, "alice");
    expect(alice).toMatchObject({
      id: 2,
      quota: seeded.alice.quota,
      used_quota: seeded.alice.usedQuota,
      request_count: seeded.alice.requestCount,
      group: "vip",
      aff_code: "AbCd",
      aff_count: 2,
      aff_quota: 500,
      aff_history_quota: 900,
      inviter_id: 1,
      email: "alice@example.com",
      github_id: "gh-alice",
      role: 1,
      status: 1,
    });
    expect(alice.password.startsWith("$2a$")).toBe(true);
    expect(JSON.parse(alice.setting)).toEqual({ notify_type: "email", quota_warning_threshold: 1000 });
    expect((await userRow(store, "carol")).email).toBe("");
    // new-api's OIDC binding (the provider's sub) carries over: Switchyard matches accounts by it too.
    expect(alice.oidc_id).toBe("oidc-sub-alice");
    expect((await userRow(store, "bob")).deleted_at).toBe(Math.floor(Date.parse("2025-01-02T03:04:05Z") / 1000));
    const [token] = await storeRows(store, "select * from tokens where id = 3");
    expect(token).toMatchObject({
      user_id: 2,
      key: seeded.alice.tokenKey,
      remain_quota: seeded.tokenRemain,
      used_quota: seeded.tokenUsed,
      model_limits: "gpt-4o-mini,gpt-4o",
    });
    const [{ n: consumed }] = await storeRows(store, "select sum(quota) as n from logs where type = 2 and user_id = 2");
    expect(Number(consumed)).toBe(seeded.consumeLogQuota);
    expect(Number(consumed)).toBe(alice.used_quota);
    const [channel] = await storeRows(store, "select * from channels where id = 4");
    expect(channel).toMatchObject({
      key: seeded.upstreamKey,
      priority: 5,
      weight: 3,
      tag: "primary",
      used_quota: 12_345,
      group: "default,vip",
    });
    const [log] = await storeRows(store, "select * from logs where id = 5");
    expect(log.type).toBe(5);
    expect((await storeRows(store, "select channel_name from logs where id = 1"))[0].channel_name).toBe("main");
  });

  test("abilities are rebuilt from the channels (the source's stale rows are gone); a multi-key channel stays one, with its keys' states", async () => {
    const abilities = await storeRows(
      store,
      'select "group", model, channel_id, priority, weight from abilities where channel_id = 4 order by "group", model',
    );
    expect(abilities.map((row) => `${row.group}/${row.model}`)).toEqual([
      "default/gpt-4o",
      "default/gpt-4o-mini",
      "vip/gpt-4o",
      "vip/gpt-4o-mini",
    ]);
    expect(abilities.every((row) => Number(row.priority) === 5 && row.weight === 3)).toBe(true);
    const pool = await storeRows(store, "select id, key, status, name, channel_info from channels where name like 'pool%' order by id");
    expect(pool.map((row) => [row.id, row.key, row.status])).toEqual([[6, "sk-multi-1\nsk-multi-2\nsk-multi-3", 1]]);
    expect(JSON.parse(pool[0].channel_info)).toMatchObject({
      is_multi_key: true,
      multi_key_size: 3,
      multi_key_mode: "random",
      multi_key_status_list: { "1": 3 },
    });
    const [unknown] = await storeRows(store, "select status from channels where name = 'future-kind'");
    expect(unknown.status).toBe(2);
  });

  test("a Qianfan v2 key|appid became the key and the app id in the other field", async () => {
    const [qianfan] = await storeRows(store, "select key, other from channels where id = 7");
    expect([qianfan.key, qianfan.other]).toEqual(["bce-v3/ALTAK-legacy/secret", "app-legacy-9"]);
    expect(summary).toContain("the app id moved to the channel's other field (e.g. qianfan)");
  });

  test("the old sk- key relays through the official openai client, and is billed", async () => {
    server = await startTestServer({ store });
    const client = new OpenAI({ apiKey: `sk-${seeded.alice.tokenKey}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const before = (await userRow(store, "alice")).quota;
    const answer = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    const received = upstream.received.at(-1)!;
    expect(received.key).toBe(seeded.upstreamKey);
    expect(received.json.model).toBe("gpt-4o-mini");
    const after = await userRow(store, "alice");
    expect(after.quota).toBeLessThan(before);
    expect(after.quota + after.used_quota).toBe(seeded.alice.quota + seeded.alice.usedQuota);
  });

  test("the old password signs in, the old access token runs scripts, an unused code still redeems once", async () => {
    const session = new ApiSession(server.url);
    const login = await session.login("alice", seeded.alice.password);
    expect(login.body).toMatchObject({ success: true, data: { id: 2, username: "alice" } });
    expect((await new ApiSession(server.url).login("alice", "wrong-password")).body.success).toBe(false);
    expect((await new ApiSession(server.url).login("root", seeded.root.password)).body.success).toBe(true);

    const script = new ApiSession(server.url);
    script.accessToken = seeded.alice.accessToken;
    script.userId = 2;
    expect((await script.get("/api/user/self")).body).toMatchObject({ success: true, data: { username: "alice" } });

    const redeemed = await session.post("/api/user/topup", { key: seeded.unusedCode });
    expect(redeemed.body).toMatchObject({ success: true, data: 50_000 });
    expect((await session.post("/api/user/topup", { key: seeded.unusedCode })).body.success).toBe(false);
    expect((await session.post("/api/user/topup", { key: "11112222333344445555666677778888" })).body.success).toBe(false);
  });

  test("options: known keys mapped, refused and unknown ones left out", async () => {
    const rows = await storeRows(
      store,
      "select key, value from options where key in ('ServerAddress', 'SystemName', 'RetryTimes', 'LegacyOnlyFeatureSwitch')",
    );
    const values = Object.fromEntries(rows.map((row) => [row.key, row.value]));
    expect(values.ServerAddress).toBe("https://gateway.example.com");
    expect(values.SystemName).toBe("Old Gateway");
    expect(values.RetryTimes).not.toBe("three");
    expect(values.LegacyOnlyFeatureSwitch).toBeUndefined();
    expect(summary).toContain("options Switchyard does not have (not imported): LegacyOnlyFeatureSwitch");
  });
});

describe("new-api v0.4 from PostgreSQL", () => {
  let source: LegacyDatabase;
  let seeded: SeededLegacy;
  let store: TestStore;
  let server: TestServer | undefined;

  beforeAll(async () => {
    source = await createLegacyDatabase("postgres", newApiV04);
    seeded = await seedNewApi(source, upstream.url, "v04");
    store = await createTestStore();
  });
  afterAll(async () => {
    await server?.stop();
    await store.dispose();
    await source.dispose();
  });

  test("imports the v0.4 generation over a store started once; the token relays with streaming; balances and logs are exact", async () => {
    // Started once: only the initial root (password unchanged) and default options. That counts as empty.
    await (await startTestServer({ store })).stop();
    const result = await runSwitchyard(["import", source.source, "--with-logs"], store.env);
    expect(result.stderr).not.toContain("switchyard import:");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("new-api v0.4 or later");
    expect(result.stdout).toMatch(/top_ups\s+2\s+2/);
    expect(result.stdout).toContain("the target's initial root account (root / 123456) was replaced");
    const alice = await userRow(store, "alice");
    expect(alice).toMatchObject({ quota: seeded.alice.quota, used_quota: seeded.alice.usedQuota, aff_history_quota: 900 });
    const [{ n }] = await storeRows(store, "select sum(quota) as n from logs where type = 2");
    expect(Number(n)).toBe(seeded.consumeLogQuota);
    const [order] = await storeRows(store, "select * from top_ups where trade_no = 'USR2NO1'");
    expect(order).toMatchObject({ user_id: 2, amount: 10, status: "success", quota: 10 * 500_000 });
    const [failedTask] = await storeRows(store, "select refunded from midjourneys where mj_id = 'mj-2'");
    expect(Boolean(failedTask.refunded)).toBe(true);

    server = await startTestServer({ store });
    const client = new OpenAI({ apiKey: `sk-${seeded.alice.tokenKey}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text.length).toBeGreaterThan(0);
    expect((await new ApiSession(server.url).login("alice", seeded.alice.password)).body.success).toBe(true);
    // A PostgreSQL target's sequences moved past the imported ids: new rows do not collide.
    const fresh = new ApiSession(server.url);
    const registered = await fresh.post("/api/user/register", { username: "newcomer", password: "password123", password2: "password123" });
    expect(registered.body.success).toBe(true);
  });
});

describe("sources the importer refuses", () => {
  test("a database that is neither new-api nor one-api, an old new-api, a missing file: clear messages, exit 1", async () => {
    const store = await createTestStore();
    const stranger = await createLegacyDatabase("sqlite", { users: { id: "id", name: "text" }, posts: { id: "id", body: "text" } });
    const old = await createLegacyDatabase("sqlite", {
      ...newApiV04,
      channels: Object.fromEntries(Object.entries(newApiV04.channels!).filter(([column]) => column !== "setting")),
    });
    try {
      const unknown = await runSwitchyard(["import", stranger.source], store.env);
      expect(unknown.exitCode).toBe(1);
      expect(unknown.stderr).toContain("is not a new-api or one-api database Switchyard knows: missing users.username");
      const older = await runSwitchyard(["import", old.source], store.env);
      expect(older.exitCode).toBe(1);
      expect(older.stderr).toContain("looks like new-api older than v0.4 (no channels.setting)");
      const missing = await runSwitchyard(["import", "/nonexistent/one-api.db"], store.env);
      expect(missing.stderr).toContain("no such SQLite file: /nonexistent/one-api.db");
      const usage = await runSwitchyard(["import"], store.env);
      expect(usage.exitCode).toBe(2);
    } finally {
      await stranger.dispose();
      await old.dispose();
      await store.dispose();
    }
  });

  test("a bad value half-way through the logs writes nothing at all", async () => {
    const store = await createTestStore();
    const source = await createLegacyDatabase("sqlite", newApiV04);
    try {
      await seedNewApi(source, upstream.url, "v04");
      await source.insert("logs", [{ id: 6, user_id: 2, created_at: "yesterday", type: 2, quota: 1 }]);
      const result = await runSwitchyard(["import", source.source, "--with-logs"], store.env);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('logs row 6: created_at is not an integer ("yesterday")');
      expect(result.stderr).toContain("nothing was written");
      expect(await store.query("select id from users")).toEqual([]);
    } finally {
      await source.dispose();
      await store.dispose();
    }
  });
});
