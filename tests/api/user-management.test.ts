// User management: every permission rule as an allowed and a refused case,
// row actions returning the new status and role, exact quota edits with a manage log, deletion,
// and no password hash or access token in any answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
let admin: ApiSession;
let peerAdmin: ApiSession;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  for (const name of ["boss", "peer"]) {
    await newUserSession(server.url, name);
    await server.store.query("update users set role = 10 where username = ?", name);
  }
  admin = new ApiSession(server.url);
  await admin.login("boss", "password123");
  peerAdmin = new ApiSession(server.url);
  await peerAdmin.login("peer", "password123");
  for (const name of ["carl", "dina", "emil", "fay", "gus"]) await newUserSession(server.url, name);
  for (const row of await server.store.query<{ id: number; username: string }>("select id, username from users"))
    ids[row.username] = Number(row.id);
});
afterAll(() => server.stop());

const manage = (session: ApiSession, id: number, action: string) => session.post("/api/user/manage", { id, action });
const row = async (username: string) =>
  (await server.store.query<Record<string, any>>("select * from users where username = ?", username))[0]!;

describe("reading users", () => {
  test("the list is paged, newest first, and never carries password hashes or access tokens", async () => {
    await root.get("/api/user/token");
    const page = await admin.get("/api/user/?p=1&page_size=3");
    expect(page.body.success).toBe(true);
    expect(page.body.data.page).toBe(1);
    expect(page.body.data.page_size).toBe(3);
    expect(page.body.data.total).toBe(8);
    expect(page.body.data.items.map((item: any) => item.username)).toEqual(["gus", "fay", "emil"]);
    const all = await admin.get("/api/user/?p=1&page_size=100");
    const text = JSON.stringify(all.body);
    for (const item of all.body.data.items) {
      expect(item).not.toHaveProperty("password");
      expect(item).not.toHaveProperty("access_token");
      expect(item).not.toHaveProperty("session_version");
    }
    const [rootRow] = await server.store.query<{ password: string; access_token: string }>(
      "select password, access_token from users where id = 1",
    );
    expect(text).not.toContain(rootRow!.password);
    expect(text).not.toContain(rootRow!.access_token);
    // Page numbers below 1 become 1 and sizes above 100 are capped.
    const clamped = await admin.get("/api/user/?p=0&page_size=5000");
    expect(clamped.body.data.page).toBe(1);
    expect(clamped.body.data.page_size).toBe(100);
  });

  test("search matches id, username, display name and email, filters by group, and escapes wildcards", async () => {
    await server.store.query("update users set email = 'carl@example.com', display_name = 'Carl the First' where username = 'carl'");
    await server.store.query("update users set \"group\" = 'vip' where username = 'dina'");
    const search = async (query: string) =>
      ((await admin.get(`/api/user/search?${query}`)).body.data.items as any[]).map((item) => item.username);
    expect(await search("keyword=carl@exam")).toEqual(["carl"]);
    expect(await search("keyword=the%20first")).toEqual(["carl"]);
    expect(await search(`keyword=${ids.emil}`)).toContain("emil");
    expect(await search("group=vip")).toEqual(["dina"]);
    expect(await search("keyword=di&group=default")).toEqual([]);
    expect(await search("keyword=%25%25")).toEqual([]);
  });

  test("a common user cannot list users", async () => {
    const carl = new ApiSession(server.url);
    await carl.login("carl", "password123");
    expect((await carl.get("/api/user/")).body).toEqual({ success: false, message: "无权进行此操作，权限不足" });
  });

  test("one user: an admin reads a common user, not a peer admin or root; root reads admins, not itself", async () => {
    const carl = await admin.get(`/api/user/${ids.carl}`);
    expect(carl.body.success).toBe(true);
    expect(carl.body.data.username).toBe("carl");
    expect(carl.body.data).not.toHaveProperty("password");
    expect((await admin.get(`/api/user/${ids.peer}`)).body).toEqual({ success: false, message: "无权获取同级或更高等级用户的信息" });
    expect((await admin.get("/api/user/1")).body.message).toBe("无权获取同级或更高等级用户的信息");
    expect((await root.get(`/api/user/${ids.peer}`)).body.data.username).toBe("peer");
    expect((await root.get("/api/user/1")).body.message).toBe("无权获取同级或更高等级用户的信息");
    expect((await admin.get("/api/user/999999")).body).toEqual({ success: false, message: "用户不存在" });
  });
});

describe("creating users", () => {
  test("an admin creates a common user; nobody creates one of their own role or higher", async () => {
    const created = await admin.post("/api/user/", { username: "hank", display_name: "Hank", password: "password123" });
    expect(created.body.success).toBe(true);
    expect(created.body.message).toBe("用户账户创建成功！");
    expect(created.body.data).not.toHaveProperty("password");
    expect(Number((await row("hank")).role)).toBe(1);
    expect((await new ApiSession(server.url).login("hank", "password123")).body.success).toBe(true);
    expect((await admin.post("/api/user/", { username: "ivan", password: "password123", role: 10 })).body).toEqual({
      success: false,
      message: "无法创建权限大于等于自己的用户",
    });
    expect((await root.post("/api/user/", { username: "ivan", password: "password123", role: 100 })).body.message).toBe(
      "无法创建权限大于等于自己的用户",
    );
  });

  test("bad input gets the spec's messages", async () => {
    expect((await admin.post("/api/user/", { username: "", password: "" })).body.message).toBe("用户名和密码不能为空！");
    expect((await admin.post("/api/user/", { username: "jill" })).body.message).toBe("用户名和密码不能为空！");
    expect((await admin.post("/api/user/", { username: "jill", password: "short" })).body.message).toBe("密码长度不得小于 8 位！");
    expect((await admin.post("/api/user/", { username: "hank", password: "password123" })).body.message).toBe("用户名已存在，或已注销");
  });
});

describe("editing users", () => {
  test("an admin edits a common user's names, group and password; the password ends their sessions", async () => {
    const fay = new ApiSession(server.url);
    await fay.login("fay", "password123");
    const result = await admin.put("/api/user/", {
      id: ids.fay,
      username: "faye",
      display_name: "Faye",
      group: "vip",
      password: "new-password1",
    });
    expect(result.body.success).toBe(true);
    expect(result.body.message).toBe("用户信息更新成功！");
    expect(result.body.data.username).toBe("faye");
    expect(result.body.data.group).toBe("vip");
    expect((await fay.get("/api/user/self")).status).toBe(401);
    expect((await new ApiSession(server.url).login("faye", "new-password1")).body.success).toBe(true);
    // A blank password (or new-api's sentinel) leaves it unchanged.
    await admin.put("/api/user/", { id: ids.fay, display_name: "Faye B", password: "" });
    await admin.put("/api/user/", { id: ids.fay, password: "$I_LOVE_U" });
    expect((await new ApiSession(server.url).login("faye", "new-password1")).body.success).toBe(true);
  });

  test("edits of peers, root or roles at the editor's level are refused and change nothing", async () => {
    expect((await admin.put("/api/user/", { id: ids.peer, display_name: "hacked" })).body).toEqual({
      success: false,
      message: "无权更新同权限等级或更高权限等级的用户信息",
    });
    expect((await admin.put("/api/user/", { id: 1, quota: 0 })).body.message).toBe("无权更新同权限等级或更高权限等级的用户信息");
    expect((await admin.put("/api/user/", { id: ids.carl, role: 10 })).body).toEqual({
      success: false,
      message: "无权将其他用户权限等级提升到大于等于自己的权限等级",
    });
    expect((await row("peer")).display_name).toBe("peer");
    expect(Number((await row("carl")).role)).toBe(1);
    expect(Number((await row("root")).quota)).toBe(100_000_000);
  });

  test("bad edits: unknown group, taken username, bad password", async () => {
    expect((await admin.put("/api/user/", { id: ids.carl, group: "no-such-group" })).body.message).toBe("分组不存在");
    expect((await admin.put("/api/user/", { id: ids.carl, username: "hank" })).body.message).toBe("用户名已存在，或已注销");
    expect((await admin.put("/api/user/", { id: ids.carl, password: "short" })).body.message).toBe("密码长度不得小于 8 位！");
    expect((await admin.put("/api/user/", { id: "x" })).body.message).toBe("无效的参数");
  });

  test("added quota may be negative but never drives the total below zero; every change is a manage log", async () => {
    await server.store.query("update users set quota = 1000 where username = 'emil'");
    const added = await admin.put("/api/user/", { id: ids.emil, add_quota: 500 });
    expect(added.body.data.quota).toBe(1500);
    const removed = await admin.put("/api/user/", { id: ids.emil, add_quota: "-1200" });
    expect(removed.body.data.quota).toBe(300);
    expect((await admin.put("/api/user/", { id: ids.emil, add_quota: -301 })).body).toEqual({
      success: false,
      message: "用户额度不能为负数",
    });
    expect((await admin.put("/api/user/", { id: ids.emil, quota: -1 })).body.message).toBe("用户额度不能为负数");
    expect((await admin.put("/api/user/", { id: ids.emil, add_quota: 1.5 })).body.message).toBe("额度必须是整数");
    const set = await admin.put("/api/user/", { id: ids.emil, quota: "700" });
    expect(set.body.data.quota).toBe(700);
    // Unchanged quota writes no log.
    await admin.put("/api/user/", { id: ids.emil, display_name: "Emil", quota: 700 });
    const logs = await server.store.query<{ type: number; quota: number; content: string }>(
      "select type, quota, content from logs where user_id = ? order by id",
      ids.emil,
    );
    expect(logs.map((log) => [Number(log.type), Number(log.quota)])).toEqual([
      [3, 500],
      [3, -1200],
      [3, 400],
    ]);
    expect(logs[0]!.content).toContain("管理员将用户额度从");
    expect(Number((await row("emil")).quota)).toBe(700);
  });

  test("a user cannot raise their own role, quota, group or status through PUT /api/user/self", async () => {
    const gus = new ApiSession(server.url);
    await gus.login("gus", "password123");
    const before = await row("gus");
    const result = await gus.put("/api/user/self", {
      display_name: "Gus",
      role: 100,
      quota: 999999,
      used_quota: 0,
      group: "vip",
      status: 1,
      aff_quota: 5,
    });
    expect(result.body.success).toBe(true);
    const after = await row("gus");
    expect(after.display_name).toBe("Gus");
    for (const field of ["role", "quota", "group", "status", "aff_quota"]) expect(after[field]).toEqual(before[field]);
  });
});

describe("row actions", () => {
  test("root promotes and demotes, answering the new status and role; an admin cannot promote", async () => {
    expect((await admin.post("/api/user/manage", { id: ids.carl, action: "promote" })).body).toEqual({
      success: false,
      message: "普通管理员用户无法提升其他用户为管理员",
    });
    expect((await manage(root, ids.carl, "promote")).body).toEqual({
      success: true,
      message: "操作成功完成！",
      data: { status: 1, role: 10 },
    });
    expect((await manage(root, ids.carl, "promote")).body.message).toBe("该用户已经是管理员");
    expect((await manage(root, ids.carl, "demote")).body.data).toEqual({ status: 1, role: 1 });
    expect((await manage(root, ids.carl, "demote")).body.message).toBe("该用户已经是普通用户");
  });

  test("demoting an admin ends their admin access at once", async () => {
    expect((await peerAdmin.get("/api/user/")).body.success).toBe(true);
    expect((await manage(root, ids.peer, "demote")).body.data.role).toBe(1);
    expect((await peerAdmin.get("/api/user/")).status).toBe(401);
    const again = new ApiSession(server.url);
    await again.login("peer", "password123");
    expect((await again.get("/api/user/")).body.message).toBe("无权进行此操作，权限不足");
    await manage(root, ids.peer, "promote");
  });

  test("an admin disables and enables a common user; the ban ends their session and sign-in", async () => {
    const dina = new ApiSession(server.url);
    await dina.login("dina", "password123");
    expect((await manage(admin, ids.dina, "disable")).body.data).toEqual({ status: 2, role: 1 });
    expect((await dina.get("/api/user/self")).status).toBe(401);
    expect((await new ApiSession(server.url).login("dina", "password123")).body.message).toBe("用户名或密码错误，或用户已被封禁");
    expect((await manage(admin, ids.dina, "enable")).body.data).toEqual({ status: 1, role: 1 });
    expect((await new ApiSession(server.url).login("dina", "password123")).body.success).toBe(true);
    await server.store.query("update users set status = 3 where username = 'dina'");
    expect((await manage(admin, ids.dina, "enable")).body.message).toBe("该用户无法被启用");
    await server.store.query("update users set status = 1 where username = 'dina'");
  });

  test("nobody acts on users of their own role or higher; the super admin is never disabled, deleted or demoted", async () => {
    for (const action of ["disable", "delete", "demote", "enable"]) {
      expect((await manage(admin, ids.peer, action)).body).toEqual({
        success: false,
        message: "无权更新同权限等级或更高权限等级的用户信息",
      });
    }
    expect((await manage(admin, 1, "disable")).body.message).toBe("无法禁用超级管理员用户");
    expect((await manage(root, 1, "disable")).body.message).toBe("无法禁用超级管理员用户");
    expect((await manage(root, 1, "delete")).body.message).toBe("无法删除超级管理员用户");
    expect((await manage(root, 1, "demote")).body.message).toBe("无法降级超级管理员用户");
    const [rootRow] = await server.store.query<{ role: number; status: number; deleted_at: number | null }>(
      "select role, status, deleted_at from users where id = 1",
    );
    expect([Number(rootRow!.role), Number(rootRow!.status), rootRow!.deleted_at]).toEqual([100, 1, null]);
    expect(Number((await row("peer")).status)).toBe(1);
  });

  test("bad requests", async () => {
    expect((await admin.post("/api/user/manage", { id: ids.carl, action: "explode" })).body.message).toBe("无效的参数");
    expect((await manage(admin, 999999, "disable")).body.message).toBe("用户不存在");
  });

  test("deleting: the account is soft-deleted, its session ends, it shows as deleted and accepts no more actions", async () => {
    const gus = new ApiSession(server.url);
    await gus.login("gus", "password123");
    expect((await manage(admin, ids.gus, "delete")).body.success).toBe(true);
    expect((await gus.get("/api/user/self")).status).toBe(401);
    expect((await new ApiSession(server.url).login("gus", "password123")).body.success).toBe(false);
    const listed = ((await admin.get("/api/user/search?keyword=gus")).body.data.items as any[])[0];
    expect(listed.DeletedAt).toBeGreaterThan(0);
    expect((await manage(admin, ids.gus, "enable")).body.message).toBe("用户不存在");
    expect((await new ApiSession(server.url).post("/api/user/register", { username: "gus", password: "password123" })).body.message).toBe(
      "用户名已存在，或已注销",
    );
  });

  test("DELETE /api/user/{id} deletes lower users only", async () => {
    expect((await admin.delete(`/api/user/${ids.peer}`)).body).toEqual({
      success: false,
      message: "无权删除同权限等级或更高权限等级的用户",
    });
    expect((await admin.delete(`/api/user/${(await row("hank")).id}`)).body.success).toBe(true);
    expect((await row("hank")).deleted_at).not.toBeNull();
  });
});

describe("deleting your own account", () => {
  test("needs the username typed right, ends the session, and is refused to the super admin", async () => {
    const emil = new ApiSession(server.url);
    await emil.login("emil", "password123");
    expect((await emil.request("DELETE", "/api/user/self", { username: "wrong" })).body).toEqual({
      success: false,
      message: "请输入你的账户名以确认删除！",
    });
    const deleted = await emil.request("DELETE", "/api/user/self", { username: "emil" });
    expect(deleted.body).toEqual({ success: true, message: "账户已删除！" });
    expect((await emil.get("/api/user/self")).status).toBe(401);
    expect((await row("emil")).deleted_at).not.toBeNull();
    expect((await root.request("DELETE", "/api/user/self", { username: "root" })).body).toEqual({
      success: false,
      message: "不能删除超级管理员账户",
    });
  });
});
