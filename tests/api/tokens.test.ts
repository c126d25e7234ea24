// /api/token/*: create (batch names, key format), list and search with keys for the owner only,
// update, status-only update with the spec's refusals, delete; other users' tokens are invisible.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let alice: ApiSession;
let bob: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  alice = await newUserSession(server.url, "alice");
  bob = await newUserSession(server.url, "bob");
});
afterAll(() => server.stop());

type Token = {
  id: number;
  key: string;
  name: string;
  status: number;
  remain_quota: number;
  expired_time: number;
  unlimited_quota: boolean;
  group: string;
  model_limits: string;
  model_limits_enabled: boolean;
  allow_ips: string;
};

async function create(session: ApiSession, fields: Record<string, unknown> = {}): Promise<Token[]> {
  const result = await session.post("/api/token/", { name: "t", ...fields });
  expect(result.body.success).toBe(true);
  return result.body.data;
}
const row = async (id: number) => (await server.store.query<Record<string, unknown>>("select * from tokens where id = ?", id))[0]!;

describe("create", () => {
  test("new-api's defaults, a 48-character alphanumeric key stored without sk-", async () => {
    const [token] = await create(alice, { name: "first" });
    expect(token!.key).toMatch(/^[0-9a-zA-Z]{48}$/);
    expect([token!.name, token!.status, Number(token!.remain_quota), Number(token!.expired_time), token!.unlimited_quota]).toEqual([
      "first",
      1,
      500000,
      -1,
      false,
    ]);
    expect((await row(token!.id)).key).toBe(token!.key);
    expect(Number((await row(token!.id)).user_id)).toBe(alice.userId!);
  });

  test("batch: names after the first get a random 6-character suffix; keys differ", async () => {
    const tokens = await create(alice, { name: "batch", count: 5, remain_quota: 1000, unlimited_quota: true });
    expect(tokens).toHaveLength(5);
    expect(tokens[0]!.name).toBe("batch");
    for (const token of tokens.slice(1)) expect(token.name).toMatch(/^batch-[0-9a-zA-Z]{6}$/);
    expect(new Set(tokens.map((token) => token.key)).size).toBe(5);
    expect(tokens.every((token) => token.unlimited_quota && Number(token.remain_quota) === 1000)).toBe(true);
  });

  test("messages: name required and at most 30 characters, expiry, quota, count, addresses", async () => {
    const post = (fields: Record<string, unknown>) => alice.post("/api/token/", { name: "x", ...fields });
    expect((await post({ name: "" })).body).toEqual({ success: false, message: "令牌名称不能为空", data: { field: "name" } });
    expect((await post({ name: "   " })).body.message).toBe("令牌名称不能为空");
    expect((await post({ name: "n".repeat(31) })).body.message).toBe("令牌名称过长");
    expect((await post({ name: "名".repeat(30) })).body.success).toBe(true);
    expect((await post({ expired_time: "2025-01-01 10:00:00" })).body).toEqual({
      success: false,
      message: "过期时间格式错误！",
      data: { field: "expired_time" },
    });
    expect((await post({ expired_time: -5 })).body.message).toBe("过期时间格式错误！");
    expect((await post({ remain_quota: -1 })).body.message).toBe("额度必须是非负整数");
    expect((await post({ remain_quota: 1.5 })).body.message).toBe("额度必须是非负整数");
    expect((await post({ count: 0 })).body.message).toBe("令牌数量必须是 1 到 100 之间的整数");
    expect((await post({ count: 101 })).body.message).toBe("令牌数量必须是 1 到 100 之间的整数");
    expect((await post({ allow_ips: "10.0.0.1\nnot-an-ip" })).body.message).toBe("IP 白名单格式错误：not-an-ip");
    expect((await post({ allow_ips: "10.0.0.0/33" })).body.message).toBe("IP 白名单格式错误：10.0.0.0/33");
    expect((await post({ allow_ips: "10.0.0.0/33" })).body.data).toEqual({ field: "allow_ips" });
    const count = await server.store.query<{ n: number }>("select count(*) as n from tokens where name = 'x'");
    expect(Number(count[0]!.n)).toBe(0);
  });

  test("model limits, allow-list and group are stored normalised; groups must be selectable", async () => {
    const [token] = await create(alice, {
      model_limits_enabled: true,
      model_limits: ["gpt-4o", " gpt-4o-mini ", "gpt-4o"],
      allow_ips: " 127.0.0.1 \n\n::1\n10.0.0.0/8 ",
      group: "vip",
    });
    expect([token!.model_limits_enabled, token!.model_limits, token!.allow_ips, token!.group]).toEqual([
      true,
      "gpt-4o,gpt-4o-mini",
      "127.0.0.1\n::1\n10.0.0.0/8",
      "vip",
    ]);
    expect((await alice.post("/api/token/", { name: "g", group: "svip" })).body).toEqual({ success: false, message: "分组 svip 不可用" });
    expect((await alice.post("/api/token/", { name: "g", group: "nosuch" })).body.message).toBe("分组 nosuch 不可用");
  });
});

describe("read", () => {
  test("list: plain array, newest first, p from 0 with size; only the owner's tokens", async () => {
    const mine = (await alice.get("/api/token/?p=0&size=100")).body.data as Token[];
    expect(mine.length).toBeGreaterThan(3);
    expect(mine.map((token) => token.id)).toEqual([...mine.map((token) => token.id)].sort((a, b) => b - a));
    const second = (await alice.get("/api/token/?p=1&size=2")).body.data as Token[];
    expect(second.map((token) => token.id)).toEqual(mine.slice(2, 4).map((token) => token.id));
    expect((await bob.get("/api/token/")).body.data).toEqual([]);
  });

  test("another user's token cannot be read, changed or deleted", async () => {
    const [token] = await create(alice, { name: "private" });
    expect((await bob.get(`/api/token/${token!.id}`)).body).toEqual({ success: false, message: "令牌不存在" });
    expect((await bob.put("/api/token/", { id: token!.id, name: "stolen" })).body.message).toBe("令牌不存在");
    expect((await bob.put("/api/token/?status_only=true", { id: token!.id, status: 2 })).body.message).toBe("令牌不存在");
    expect((await bob.delete(`/api/token/${token!.id}/`)).body.message).toBe("令牌不存在");
    expect((await alice.get(`/api/token/${token!.id}`)).body.data.name).toBe("private");
    const root = await rootSession(server.url);
    expect((await root.get(`/api/token/${token!.id}`)).body.message).toBe("令牌不存在");
    expect((await new ApiSession(server.url).get("/api/token/")).status).toBe(401);
  });

  test("search by name and by key fragment (with or without sk-)", async () => {
    const [token] = await create(alice, { name: "findme-token" });
    const ids = async (query: string) => ((await alice.get(`/api/token/search?${query}`)).body.data as Token[]).map((item) => item.id);
    expect(await ids("keyword=findme")).toEqual([token!.id]);
    expect(await ids(`token=${token!.key.slice(10, 30)}`)).toEqual([token!.id]);
    expect(await ids(`token=sk-${token!.key}`)).toEqual([token!.id]);
    expect(await ids("keyword=findme&token=zzzzzz")).toEqual([]);
    expect((await bob.get("/api/token/search?keyword=findme")).body.data).toEqual([]);
  });
});

describe("update", () => {
  test("a full update replaces the editable fields and keeps the status and key", async () => {
    const [token] = await create(alice, { name: "edit-me" });
    await alice.put("/api/token/?status_only=true", { id: token!.id, status: 2 });
    const result = await alice.put("/api/token/", {
      id: token!.id,
      name: "edited",
      remain_quota: 42,
      unlimited_quota: true,
      expired_time: 4102444800,
      status: 1,
    });
    expect([
      result.body.data.name,
      Number(result.body.data.remain_quota),
      result.body.data.unlimited_quota,
      Number(result.body.data.expired_time),
      result.body.data.status,
      result.body.data.key,
    ]).toEqual(["edited", 42, true, 4102444800, 2, token!.key]);
    expect((await alice.put("/api/token/", { id: token!.id, name: "" })).body.message).toBe("令牌名称不能为空");
    expect((await alice.put("/api/token/", { id: token!.id, group: "svip" })).body.message).toBe("分组 svip 不可用");
  });

  test("status only: enable and disable; expired and exhausted tokens are refused until changed", async () => {
    const [token] = await create(alice, { name: "toggle" });
    const status = (value: number) => alice.put("/api/token/?status_only=true", { id: token!.id, status: value });
    expect((await status(2)).body.data.status).toBe(2);
    expect((await status(1)).body.data.status).toBe(1);
    expect((await status(3)).body.message).toBe("无效的令牌状态");

    await server.store.query("update tokens set expired_time = 1000, status = 3 where id = ?", token!.id);
    expect((await alice.get(`/api/token/${token!.id}`)).body.data.status).toBe(3);
    expect((await status(1)).body).toEqual({ success: false, message: "令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期" });
    await alice.put("/api/token/", { id: token!.id, expired_time: -1 });
    expect((await status(1)).body.data.status).toBe(1);

    await server.store.query(
      "update tokens set remain_quota = 0, unlimited_quota = ? where id = ?",
      server.store.dialect === "pg" ? false : 0,
      token!.id,
    );
    expect((await alice.get(`/api/token/${token!.id}`)).body.data.status).toBe(4);
    await status(2);
    expect((await status(1)).body.message).toBe("令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度");
    await alice.put("/api/token/", { id: token!.id, unlimited_quota: true });
    expect((await status(1)).body.data.status).toBe(1);
  });
});

describe("delete", () => {
  test("removes the token from the owner's list and from use", async () => {
    const [token] = await create(alice, { name: "bye" });
    expect((await alice.delete(`/api/token/${token!.id}/`)).body.success).toBe(true);
    expect((await alice.get(`/api/token/${token!.id}`)).body.message).toBe("令牌不存在");
    expect(((await alice.get("/api/token/?size=100")).body.data as Token[]).some((item) => item.id === token!.id)).toBe(false);
    expect((await row(token!.id)).deleted_at).not.toBeNull();
    expect((await alice.delete(`/api/token/${token!.id}`)).body.message).toBe("令牌不存在");
  });
});
