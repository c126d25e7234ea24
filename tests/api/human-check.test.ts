// Turnstile verified server-side on sign-in, registration, email codes and reset mails; and the
// per-address critical rate limit on every credential endpoint.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startIdentityProviders, type IdentityProviders } from "../helpers/identity-providers.ts";
import { startMailCatcher, type MailCatcher } from "../helpers/mail-catcher.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let providers: IdentityProviders;
let sink: MailCatcher;
beforeAll(async () => {
  providers = startIdentityProviders();
  sink = await startMailCatcher();
});
afterAll(async () => {
  providers.stop();
  await sink.close();
});

describe("Turnstile", () => {
  let server: TestServer;
  let root: ApiSession;
  beforeAll(async () => {
    server = await startTestServer({ env: providers.env });
    root = await rootSession(server.url);
    await newUserSession(server.url, "human", "password123");
    const enable = await root.put("/api/option/", [...providers.options, ...sink.options, { key: "TurnstileCheckEnabled", value: "true" }]);
    expect(enable.body.success).toBe(true);
    await server.store.query("update users set email = 'human@example.com' where username = 'human'");
  });
  afterAll(() => server.stop());

  test("the status tells the console to show the widget", async () => {
    const status = (await new ApiSession(server.url).get("/api/status")).body.data;
    expect(status.turnstile_check).toBe(true);
    expect(status.turnstile_site_key).toBe("turnstile-site-key");
  });

  const protectedCalls: [string, (session: ApiSession, token: string) => Promise<any>, string][] = [
    ["login", (s, token) => s.post(`/api/user/login?turnstile=${token}`, { username: "human", password: "password123" }), "登录成功！"],
    [
      "register",
      (s, token) =>
        s.post(`/api/user/register?turnstile=${token}`, {
          username: `h${Math.random().toString(36).slice(2, 8)}`,
          password: "password123",
        }),
      "注册成功！",
    ],
    [
      "verification",
      (s, token) => s.get(`/api/verification?email=fresh@example.com&turnstile=${token}`),
      "验证码发送成功，请检查你的邮箱！",
    ],
    ["reset mail", (s, token) => s.get(`/api/reset_password?email=human@example.com&turnstile=${token}`), "重置邮件发送成功，请检查邮箱！"],
  ];

  test.each(protectedCalls)("%s needs a token siteverify accepts, once", async (_name, call, success) => {
    const session = new ApiSession(server.url);
    expect((await call(session, "")).body).toEqual({ success: false, message: "请稍后几秒重试，Turnstile 正在检查用户环境！" });
    expect((await call(session, "made-up-token")).body).toEqual({ success: false, message: "Turnstile 校验失败，请刷新重试！" });
    const token = providers.turnstileToken();
    const passed = await call(session, token);
    expect(passed.body.success).toBe(true);
    expect(passed.body.message).toBe(success);
    // The imitation, like Cloudflare, accepts a token once.
    expect((await call(new ApiSession(server.url), token)).body.message).toBe("Turnstile 校验失败，请刷新重试！");
  });

  test("siteverify was asked with the secret key and the client address", () => {
    const call = providers.calls.find((entry) => entry.path === "/turnstile/siteverify")!;
    const form = new URLSearchParams(call.body);
    expect(form.get("secret")).toBe("turnstile-secret");
    expect(form.get("remoteip")).toBe("127.0.0.1");
  });
});

describe("critical rate limit", () => {
  let server: TestServer;
  let user: ApiSession;
  beforeAll(async () => {
    server = await startTestServer({ env: { ...providers.env, CRITICAL_RATE_LIMIT: "1", TRUST_PROXY: "true" } });
    user = new ApiSession(server.url);
    await server.store.query("select 1");
    // Registration and sign-in are critical too: each from its own address.
    await user.post("/api/user/register", { username: "limited", password: "password123" }, { "x-forwarded-for": "10.9.0.1" });
    const login = await user.post("/api/user/login", { username: "limited", password: "password123" }, { "x-forwarded-for": "10.9.0.2" });
    user.userId = login.body.data.id;
  });
  afterAll(() => server.stop());

  const endpoints: [string, string, string][] = [
    ["GET", "/api/verification?email=a@example.com", "10.0.0.1"],
    ["GET", "/api/reset_password?email=a@example.com", "10.0.0.2"],
    ["POST", "/api/user/reset", "10.0.0.3"],
    ["GET", "/api/oauth/state", "10.0.0.4"],
    ["GET", "/api/oauth/github?code=x&state=y", "10.0.0.5"],
    ["GET", "/api/oauth/linuxdo?code=x&state=y", "10.0.0.6"],
    ["GET", "/api/oauth/wechat?code=x", "10.0.0.7"],
    ["GET", "/api/oauth/wechat/bind?code=x", "10.0.0.8"],
    ["GET", "/api/oauth/email/bind?email=a@example.com&code=1", "10.0.0.9"],
    ["GET", "/api/oauth/telegram/login?id=1", "10.0.0.10"],
    ["GET", "/api/oauth/telegram/bind?id=1", "10.0.0.11"],
    ["POST", "/api/user/login", "10.0.0.12"],
    ["POST", "/api/user/register", "10.0.0.13"],
  ];

  test.each(endpoints)("%s %s allows one call per address in the window", async (method, path, address) => {
    const call = (from: string, target = path) =>
      user.request(method, target, method === "POST" ? {} : undefined, { "x-forwarded-for": from });
    // The first call is answered (whatever its outcome), the second is limited.
    expect((await call(address)).status).not.toBe(429);
    const limited = await call(address);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    // Another address is not affected (another mailbox too: one address gets one mail per 30 s).
    expect((await call(address.replace("10.0.", "10.1."), path.replace("a@example.com", "b@example.com"))).status).not.toBe(429);
  });
});
