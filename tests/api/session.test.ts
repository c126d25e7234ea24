// Password sign-in, sign-out, the session cookie, the New-Api-User rule and access tokens.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { createTestStore } from "../helpers/test-store.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe("POST /api/user/login", () => {
  test("signs root in with the default password and sets a strict HttpOnly cookie", async () => {
    const session = new ApiSession(server.url);
    const result = await session.login("root", "123456");
    expect(result.body).toEqual({
      success: true,
      message: "登录成功！",
      data: { id: 1, username: "root", display_name: "Root User", role: 100, status: 1, group: "default" },
    });
    const cookie = result.headers.getSetCookie().find((line) => line.startsWith("session="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/");
  });

  test("refuses missing fields with the specification's message", async () => {
    const session = new ApiSession(server.url);
    expect((await session.post("/api/user/login", {})).body).toEqual({ success: false, message: "请输入用户名和密码！" });
    expect((await session.post("/api/user/login", { username: "root" })).body.message).toBe("请输入用户名和密码！");
  });

  test("gives one message for an unknown user and a wrong password", async () => {
    const session = new ApiSession(server.url);
    const wrong = await session.login("root", "wrong-password");
    const unknown = await session.login("nobody", "wrong-password");
    expect(wrong.body).toEqual({ success: false, message: "用户名或密码错误，或用户已被封禁" });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie().some((line) => line.startsWith("session=") && !line.startsWith("session=;"))).toBe(false);
  });

  test("accepts the email address instead of the username", async () => {
    await newUserSession(server.url, "mailer");
    // Email addresses come from the email flows; set one directly for this check.
    await server.store.query("update users set email = ? where username = ?", "mailer@example.com", "mailer");
    const result = await new ApiSession(server.url).login("mailer@example.com", "password123");
    expect(result.body.success).toBe(true);
    expect(result.body.data.username).toBe("mailer");
  });

  test("answers in English when the lang cookie says so", async () => {
    const result = await new ApiSession(server.url).post("/api/user/login", {}, { cookie: "lang=en" });
    expect(result.body.message).toBe("Please enter a username and password!");
  });
});

describe("authenticated /api calls", () => {
  test("need the New-Api-User header naming the signed-in user", async () => {
    const session = await rootSession(server.url);
    const withoutHeader = await session.get("/api/user/self", { "New-Api-User": "" });
    expect(withoutHeader.status).toBe(401);
    expect(withoutHeader.body).toEqual({ success: false, message: "无权进行此操作，未提供 New-Api-User" });
    const malformed = await session.get("/api/user/self", { "New-Api-User": "abc" });
    expect(malformed.status).toBe(401);
    expect(malformed.body.message).toBe("无权进行此操作，New-Api-User 格式错误");
    const other = await session.get("/api/user/self", { "New-Api-User": "2" });
    expect(other.status).toBe(401);
    expect(other.body.message).toBe("无权进行此操作，New-Api-User 与登录用户不匹配");
    const good = await session.get("/api/user/self");
    expect(good.status).toBe(200);
    expect(good.body.data.username).toBe("root");
  });

  test("without any credentials are refused with 401", async () => {
    const anonymous = await new ApiSession(server.url).get("/api/user/self", { "New-Api-User": "1" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, message: "无权进行此操作，未登录且未提供 access token" });
  });

  test("never return the password or the access token", async () => {
    const session = await rootSession(server.url);
    await session.get("/api/user/token");
    const self = await session.get("/api/user/self");
    expect(self.body.data).not.toHaveProperty("password");
    expect(self.body.data).not.toHaveProperty("access_token");
    expect(self.body.data).not.toHaveProperty("session_version");
    expect(self.body.data).toHaveProperty("DeletedAt", null);
    expect(self.body.data.quota).toBe(100000000);
  });

  test("with a forged or foreign cookie are refused", async () => {
    const forged = new ApiSession(server.url);
    forged.cookie = "session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwidmVyIjowfQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    forged.userId = 1;
    expect((await forged.get("/api/user/self")).status).toBe(401);
  });
});

describe("GET /api/user/logout", () => {
  test("clears the cookie so the next call is anonymous", async () => {
    const session = await rootSession(server.url);
    const logout = await session.get("/api/user/logout");
    expect(logout.body.success).toBe(true);
    expect(session.cookie).toBe("");
    expect((await session.get("/api/user/self")).status).toBe(401);
  });
});

describe("the session secret", () => {
  test("is generated once and kept in the store, so a session survives a restart; another secret refuses it", async () => {
    const store = await createTestStore();
    const carry = (from: ApiSession, url: string) => Object.assign(new ApiSession(url), { cookie: from.cookie, userId: from.userId });
    try {
      const first = await startTestServer({ store, env: { SESSION_SECRET: "" } });
      const session = await rootSession(first.url);
      await first.stop();
      const second = await startTestServer({ store, env: { SESSION_SECRET: "" } });
      const self = await carry(session, second.url).get("/api/user/self");
      await second.stop();
      expect(self.status).toBe(200);
      expect(self.body.data.username).toBe("root");
      const third = await startTestServer({ store, env: { SESSION_SECRET: "an-operator-chosen-secret-value" } });
      const refused = await carry(session, third.url).get("/api/user/self");
      await third.stop();
      expect(refused.status).toBe(401);
    } finally {
      await store.dispose();
    }
  }, 60_000);
});

describe("system access token", () => {
  test("GET /api/user/token returns a new token that works in Authorization, once per reset", async () => {
    const session = await rootSession(server.url);
    const first = await session.get("/api/user/token");
    expect(first.body.success).toBe(true);
    expect(first.body.data).toMatch(/^[0-9A-Za-z]{32}$/);
    const script = new ApiSession(server.url);
    script.accessToken = first.body.data;
    script.userId = 1;
    const self = await script.get("/api/user/self");
    expect(self.body.data.username).toBe("root");
    // "Bearer " is tolerated, as new-api's scripts send it.
    script.accessToken = `Bearer ${first.body.data}`;
    expect((await script.get("/api/user/self")).body.success).toBe(true);
    // Resetting makes the old token useless.
    await session.get("/api/user/token");
    const stale = await script.get("/api/user/self");
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe("无权进行此操作，access token 无效");
    // The store keeps only a hash.
    const [row] = await server.store.query<{ access_token: string }>("select access_token from users where id = 1");
    expect(row!.access_token).not.toBe(first.body.data);
    expect(row!.access_token).toHaveLength(64);
  });

  test("still needs the New-Api-User header", async () => {
    const session = await rootSession(server.url);
    const token = (await session.get("/api/user/token")).body.data;
    const script = new ApiSession(server.url);
    script.accessToken = token;
    expect((await script.get("/api/user/self")).status).toBe(401);
  });
});

describe("PUT /api/user/self", () => {
  test("changes the display name", async () => {
    const session = await newUserSession(server.url, "namer");
    const result = await session.put("/api/user/self", { display_name: "Nice Name" });
    expect(result.body.success).toBe(true);
    expect(result.body.message).toBe("用户信息更新成功！");
    expect((await session.get("/api/user/self")).body.data.display_name).toBe("Nice Name");
  });

  test("changes the password, keeps this session and ends the others", async () => {
    const session = await newUserSession(server.url, "changer", "password123");
    const other = new ApiSession(server.url);
    await other.login("changer", "password123");
    const short = await session.put("/api/user/self", { password: "short" });
    expect(short.body).toEqual({ success: false, message: "密码长度不得小于 8 位！" });
    const wrongOriginal = await session.put("/api/user/self", { password: "newpassword1", original_password: "nope-nope" });
    expect(wrongOriginal.body.message).toBe("原密码错误");
    const mismatch = await session.put("/api/user/self", {
      password: "newpassword1",
      password2: "newpassword2",
      original_password: "password123",
    });
    expect(mismatch.body).toEqual({ success: false, message: "两次输入的密码不一致！" });
    const changed = await session.put("/api/user/self", { password: "newpassword1", original_password: "password123" });
    expect(changed.body.message).toBe("密码修改成功！");
    expect((await session.get("/api/user/self")).status).toBe(200);
    expect((await other.get("/api/user/self")).status).toBe(401);
    expect((await new ApiSession(server.url).login("changer", "password123")).body.success).toBe(false);
    expect((await new ApiSession(server.url).login("changer", "newpassword1")).body.success).toBe(true);
  });

  test("ignores fields a user may not set on themselves", async () => {
    const session = await newUserSession(server.url, "sneaky");
    await session.put("/api/user/self", { role: 100, quota: 999999999, group: "vip", display_name: "ok" });
    const self = (await session.get("/api/user/self")).body.data;
    expect(self.role).toBe(1);
    expect(self.quota).toBe(0);
    expect(self.group).toBe("default");
  });
});

describe("GET /api/user/aff", () => {
  test("returns the user's invite code, the same every time", async () => {
    const session = await newUserSession(server.url, "inviter1");
    const first = await session.get("/api/user/aff");
    expect(first.body.data).toMatch(/^[0-9A-Za-z]{4}$/);
    expect((await session.get("/api/user/aff")).body.data).toBe(first.body.data);
  });
});

describe("password changes need the current password (issue 15 §3)", () => {
  test("a session cookie alone cannot change the password", async () => {
    const session = await newUserSession(server.url, "keeper", "password123");
    expect((await session.put("/api/user/self", { password: "takenover1" })).body).toEqual({ success: false, message: "请输入原密码" });
    expect((await session.put("/api/user/self", { password: "takenover1", original_password: "" })).body.message).toBe("请输入原密码");
    expect((await new ApiSession(server.url).login("keeper", "password123")).body.success).toBe(true);
    expect((await new ApiSession(server.url).login("keeper", "takenover1")).body.success).toBe(false);
  });

  test("nor the system access token; a change ends that token until it is regenerated", async () => {
    const session = await newUserSession(server.url, "scripter", "password123");
    const script = new ApiSession(server.url);
    script.accessToken = (await session.get("/api/user/token")).body.data;
    script.userId = session.userId;
    expect((await script.put("/api/user/self", { password: "takenover1" })).body.message).toBe("请输入原密码");
    const changed = await session.put("/api/user/self", { password: "newpassword1", original_password: "password123" });
    expect(changed.body.message).toBe("密码修改成功！");
    const stale = await script.get("/api/user/self");
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe("无权进行此操作，access token 无效");
    script.accessToken = (await session.get("/api/user/token")).body.data;
    expect((await script.get("/api/user/self")).body.data.username).toBe("scripter");
  });

  test("an account without a password sets its first one only from a recent sign-in", async () => {
    const store = await createTestStore();
    try {
      const first = await startTestServer({ store });
      const session = await newUserSession(first.url, "socialite", "password123");
      // What an account created by a social sign-in looks like (tests/api/social-login.test.ts).
      await store.query("update users set password = '' where username = 'socialite'");
      expect((await session.put("/api/user/self", { password: "newpassword1", original_password: "x" })).body.message).toBe(
        "该账户还没有密码，请先设置密码",
      );
      await first.stop();
      // Eleven minutes later the same cookie still signs in, but no longer sets a password.
      const later = await startTestServer({ store, env: { SWITCHYARD_CLOCK_OFFSET_MS: String(11 * 60 * 1000) } });
      const carried = Object.assign(new ApiSession(later.url), { cookie: session.cookie, userId: session.userId });
      expect((await carried.get("/api/user/self")).status).toBe(200);
      expect((await carried.post("/api/user/self/password", { password: "newpassword1" })).body).toEqual({
        success: false,
        message: "为了账户安全，请重新登录后 10 分钟内设置密码",
      });
      await later.stop();
    } finally {
      await store.dispose();
    }
  }, 60_000);
});

describe("signing out ends the session on the server (issue 15 §4)", () => {
  const carry = (from: ApiSession) => Object.assign(new ApiSession(server.url), { cookie: from.cookie, userId: from.userId });

  test("a cookie kept from before GET or POST /api/user/logout no longer works", async () => {
    for (const method of ["GET", "POST"]) {
      const session = await rootSession(server.url);
      const copy = carry(session);
      expect((await copy.get("/api/user/self")).status).toBe(200);
      expect((await session.request(method, "/api/user/logout")).body.success).toBe(true);
      const refused = await copy.get("/api/user/self");
      expect(refused.status).toBe(401);
      // The console's pages do not know it either.
      const page = await fetch(`${server.url}/setting`, { headers: { cookie: copy.cookie }, redirect: "manual" });
      expect(page.status).toBe(302);
    }
    // Other sessions of the same account go on.
    expect((await (await rootSession(server.url)).get("/api/user/self")).status).toBe(200);
  });

  test("sign out everywhere ends every session of the account, this one too", async () => {
    const here = await newUserSession(server.url, "traveller", "password123");
    const there = new ApiSession(server.url);
    await there.login("traveller", "password123");
    const ended = await here.delete("/api/user/self/sessions");
    expect(ended.body).toEqual({ success: true, message: "已退出所有设备" });
    expect((await here.get("/api/user/self")).status).toBe(401);
    expect((await carry(there).get("/api/user/self")).status).toBe(401);
    expect((await new ApiSession(server.url).login("traveller", "password123")).body.success).toBe(true);
  });
});
