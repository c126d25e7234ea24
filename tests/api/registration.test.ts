// POST /api/user/register: new-api's rules and messages, the switches, invite rewards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

const register = (body: unknown) => new ApiSession(server.url).post("/api/user/register", body);
const setOption = async (key: string, value: string) => {
  const result = await root.put("/api/option/", { key, value });
  expect(result.body.success).toBe(true);
};

describe("validation", () => {
  test.each([
    [{}, "用户名和密码不能为空！"],
    [{ username: "", password: "password123" }, "用户名和密码不能为空！"],
    [{ username: "alice" }, "用户名和密码不能为空！"],
    [{ username: "alice", password: "short" }, "密码长度不得小于 8 位！"],
    [{ username: "alice", password: "x".repeat(21) }, "密码长度不得超过 20 位！"],
    [{ username: "alice", password: "password123", password2: "password124" }, "两次输入的密码不一致"],
    [{ username: "thirteen-char", password: "password123" }, "用户名长度不得超过 12 个字符！"],
  ])("%j -> %s", async (body, message) => {
    const result = await register(body);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: false, message });
  });

  test("a taken username, also after the account was deleted", async () => {
    expect((await register({ username: "taken", password: "password123" })).body.success).toBe(true);
    expect((await register({ username: "taken", password: "password123" })).body).toEqual({
      success: false,
      message: "用户名已存在，或已注销",
    });
    await server.store.query("update users set deleted_at = 1 where username = ?", "taken");
    expect((await register({ username: "taken", password: "password123" })).body.message).toBe("用户名已存在，或已注销");
    // A deleted account cannot sign in either.
    expect((await new ApiSession(server.url).login("taken", "password123")).body.success).toBe(false);
  });

  test("two simultaneous registrations of one name create one account", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => register({ username: "racer", password: "password123" })));
    expect(results.filter((result) => result.body.success)).toHaveLength(1);
    const rows = await server.store.query("select id from users where username = ?", "racer");
    expect(rows).toHaveLength(1);
  });
});

describe("success", () => {
  test("creates a common user in the default group with the new-user quota", async () => {
    await setOption("QuotaForNewUser", "12345");
    const result = await register({ username: "newbie", password: "password123", password2: "password123" });
    expect(result.body).toEqual({ success: true, message: "注册成功！" });
    const [user] = await server.store.query<any>(
      'select role, status, quota, "group", display_name from users where username = ?',
      "newbie",
    );
    expect(Number(user.role)).toBe(1);
    expect(Number(user.status)).toBe(1);
    expect(Number(user.quota)).toBe(12345);
    expect(user.group).toBe("default");
    expect(user.display_name).toBe("newbie");
    const logs = await server.store.query<any>("select content, type from logs where username = ?", "newbie");
    expect(logs).toHaveLength(1);
    expect(Number(logs[0].type)).toBe(4);
    expect(logs[0].content).toContain("新用户注册赠送");
    await setOption("QuotaForNewUser", "0");
  });

  test("an invite code records the inviter and credits both sides once", async () => {
    await setOption("QuotaForInviter", "1000");
    await setOption("QuotaForInvitee", "500");
    expect((await register({ username: "host", password: "password123" })).body.success).toBe(true);
    const host = new ApiSession(server.url);
    await host.login("host", "password123");
    const code = (await host.get("/api/user/aff")).body.data;
    expect((await register({ username: "guest", password: "password123", aff_code: code })).body.success).toBe(true);
    const [guest] = await server.store.query<any>("select quota, inviter_id from users where username = ?", "guest");
    const [hostRow] = await server.store.query<any>(
      "select id, quota, aff_count, aff_quota, aff_history_quota from users where username = ?",
      "host",
    );
    expect(Number(guest.inviter_id)).toBe(Number(hostRow.id));
    expect(Number(guest.quota)).toBe(500);
    expect(Number(hostRow.quota)).toBe(0);
    expect(Number(hostRow.aff_count)).toBe(1);
    expect(Number(hostRow.aff_quota)).toBe(1000);
    expect(Number(hostRow.aff_history_quota)).toBe(1000);
    // An unknown code registers the account without any reward.
    expect((await register({ username: "stray", password: "password123", aff_code: "zzzz" })).body.success).toBe(true);
    const [stray] = await server.store.query<any>("select quota, inviter_id from users where username = ?", "stray");
    expect(Number(stray.inviter_id)).toBe(0);
    expect(Number(stray.quota)).toBe(0);
  });
});

describe("switches", () => {
  test("RegisterEnabled off refuses every registration", async () => {
    await setOption("RegisterEnabled", "false");
    expect((await register({ username: "late", password: "password123" })).body).toEqual({
      success: false,
      message: "管理员关闭了新用户注册",
    });
    await setOption("RegisterEnabled", "true");
  });

  test("PasswordRegisterEnabled off refuses password registration", async () => {
    await setOption("PasswordRegisterEnabled", "false");
    expect((await register({ username: "late2", password: "password123" })).body.message).toBe(
      "管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册",
    );
    await setOption("PasswordRegisterEnabled", "true");
  });

  test("PasswordLoginEnabled off refuses password sign-in", async () => {
    await setOption("PasswordLoginEnabled", "false");
    expect((await new ApiSession(server.url).login("root", "123456")).body).toEqual({
      success: false,
      message: "管理员关闭了密码登录",
    });
    // The existing root session still works, so the switch can be turned back.
    await setOption("PasswordLoginEnabled", "true");
  });

  test("a banned user cannot sign in", async () => {
    expect((await register({ username: "banned1", password: "password123" })).body.success).toBe(true);
    await server.store.query("update users set status = 2 where username = ?", "banned1");
    expect((await new ApiSession(server.url).login("banned1", "password123")).body.message).toBe("用户名或密码错误，或用户已被封禁");
  });
});
