// /api/log/*: admin and self views with new-api's filters and 1-based paging, what users may not
// see (channel, retry chain, real ids), quota/rpm/tpm statistics, and clearing old entries.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
let alice: ApiSession;
let bob: ApiSession;
const now = Math.floor(Date.now() / 1000);

type Entry = {
  user: ApiSession;
  username: string;
  type?: number;
  at?: number;
  model?: string;
  token?: string;
  quota?: number;
  prompt?: number;
  completion?: number;
  channel?: number;
  group?: string;
};

async function insert(entry: Entry) {
  const other = JSON.stringify({
    frt: 420,
    model_ratio: 1.25,
    completion_ratio: 4,
    group_ratio: 1,
    model_price: -1,
    admin_info: { use_channel: ["3", String(entry.channel ?? 7)] },
  });
  await server.store.query(
    'insert into logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, channel_name, "group", other) values (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 2, ?, ?, ?, ?, ?)',
    entry.user.userId,
    entry.at ?? now,
    entry.type ?? 2,
    "模型倍率 1.25，补全倍率 4.00，分组倍率 1.00",
    entry.username,
    entry.token ?? "main",
    entry.model ?? "gpt-4o",
    entry.quota ?? 100,
    entry.prompt ?? 10,
    entry.completion ?? 5,
    server.store.dialect === "pg" ? true : 1,
    entry.channel ?? 7,
    "upstream-secret-name",
    entry.group ?? "default",
    other,
  );
}

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  alice = await newUserSession(server.url, "alice");
  bob = await newUserSession(server.url, "bob");
  const a = { user: alice, username: "alice" };
  await insert({ ...a, at: now - 3600, model: "gpt-4o", token: "main", quota: 1000 });
  await insert({ ...a, at: now - 30, model: "gpt-4o-mini", token: "main", quota: 200, prompt: 100, completion: 50 });
  await insert({
    ...a,
    at: now - 10,
    model: "gpt-4o-mini",
    token: "second",
    quota: 300,
    prompt: 7,
    completion: 3,
    group: "vip",
    channel: 9,
  });
  await insert({ ...a, at: now - 86400 * 40, model: "gpt-4o", quota: 5000 });
  await insert({ ...a, at: now - 20, type: 1, model: "", quota: 500000 });
  await insert({ user: bob, username: "bob", at: now - 5, model: "gpt-4o", quota: 77 });
});
afterAll(() => server.stop());

type Page = { items: Record<string, any>[]; page: number; page_size: number; total: number };
const page = async (session: ApiSession, path: string): Promise<Page> => {
  const result = await session.get(path);
  expect(result.body.success).toBe(true);
  return result.body.data;
};

describe("self", () => {
  test("only the caller's entries, newest first, with {items, page, page_size, total} and 1-based p", async () => {
    const data = await page(alice, "/api/log/self/?p=1&page_size=2");
    expect([data.page, data.page_size, data.total]).toEqual([1, 2, 5]);
    expect(data.items.map((item) => item.created_at)).toEqual([now - 10, now - 20]);
    const second = await page(alice, "/api/log/self/?p=2&page_size=2");
    expect(second.items.map((item) => item.created_at)).toEqual([now - 30, now - 3600]);
    expect((await page(alice, "/api/log/self/?p=0&page_size=2")).page).toBe(1);
    expect((await page(bob, "/api/log/self/")).items.map((item) => item.username)).toEqual(["bob"]);
  });

  test("users do not see the channel, its name, the retry chain or real ids", async () => {
    const [entry] = (await page(alice, "/api/log/self/?type=2&page_size=1")).items;
    expect(entry!.channel).toBe(0);
    expect(entry!.channel_name).toBe("");
    expect(entry!.id).toBeLessThan(1024);
    const other = JSON.parse(entry!.other);
    expect(other.admin_info).toBeUndefined();
    expect([other.frt, other.model_ratio, other.completion_ratio]).toEqual([420, 1.25, 4]);
    expect(JSON.stringify(await alice.get("/api/log/self/"))).not.toContain("upstream-secret-name");
  });

  test("filters: type, token, model (exact or % pattern), group, time range; username and channel ignored", async () => {
    const total = async (query: string) => (await page(alice, `/api/log/self/?${query}`)).total;
    expect(await total("type=1")).toBe(1);
    expect(await total("type=2")).toBe(4);
    expect(await total("token_name=second")).toBe(1);
    expect(await total("model_name=gpt-4o")).toBe(2);
    expect(await total("model_name=gpt-4o%25")).toBe(4);
    expect(await total("group=vip")).toBe(1);
    expect(await total(`start_timestamp=${now - 100}&end_timestamp=${now}`)).toBe(3);
    expect(await total(`start_timestamp=${now - 100}&end_timestamp=${now - 15}`)).toBe(2);
    expect(await total("username=bob")).toBe(5);
    expect(await total("channel=9")).toBe(5);
  });

  test("stat: consumption quota of the filter, requests and tokens of the last minute", async () => {
    expect((await alice.get("/api/log/self/stat?type=2")).body.data).toEqual({ quota: 6500, rpm: 2, tpm: 160 });
    expect((await alice.get(`/api/log/self/stat?start_timestamp=${now - 100}`)).body.data).toEqual({ quota: 500, rpm: 2, tpm: 160 });
    expect((await alice.get("/api/log/self/stat?token_name=second")).body.data).toEqual({ quota: 300, rpm: 1, tpm: 10 });
    expect((await bob.get("/api/log/self/stat")).body.data).toEqual({ quota: 77, rpm: 1, tpm: 15 });
  });
});

describe("admin", () => {
  test("common users are refused the whole-site views and the cleanup", async () => {
    for (const path of ["/api/log/", "/api/log/stat"])
      expect((await alice.get(path)).body).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    expect((await alice.delete(`/api/log/?target_timestamp=${now}`)).body.message).toBe("无权进行此操作，权限不足");
    expect((await new ApiSession(server.url).get("/api/log/self/")).status).toBe(401);
  });

  test("every user's entries with channel, channel name, retry chain and real ids; username and channel filters", async () => {
    const data = await page(root, "/api/log/?page_size=100");
    expect(data.total).toBe(6);
    const entry = data.items.find((item) => item.channel === 9)!;
    expect(entry.channel_name).toBe("upstream-secret-name");
    expect(JSON.parse(entry.other).admin_info.use_channel).toEqual(["3", "9"]);
    expect((await page(root, "/api/log/?username=bob")).total).toBe(1);
    expect((await page(root, "/api/log/?channel=9")).total).toBe(1);
    expect((await root.get("/api/log/stat?username=alice&type=2")).body.data).toEqual({ quota: 6500, rpm: 2, tpm: 160 });
    expect((await root.get("/api/log/stat")).body.data.quota).toBe(6577);
  });

  test("cleanup: needs a time, deletes older entries and says how many", async () => {
    expect((await root.delete("/api/log/")).body).toEqual({ success: false, message: "请选择日志记录时间" });
    expect((await root.delete("/api/log/?target_timestamp=abc")).body.message).toBe("请选择日志记录时间");
    const result = await root.delete(`/api/log/?target_timestamp=${now - 86400}`);
    expect(result.body).toEqual({ success: true, message: "1 条日志已清理！", data: 1 });
    expect((await page(root, "/api/log/?page_size=100")).total).toBe(5);
  });
});
