// Redemption codes: admin management and redeeming them exactly once,
// however many clients try the same code at the same moment (reliability plan R1, R2, R4, L7).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { seedUsers } from "../helpers/seeded-users.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

async function createCodes(body: Record<string, unknown>): Promise<string[]> {
  const result = await root.post("/api/redemption/", body);
  expect(result.body.success).toBe(true);
  return result.body.data as string[];
}

async function quotaOf(username: string): Promise<number> {
  const [row] = await server.store.query<{ quota: number }>("select quota from users where username = ?", username);
  return Number(row!.quota);
}

describe("creating and managing codes", () => {
  test("a batch returns its codes: 32 hex characters, the formatted quota as the default name", async () => {
    const keys = await createCodes({ name: "", quota: 100000, count: 5 });
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    const rows = await server.store.query<{ name: string; quota: number; status: number; user_id: number }>(
      `select name, quota, status, user_id from redemptions where key in (${keys.map(() => "?").join(",")})`,
      ...keys,
    );
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.name).toBe("$0.20");
      expect(Number(row.quota)).toBe(100000);
      expect(row.status).toBe(1);
      expect(row.user_id).toBe(1);
    }
  });

  test("quota and count default to 100000 and 1", async () => {
    const keys = await createCodes({ name: "defaults" });
    expect(keys).toHaveLength(1);
    const [row] = await server.store.query<{ quota: number }>("select quota from redemptions where key = ?", keys[0]);
    expect(Number(row!.quota)).toBe(100000);
  });

  test("names are 1-20 characters, counts 1-100, quotas positive integers", async () => {
    const message = async (body: unknown) => (await root.post("/api/redemption/", body)).body.message;
    expect(await message({ name: "一二三四五六七八九十一二三四五六七八九十一", quota: 1, count: 1 })).toBe("兑换码名称长度必须在1-20之间");
    expect(
      (await root.post("/api/redemption/", { name: "一二三四五六七八九十一二三四五六七八九十", quota: 1, count: 1 })).body.success,
    ).toBe(true);
    expect(await message({ name: "x", quota: 1, count: 0 })).toBe("兑换码个数必须大于0");
    expect(await message({ name: "x", quota: 1, count: 101 })).toBe("一次兑换码批量生成的个数不能大于 100");
    expect(await message({ name: "x", quota: "lots", count: 1 })).toBe("兑换码额度必须是大于 0 的整数");
    expect(await message({ name: "x", quota: -5, count: 1 })).toBe("兑换码额度必须是大于 0 的整数");
    expect((await createCodes({ name: "hundred", quota: 1, count: 100 })).length).toBe(100);
  });

  test("only admins manage codes", async () => {
    const user = await newUserSession(server.url, "nocodes");
    for (const result of [
      await user.get("/api/redemption/"),
      await user.post("/api/redemption/", { name: "x", quota: 1, count: 1 }),
      await user.get("/api/redemption/search?keyword=x"),
    ]) {
      expect(result.body).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    }
  });

  test("list and search page like new-api (items, page, page_size, total), newest first", async () => {
    await createCodes({ name: "findme-a", quota: 10, count: 3 });
    const page = (await root.get("/api/redemption/?p=1&page_size=2")).body.data;
    expect(page.page).toBe(1);
    expect(page.page_size).toBe(2);
    expect(page.items).toHaveLength(2);
    expect(page.items[0].id).toBeGreaterThan(page.items[1].id);
    expect(page.items[0]).not.toHaveProperty("deleted_at");
    const found = (await root.get("/api/redemption/search?keyword=findme&p=1&page_size=10")).body.data;
    expect(found.total).toBe(3);
    expect(found.items.every((item: { name: string }) => item.name === "findme-a")).toBe(true);
    const byId = (await root.get(`/api/redemption/search?keyword=${found.items[0].id}`)).body.data;
    expect(byId.items.map((item: { id: number }) => item.id)).toContain(found.items[0].id);
    const wildcard = (await root.get("/api/redemption/search?keyword=%25%25")).body.data;
    expect(wildcard.total).toBe(0);
  });

  test("edit only while unused, enable/disable but never a used code, delete", async () => {
    const [key] = await createCodes({ name: "editable", quota: 500, count: 1 });
    const [{ id }] = await server.store.query<{ id: number }>("select id from redemptions where key = ?", key);
    const edited = await root.put("/api/redemption/", { id, name: "renamed", quota: 700 });
    expect(edited.body.success).toBe(true);
    expect(edited.body.data).toMatchObject({ id, name: "renamed", quota: 700, key });
    expect((await root.get(`/api/redemption/${id}`)).body.data.name).toBe("renamed");
    // Leaving the quota out keeps it; a blank name becomes the formatted quota, as on creation.
    expect((await root.put("/api/redemption/", { id, name: "renamed" })).body.data).toMatchObject({ name: "renamed", quota: 700 });
    expect((await root.put("/api/redemption/", { id, name: "" })).body.data).toMatchObject({ name: "$0.00", quota: 700 });
    expect((await root.put("/api/redemption/", { id, name: "renamed", quota: "" })).body.message).toBe("兑换码额度必须是大于 0 的整数");
    expect((await root.put("/api/redemption/", { id, name: "renamed", quota: 700 })).body.success).toBe(true);

    const disabled = await root.put("/api/redemption/?status_only=true", { id, status: 2 });
    expect(disabled.body.data.status).toBe(2);
    expect((await root.put("/api/redemption/", { id, name: "again", quota: 1 })).body.message).toBe("只能编辑未使用的兑换码");
    const user = await newUserSession(server.url, "editcase");
    expect((await user.post("/api/user/topup", { key })).body.message).toBe("兑换失败，该兑换码已被禁用");
    expect((await root.put("/api/redemption/?status_only=true", { id, status: 1 })).body.data.status).toBe(1);
    expect((await user.post("/api/user/topup", { key })).body).toEqual({ success: true, message: "", data: 700 });

    expect((await root.put("/api/redemption/?status_only=true", { id, status: 1 })).body.message).toBe("兑换码已被使用，无法启用或禁用");
    expect((await root.put("/api/redemption/?status_only=true", { id, status: 3 })).body.message).toBe("只能启用或禁用兑换码");
    expect((await root.put("/api/redemption/", { id, name: "late", quota: 1 })).body.message).toBe("只能编辑未使用的兑换码");

    const [other] = await createCodes({ name: "todelete", quota: 5, count: 1 });
    const [{ id: otherId }] = await server.store.query<{ id: number }>("select id from redemptions where key = ?", other);
    expect((await root.delete(`/api/redemption/${otherId}/`)).body.success).toBe(true);
    expect((await root.get(`/api/redemption/${otherId}`)).body).toEqual({ success: false, message: "兑换码不存在" });
    expect((await user.post("/api/user/topup", { key: other })).body.message).toBe("兑换失败，无效的兑换码");
  });
});

describe("redeeming", () => {
  test("credits the quota once and writes a top-up log with the code id and quota", async () => {
    const user = await newUserSession(server.url, "redeemer");
    const [key] = await createCodes({ name: "once", quota: 123456, count: 1 });
    const before = await quotaOf("redeemer");
    expect((await user.post("/api/user/topup", { key: ` ${key} ` })).body).toEqual({ success: true, message: "", data: 123456 });
    expect(await quotaOf("redeemer")).toBe(before + 123456);
    expect((await user.post("/api/user/topup", { key })).body).toEqual({ success: false, message: "兑换失败，该兑换码已被使用" });
    expect(await quotaOf("redeemer")).toBe(before + 123456);
    const [code] = await server.store.query<{ id: number; status: number; used_user_id: number; redeemed_time: number }>(
      "select id, status, used_user_id, redeemed_time from redemptions where key = ?",
      key,
    );
    expect(code!.status).toBe(3);
    expect(code!.used_user_id).toBe(user.userId!);
    expect(Number(code!.redeemed_time)).toBeGreaterThan(0);
    const logs = await server.store.query<{ type: number; quota: number; content: string }>(
      "select type, quota, content from logs where user_id = ? and type = 1",
      user.userId,
    );
    expect(logs).toHaveLength(1);
    expect(Number(logs[0]!.quota)).toBe(123456);
    expect(logs[0]!.content).toContain(`兑换码ID ${code!.id}`);
  });

  test("empty, unknown and altered codes credit nothing", async () => {
    const user = await newUserSession(server.url, "guesser");
    const [key] = await createCodes({ name: "variants", quota: 1000, count: 1 });
    expect((await user.post("/api/user/topup", { key: "" })).body.message).toBe("请输入兑换码！");
    expect((await user.post("/api/user/topup", {})).body.message).toBe("请输入兑换码！");
    const dashed = `${key!.slice(0, 8)}-${key!.slice(8, 12)}-${key!.slice(12, 16)}-${key!.slice(16, 20)}-${key!.slice(20)}`;
    for (const variant of [key!.toUpperCase(), dashed, `${key}x`, "0".repeat(32), "%", "x".repeat(65)]) {
      expect((await user.post("/api/user/topup", { key: variant })).body).toEqual({ success: false, message: "兑换失败，无效的兑换码" });
    }
    expect(await quotaOf("guesser")).toBe(0);
  });

  test("50 users redeeming one code at the same moment, 10 rounds: exactly one is credited each time", async () => {
    const users = await seedUsers(server, "race", 50);
    for (let round = 0; round < 10; round++) {
      const [key] = await createCodes({ name: `race${round}`, quota: 77777, count: 1 });
      const results = await Promise.all(users.map((user) => user.session.post("/api/user/topup", { key })));
      expect(results.every((result) => result.status === 200)).toBe(true);
      expect(results.filter((result) => result.body.success)).toHaveLength(1);
      for (const loser of results.filter((result) => !result.body.success)) {
        expect(loser.body.message).toBe("兑换失败，该兑换码已被使用");
      }
      const [code] = await server.store.query<{ id: number }>("select id from redemptions where key = ?", key);
      const logs = await server.store.query("select id from logs where type = 1 and content like ?", `%兑换码ID ${code!.id}`);
      expect(logs).toHaveLength(1);
    }
    const [{ total }] = await server.store.query<{ total: number }>("select sum(quota) as total from users where username like 'race%'");
    expect(Number(total)).toBe(10 * 77777);
  });

  test("one user in 50 tabs: credited once", async () => {
    const user = await newUserSession(server.url, "tabs");
    const [key] = await createCodes({ name: "tabs", quota: 5000, count: 1 });
    const results = await Promise.all(Array.from({ length: 50 }, () => user.post("/api/user/topup", { key })));
    expect(results.filter((result) => result.body.success)).toHaveLength(1);
    expect(await quotaOf("tabs")).toBe(5000);
  });

  test("ledger: the quota of used codes equals the quota of redemption top-up logs", async () => {
    const [used] = await server.store.query<{ total: number }>("select coalesce(sum(quota), 0) as total from redemptions where status = 3");
    const [logged] = await server.store.query<{ total: number }>(
      "select coalesce(sum(quota), 0) as total from logs where type = 1 and content like ?",
      "通过兑换码充值%",
    );
    expect(Number(logged!.total)).toBe(Number(used!.total));
  });
});

describe("guessing", () => {
  test("redeem attempts from one address hit the per-address limit", async () => {
    const limited = await startTestServer({ env: { CRITICAL_RATE_LIMIT: "30" } });
    try {
      const user = await newUserSession(limited.url, "limited");
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 31; attempt++) {
        statuses.push((await user.post("/api/user/topup", { key: crypto.randomUUID().replaceAll("-", "") })).status);
      }
      expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});
