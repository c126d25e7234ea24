// `switchyard import` from one-api v0.6 on MySQL (MariaDB here): channel kinds renumbered and
// their config moved where Switchyard reads it, token model lists and subnets carried over; then
// --merge into a store that already serves its own users, with every id shifted past theirs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { createLegacyDatabase, type LegacyDatabase } from "../fixtures/legacy-databases.ts";
import { seedOneApi, type SeededOneApi } from "../fixtures/legacy-data.ts";
import { oneApiV06 } from "../fixtures/legacy-schemas.ts";
import { ApiSession, newUserSession } from "../helpers/api-session.ts";
import { runSwitchyard } from "../helpers/run-command.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { storeRows } from "../helpers/store-rows.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let upstream: Upstream;
let source: LegacyDatabase;
let seeded: SeededOneApi;

beforeAll(async () => {
  upstream = await startUpstream();
  source = await createLegacyDatabase("mysql", oneApiV06);
  seeded = await seedOneApi(source, upstream.url);
});
afterAll(async () => {
  await source.dispose();
  await upstream.stop();
});

describe("one-api v0.6 from MySQL into a new store", () => {
  let store: TestStore;
  let server: TestServer;

  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => {
    await server?.stop();
    await store.dispose();
  });

  test("--dry-run reads the MySQL source, prints the counts and writes nothing", async () => {
    const result = await runSwitchyard(["import", source.source, "--dry-run", "--with-logs"], store.env);
    expect(result.stderr).not.toContain("switchyard import:");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Dry run: nothing was written");
    expect(result.stdout).toContain("one-api v0.6");
    expect(result.stdout).toMatch(/users\s+2\s+2/);
    expect(result.stdout).toMatch(/channels\s+4\s+4/);
    expect(result.stdout).toMatch(/logs\s+2\s+2/);
    expect(result.stdout).toContain("coze (Coze)");
    if (store.dialect === "sqlite") expect(await Bun.file(store.env.SQLITE_PATH!).exists()).toBe(false);
    else expect(await store.query("select 1 from information_schema.tables where table_name = 'users'")).toEqual([]);
  });

  test("imports users, tokens, channels (renumbered), codes and logs", async () => {
    const result = await runSwitchyard(["import", source.source, "--with-logs"], store.env);
    expect(result.stderr).not.toContain("switchyard import:");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("one-api v0.6");
    expect(result.stdout).toContain("coze (Coze)");
    expect(result.stdout).toContain("bound to lark, a sign-in Switchyard does not offer");
    const channels = await storeRows(store, "select id, type, base_url, other, status from channels order by id");
    expect(channels).toEqual([
      { id: 2, type: 1, base_url: upstream.url, other: "", status: 1 },
      { id: 3, type: 43, base_url: "", other: "", status: 1 },
      { id: 4, type: 1, base_url: "", other: "", status: 2 },
      { id: 5, type: 3, base_url: "https://x.openai.azure.com", other: "2024-02-01", status: 1 },
    ]);
    const [token] = await storeRows(store, "select * from tokens where id = 1");
    expect(token).toMatchObject({ key: seeded.dave.tokenKey, model_limits: "gpt-4o-mini", allow_ips: "127.0.0.1/8\n10.0.0.0/8" });
    expect(Boolean(token.model_limits_enabled)).toBe(true);
    const [dave] = await storeRows(store, "select * from users where username = 'dave'");
    expect(dave).toMatchObject({ id: 3, quota: seeded.dave.quota, used_quota: seeded.dave.usedQuota, aff_count: 0 });
    const logs = await storeRows(store, "select quota, use_time, other from logs where type = 2 order by id");
    expect(logs.reduce((sum, row) => sum + Number(row.quota), 0)).toBe(seeded.consumeLogQuota);
    expect(logs.map((row) => row.use_time)).toEqual([2, 1]);
    expect(JSON.parse(logs[0].other)).toEqual({ source_request_id: "req-1" });
  });

  test("dave's old key relays and his old password signs in", async () => {
    server = await startTestServer({ store });
    const client = new OpenAI({ apiKey: `sk-${seeded.dave.tokenKey}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    expect(upstream.received.at(-1)!.key).toBe(seeded.upstreamKey);
    // The token's model list came from one-api's `models` column.
    const refused = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).then(
      () => null,
      (error) => error,
    );
    expect(refused?.status).toBe(403);
    expect((await new ApiSession(server.url).login("dave", seeded.dave.password)).body.success).toBe(true);
  });
});

describe("--merge into a store that already has users", () => {
  let store: TestStore;
  let server: TestServer;

  beforeAll(async () => {
    store = await createTestStore();
    // A Switchyard that already serves: root plus one registered user and a channel.
    const first = await startTestServer({ store });
    await newUserSession(first.url, "erin");
    await first.stop();
  });
  afterAll(async () => {
    await server?.stop();
    await store.dispose();
  });

  test("ids shift past the target's, a username it already has is left out, the merged key relays", async () => {
    const refused = await runSwitchyard(["import", source.source], store.env);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("not empty (2 users");
    const result = await runSwitchyard(["import", source.source, "--merge", "--with-logs"], store.env);
    expect(result.stderr).not.toContain("switchyard import:");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      "users: 1 whose username the target already has (left out with their tokens, logs and tasks) (e.g. root)",
    );
    const users = await storeRows(store, "select id, username from users order by id");
    expect(users.map((row) => row.username)).toEqual(["root", "erin", "dave"]);
    const dave = users.find((row) => row.username === "dave");
    expect(dave.id).toBe(2 + seeded.dave.id);
    const [token] = await storeRows(store, "select user_id from tokens where key = ?", seeded.dave.tokenKey);
    expect(token.user_id).toBe(dave.id);
    const logs = await storeRows(store, "select user_id, channel_id from logs where username = 'dave'");
    expect(logs.every((row) => row.user_id === dave.id && row.channel_id === 2)).toBe(true);

    server = await startTestServer({ store });
    const client = new OpenAI({ apiKey: `sk-${seeded.dave.tokenKey}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    const erinLogin = await new ApiSession(server.url).login("erin", "password123");
    expect(erinLogin.body.success).toBe(true);
  });
});
