// TOTP two-factor through the API (issue 28), on a clock the test controls: the server runs
// shifted by a known offset (SWITCHYARD_CLOCK_OFFSET_MS) and the test's authenticator app
// computes codes on that same clock. Setup, the two-step sign-in, replay, recovery codes, disable,
// the failure limit, root's reset, the admin requirement, and what stays unaffected.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootPassword, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { Authenticator, enableTwoFactor, loginWithTwoFactor } from "../helpers/two-factor.ts";

// Three days ahead: a code from the machine's real time is useless to the server.
const clockOffsetMs = 3 * 24 * 3600 * 1000;
let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer({ env: { SWITCHYARD_CLOCK_OFFSET_MS: String(clockOffsetMs) } });
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

describe("setting two-factor up", () => {
  test("gives a secret and an otpauth URL, is switched on by a first code, and hands out ten recovery codes once", async () => {
    const session = await newUserSession(server.url, "tf-setup");
    expect((await session.get("/api/user/2fa/status")).body.data).toEqual({
      enabled: false,
      pending_setup: false,
      recovery_codes_left: 0,
      required: false,
    });
    const setup = await session.post("/api/user/2fa/setup");
    expect(setup.body.success).toBe(true);
    const { secret, otpauth_url } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauth_url);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(url.searchParams.get("secret")).toBe(secret);
    expect(url.searchParams.get("digits")).toBe("6");
    expect(url.searchParams.get("period")).toBe("30");
    expect((await session.get("/api/user/2fa/status")).body.data.pending_setup).toBe(true);

    const app = new Authenticator(secret, clockOffsetMs);
    // A code of the machine's real time is four days off the server's clock.
    const wrong = await session.post("/api/user/2fa/enable", { code: app.codeAt(Date.now()) });
    expect(wrong.body).toEqual({ success: false, message: "验证码错误或已被使用" });
    const enabled = await session.post("/api/user/2fa/enable", { code: app.freshCode() });
    expect(enabled.body.success).toBe(true);
    expect(enabled.body.message).toBe("两步验证已启用");
    expect(enabled.body.data.recovery_codes).toHaveLength(10);
    expect(new Set(enabled.body.data.recovery_codes).size).toBe(10);
    for (const code of enabled.body.data.recovery_codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await session.get("/api/user/2fa/status")).body.data).toEqual({
      enabled: true,
      pending_setup: false,
      recovery_codes_left: 10,
      required: false,
    });
    // Secrets and codes are never shown again, and the store keeps the codes hashed.
    expect((await session.post("/api/user/2fa/setup")).body.message).toBe("两步验证已启用，请先关闭");
    const rows = await server.store.query<{ code_hash: string }>("select code_hash from recovery_codes where user_id = ?", session.userId);
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(enabled.body.data.recovery_codes).not.toContain(row.code_hash);
    const self = await session.get("/api/user/self");
    expect(JSON.stringify(self.body)).not.toContain(secret);
  });

  test("switching it on ends the account's other sessions but keeps this one", async () => {
    const session = await newUserSession(server.url, "tf-others");
    const other = new ApiSession(server.url);
    await other.login("tf-others", "password123");
    expect((await other.get("/api/user/self")).status).toBe(200);
    await enableTwoFactor(session, clockOffsetMs);
    expect((await other.get("/api/user/self")).status).toBe(401);
    expect((await session.get("/api/user/self")).status).toBe(200);
  });
});

describe("signing in with two-factor", () => {
  test("the password answers {require_2fa: true} and grants nothing; the code completes the sign-in", async () => {
    const owner = await newUserSession(server.url, "tf-login");
    const { app } = await enableTwoFactor(owner, clockOffsetMs);
    const session = new ApiSession(server.url);
    const first = await session.post("/api/user/login", { username: "tf-login", password: "password123" });
    expect(first.body).toEqual({ success: true, message: "", data: { require_2fa: true } });
    expect(first.headers.getSetCookie().some((line) => line.startsWith("session=") && !line.startsWith("session=;"))).toBe(false);
    const pendingCookie = first.headers.getSetCookie().find((line) => line.startsWith("login_2fa="))!;
    expect(pendingCookie).toContain("HttpOnly");
    expect(pendingCookie).toContain("SameSite=Strict");
    // Nothing is granted by the first step.
    session.userId = owner.userId;
    expect((await session.get("/api/user/self")).status).toBe(401);

    const wrong = await session.post("/api/user/login/2fa", { code: "000000" });
    expect(wrong.body).toEqual({ success: false, message: "验证码错误或已被使用" });
    const code = app.freshCode();
    const second = await session.post("/api/user/login/2fa", { code });
    expect(second.body.success).toBe(true);
    expect(second.body.message).toBe("登录成功！");
    expect(second.body.data.username).toBe("tf-login");
    expect((await session.get("/api/user/self")).body.data.username).toBe("tf-login");
    // The pending sign-in is used up: its cookie does nothing more.
    expect((await session.post("/api/user/login/2fa", { code: app.codeAt(app.now()) })).body.message).toBe("两步验证已过期，请重新登录");
  });

  test("a code cannot be used twice within its window", async () => {
    const owner = await newUserSession(server.url, "tf-replay");
    const { app } = await enableTwoFactor(owner, clockOffsetMs);
    const code = app.freshCode();
    expect((await loginWithTwoFactor(new ApiSession(server.url), "tf-replay", "password123", code)).body.success).toBe(true);
    const replay = await loginWithTwoFactor(new ApiSession(server.url), "tf-replay", "password123", code);
    expect(replay.body).toEqual({ success: false, message: "验证码错误或已被使用" });
    // Nor an older code once a newer one was used, nor one two steps away.
    expect(
      (await loginWithTwoFactor(new ApiSession(server.url), "tf-replay", "password123", app.codeAt(app.now() - 30_000))).body.success,
    ).toBe(false);
    expect(
      (await loginWithTwoFactor(new ApiSession(server.url), "tf-replay", "password123", app.codeAt(app.now() + 90_000))).body.success,
    ).toBe(false);
  });

  test("a recovery code works once instead of a code", async () => {
    const owner = await newUserSession(server.url, "tf-recover");
    const { recoveryCodes } = await enableTwoFactor(owner, clockOffsetMs);
    const first = new ApiSession(server.url);
    await first.login("tf-recover", "password123");
    // Typed in capitals and without its dash, as people do.
    const used = await first.post("/api/user/login/2fa", { recovery_code: recoveryCodes[3]!.toUpperCase().replace("-", "") });
    expect(used.body.success).toBe(true);
    const again = new ApiSession(server.url);
    await again.login("tf-recover", "password123");
    expect((await again.post("/api/user/login/2fa", { recovery_code: recoveryCodes[3] })).body).toEqual({
      success: false,
      message: "验证码错误或已被使用",
    });
    expect((await again.post("/api/user/login/2fa", { recovery_code: recoveryCodes[4] })).body.success).toBe(true);
    again.userId = owner.userId;
    expect((await again.get("/api/user/2fa/status")).body.data.recovery_codes_left).toBe(8);
    // The method is recorded with the session.
    const sessions = (await again.get("/api/user/sessions")).body.data;
    expect(sessions.find((entry: { current: boolean }) => entry.current).method).toBe("password+recovery_code");
  });

  test("a missing or foreign second-step cookie is refused, and a wrong password never reaches the second step", async () => {
    const owner = await newUserSession(server.url, "tf-skip");
    const { app } = await enableTwoFactor(owner, clockOffsetMs);
    const stranger = new ApiSession(server.url);
    expect((await stranger.post("/api/user/login/2fa", { code: app.codeAt(app.now()) })).body).toEqual({
      success: false,
      message: "两步验证已过期，请重新登录",
    });
    const forged = new ApiSession(server.url);
    forged.otherCookies.set("login_2fa", `login_2fa=${"a".repeat(40)}`);
    expect((await forged.post("/api/user/login/2fa", { code: app.codeAt(app.now()) })).body.message).toBe("两步验证已过期，请重新登录");
    const wrongPassword = new ApiSession(server.url);
    expect((await wrongPassword.login("tf-skip", "not-the-password")).body.message).toBe("用户名或密码错误，或用户已被封禁");
    expect(wrongPassword.otherCookies.has("login_2fa")).toBe(false);
  });

  test("wrong codes count toward the sign-in failure limit (CRITICAL_RATE_LIMIT)", async () => {
    // A server of its own with a limit of 8 failures per window, so other tests keep their address.
    const limited = await startTestServer({ env: { SWITCHYARD_CLOCK_OFFSET_MS: String(clockOffsetMs), CRITICAL_RATE_LIMIT: "8" } });
    try {
      const owner = await newUserSession(limited.url, "tf-limit");
      await enableTwoFactor(owner, clockOffsetMs);
      // Each pending sign-in takes wrong codes until the address's failures reach the limit.
      let wrongCodes = 0;
      let refused: { status: number; body: any } | undefined;
      for (let attempt = 0; attempt < 10 && !refused; attempt++) {
        const session = new ApiSession(limited.url);
        const first = await session.login("tf-limit", "password123");
        if (!first.body.success) {
          refused = first;
          break;
        }
        for (let wrong = 0; wrong < 3 && !refused; wrong++) {
          const answer = await session.post("/api/user/login/2fa", { code: "123456" });
          if (answer.status === 429) refused = answer;
          else {
            expect(answer.body.message).toBe("验证码错误或已被使用");
            wrongCodes++;
          }
        }
      }
      expect(wrongCodes).toBe(8);
      expect(refused?.status).toBe(429);
      // Even the right password is refused now: the failures were counted as sign-in failures.
      expect((await new ApiSession(limited.url).login("tf-limit", "password123")).status).toBe(429);
    } finally {
      await limited.stop();
    }
  }, 60_000);

  test("five wrong codes end the pending sign-in", async () => {
    const owner = await newUserSession(server.url, "tf-five");
    const { app } = await enableTwoFactor(owner, clockOffsetMs);
    const session = new ApiSession(server.url);
    await session.login("tf-five", "password123");
    for (let wrong = 0; wrong < 5; wrong++) {
      expect((await session.post("/api/user/login/2fa", { code: "654321" })).body.message).toBe("验证码错误或已被使用");
    }
    expect((await session.post("/api/user/login/2fa", { code: app.freshCode() })).body.message).toBe("两步验证已过期，请重新登录");
  });
});

describe("switching two-factor off", () => {
  test("needs a current code or a recovery code", async () => {
    const session = await newUserSession(server.url, "tf-off");
    const { app, recoveryCodes } = await enableTwoFactor(session, clockOffsetMs);
    expect((await session.post("/api/user/2fa/disable", {})).body.message).toBe("请输入验证码或恢复码");
    expect((await session.post("/api/user/2fa/disable", { code: "111111" })).body.message).toBe("验证码错误或已被使用");
    expect((await session.post("/api/user/2fa/disable", { code: app.freshCode() })).body.message).toBe("两步验证已关闭");
    expect((await session.get("/api/user/2fa/status")).body.data.enabled).toBe(false);
    expect((await new ApiSession(server.url).login("tf-off", "password123")).body.data.username).toBe("tf-off");
    // Set up again, off again with a recovery code of the new enrolment (old ones are gone).
    const second = await enableTwoFactor(session, clockOffsetMs);
    expect((await session.post("/api/user/2fa/disable", { recovery_code: recoveryCodes[0] })).body.success).toBe(false);
    expect((await session.post("/api/user/2fa/disable", { recovery_code: second.recoveryCodes[0] })).body.success).toBe(true);
  });
});

describe("root and the admin requirement", () => {
  test("root resets a user's two-factor; an admin cannot", async () => {
    const user = await newUserSession(server.url, "tf-lost");
    await enableTwoFactor(user, clockOffsetMs);
    const admin = await newUserSession(server.url, "tf-admin1");
    await root.post("/api/user/manage", { id: admin.userId, action: "promote" });
    await admin.login("tf-admin1", "password123");
    expect((await admin.delete(`/api/user/${user.userId}/2fa`)).body.message).toBe("无权进行此操作，权限不足");
    expect((await root.delete(`/api/user/${user.userId}/2fa`)).body.message).toBe("两步验证已重置");
    expect((await new ApiSession(server.url).login("tf-lost", "password123")).body.data.username).toBe("tf-lost");
  });

  test("with AdminTwoFactorRequired an admin without it may only set it up; users, scripts and relay keys are not affected", async () => {
    const admin = await newUserSession(server.url, "tf-admin2");
    await root.post("/api/user/manage", { id: admin.userId, action: "promote" });
    await admin.login("tf-admin2", "password123");
    const user = await newUserSession(server.url, "tf-plain");
    // The access token and a relay key of the admin, made before the requirement.
    const script = new ApiSession(server.url);
    script.accessToken = (await admin.get("/api/user/token")).body.data;
    script.userId = admin.userId;
    expect((await admin.post("/api/token/", { name: "k", remain_quota: 0, unlimited_quota: true, expired_time: -1 })).body.success).toBe(
      true,
    );

    // Root may turn the requirement on only once his own two-factor is on (root is an admin too).
    expect((await root.put("/api/option/", { key: "AdminTwoFactorRequired", value: "true" })).body.message).toBe(
      "请先为自己的账户启用两步验证，再要求管理员启用",
    );
    const rootApp = await enableTwoFactor(root, clockOffsetMs);
    expect((await root.put("/api/option/", { key: "AdminTwoFactorRequired", value: "true" })).body.success).toBe(true);
    try {
      const refused = await admin.get("/api/user/?p=1");
      expect(refused.body).toEqual({ success: false, message: "管理员要求启用两步验证，请先在个人设置中启用" });
      expect((await admin.get("/api/user/2fa/status")).body.data).toMatchObject({ enabled: false, required: true });
      expect((await admin.get("/api/user/self")).body.success).toBe(true);
      // Common users are not asked; scripts with the system access token are not affected.
      expect((await user.get("/api/token/?p=1")).body.success).toBe(true);
      expect((await script.get("/api/user/?p=1")).body.success).toBe(true);
      // Setting it up lifts the requirement at once.
      await enableTwoFactor(admin, clockOffsetMs);
      expect((await admin.get("/api/user/?p=1")).body.success).toBe(true);
      // Root signs in with his second factor.
      const again = await loginWithTwoFactor(new ApiSession(server.url), "root", rootPassword, rootApp.app.freshCode());
      expect(again.body.success).toBe(true);
    } finally {
      await root.put("/api/option/", { key: "AdminTwoFactorRequired", value: "false" });
    }
  });

  test("a common user's sk- token keeps relaying while two-factor is on", async () => {
    const session = await newUserSession(server.url, "tf-relay");
    await enableTwoFactor(session, clockOffsetMs);
    const created = await session.post("/api/token/", { name: "relay", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    expect(created.body.success).toBe(true);
    const [token] = (await session.get("/api/token/?p=0&size=10")).body.data as { key: string }[];
    const response = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer sk-${token!.key.replace(/^sk-/, "")}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe("list");
  });
});
