// The setup code of a fresh gateway (issue 30, src/services/onboarding/setup-code.ts): while root
// has the default password, it signs in from loopback as before, and from any other address only
// with the code the server printed; the code survives a restart and is void once the password
// changes. The remote address comes from X-Forwarded-For (TRUST_PROXY), as behind a proxy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, rootPassword } from "../helpers/api-session.ts";
import { awaitSetupCode } from "../helpers/setup-code.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const missing = "从其他电脑用默认密码登录 root 需要安装码：请在服务器日志中查找含有 setup code 的一行";
const wrong = "安装码错误：请在服务器日志中查找含有 setup code 的一行";
const wrongCredentials = "用户名或密码错误，或用户已被封禁";
const remote = { "x-forwarded-for": "203.0.113.7" };

let store: TestStore;
let server: TestServer;
let code: string;

const login = (body: Record<string, unknown>, headers: Record<string, string> = remote) => {
  const session = new ApiSession(server.url);
  return session.post("/api/user/login", body, headers).then((result) => ({ session, result }));
};

beforeAll(async () => {
  store = await createTestStore();
  server = await startTestServer({ store, env: { TRUST_PROXY: "true" } });
  code = (await awaitSetupCode(server.output))!;
});
afterAll(async () => {
  await server?.stop();
  await store?.dispose();
});

describe("the setup code", () => {
  test("is printed once by a new store's first start, in a line saying what it is for", () => {
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes("setup code"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("root / 123456 signs in from another address only with this code");
  });

  test("from another address: refused without it, and the answer asks for it; no session is started", async () => {
    const { result } = await login({ username: "root", password: "123456" });
    expect(result.body).toEqual({ success: false, message: missing, data: { setup_code_required: true } });
    expect(result.headers.getSetCookie().some((line) => line.startsWith("session="))).toBe(false);
    const english = await login({ username: "root", password: "123456" }, { ...remote, cookie: "lang=en" });
    expect(english.result.body.message).toStartWith(
      "Signing in as root with the default password from another computer needs the setup code",
    );
  });

  test("a wrong code is refused; a wrong password says nothing about the code", async () => {
    const { result } = await login({ username: "root", password: "123456", setup_code: "AAAA-BBBB-CCCC" });
    expect(result.body).toEqual({ success: false, message: wrong, data: { setup_code_required: true } });
    const guess = await login({ username: "root", password: "654321", setup_code: code });
    expect(guess.result.body).toEqual({ success: false, message: wrongCredentials });
  });

  test("with the code (as typed: any case, with or without dashes), root signs in from another address", async () => {
    for (const typed of [code, code.toLowerCase().replaceAll("-", ""), ` ${code.replaceAll("-", " ")} `]) {
      const { session, result } = await login({ username: "root", password: "123456", setup_code: typed });
      expect(result.body).toMatchObject({ success: true, data: { username: "root", role: 100 } });
      // Signed in, the console still asks for a new password before any page.
      const page = await fetch(`${server.url}/token`, { headers: { cookie: session.cookie, ...remote } });
      expect(await page.text()).toContain("设置新密码");
    }
  });

  test("from loopback no code is needed, and root's JSON API works with the default password", async () => {
    const { session, result } = await login({ username: "root", password: "123456" }, {});
    expect(result.body.success).toBe(true);
    session.userId = result.body.data.id;
    expect((await session.get("/api/user/self")).body.data.username).toBe("root");
    const created = await session.post("/api/token/", { name: "script on the server", unlimited_quota: true });
    expect(created.body.success).toBe(true);
    // The page gate stays: the console asks for the change first, from loopback too.
    const page = await fetch(`${server.url}/token`, { headers: { cookie: session.cookie } });
    expect(await page.text()).toContain("设置新密码");
  });

  test("a request forwarded by a proxy is not loopback, even without TRUST_PROXY", async () => {
    await server.stop();
    server = await startTestServer({ store });
    // The same pending code is printed again at each start.
    expect(await awaitSetupCode(server.output)).toBe(code);
    expect((await login({ username: "root", password: "123456" }, { "x-forwarded-for": "127.0.0.1" })).result.body.message).toBe(missing);
    expect((await login({ username: "root", password: "123456" }, { "x-real-ip": "10.1.1.1" })).result.body.message).toBe(missing);
    expect((await login({ username: "root", password: "123456" }, {})).result.body.success).toBe(true);
    await server.stop();
    server = await startTestServer({ store, env: { TRUST_PROXY: "true" } });
  });

  test("is void once root's password is changed: not printed again, the new password needs no code", async () => {
    const { session, result } = await login({ username: "root", password: "123456", setup_code: code });
    session.userId = result.body.data.id;
    const changed = await session.put("/api/user/self", { password: rootPassword, password2: rootPassword, original_password: "123456" });
    expect(changed.body.success).toBe(true);
    const stored = async () => (await store.query<{ value: string }>("select value from options where key = 'SetupCode'"))[0]?.value;
    const deadline = Date.now() + 10_000;
    while ((await stored()) !== "" && Date.now() < deadline) await Bun.sleep(50);
    expect(await stored()).toBe("");
    expect((await login({ username: "root", password: rootPassword })).result.body.success).toBe(true);
    expect((await login({ username: "root", password: "123456", setup_code: code })).result.body).toEqual({
      success: false,
      message: wrongCredentials,
    });
    await server.stop();
    server = await startTestServer({ store, env: { TRUST_PROXY: "true" } });
    expect(server.output()).not.toContain("setup code");
  });

  test("a root with the default password but no code (a store imported with it) gets a new code at the first remote attempt", async () => {
    // new-api's root / 123456, as a bcrypt hash the import keeps.
    const bcrypt = await Bun.password.hash("123456", { algorithm: "bcrypt", cost: 4 });
    await store.query("update users set password = ? where username = 'root'", bcrypt);
    const { result } = await login({ username: "root", password: "123456" });
    expect(result.body.message).toBe(missing);
    const fresh = await awaitSetupCode(server.output, code);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(code);
    expect((await login({ username: "root", password: "123456", setup_code: code })).result.body.message).toBe(wrong);
    expect((await login({ username: "root", password: "123456", setup_code: fresh })).result.body.success).toBe(true);
  });
});

describe("guessing the setup code", () => {
  test("wrong codes count as failed sign-ins: the account is locked after the limit, even for the right code", async () => {
    const limitedStore = await createTestStore();
    const limited = await startTestServer({ store: limitedStore, env: { TRUST_PROXY: "true", CRITICAL_RATE_LIMIT: "3" } });
    try {
      const right = await awaitSetupCode(limited.output);
      const attempt = (address: string, setup_code: string) =>
        new ApiSession(limited.url).post(
          "/api/user/login",
          { username: "root", password: "123456", setup_code },
          { "x-forwarded-for": address },
        );
      for (let index = 0; index < 3; index++)
        expect((await attempt(`198.51.100.${index}`, `WRNG-000${index}-0000`)).body.message).toBe(wrong);
      expect((await attempt("198.51.100.9", right!)).status).toBe(429);
    } finally {
      await limited.stop();
      await limitedStore.dispose();
    }
  });
});
