// Sign-in and reset count failed attempts per client address and per account; registration
// counts its own attempts per address; other /api calls have a looser limit (issue 15 §6).
// TRUST_PROXY lets the suite speak from several addresses (X-Forwarded-For); root, still with the
// default password, gives the setup code the server printed, as from any address but loopback.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession } from "../helpers/api-session.ts";
import { printedSetupCode } from "../helpers/setup-code.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      CRITICAL_RATE_LIMIT: "5",
      CRITICAL_RATE_LIMIT_DURATION: "600",
      GLOBAL_API_RATE_LIMIT: "40",
      GLOBAL_API_RATE_LIMIT_DURATION: "600",
      TRUST_PROXY: "true",
    },
  });
});
afterAll(() => server.stop());

const from = (address: string) => ({ "x-forwarded-for": address });
const login = (address: string, username: string, password: string) =>
  new ApiSession(server.url).post(
    "/api/user/login",
    { username, password, ...(username === "root" ? { setup_code: printedSetupCode(server.output()) } : {}) },
    from(address),
  );

describe("credential endpoints", () => {
  test("the sixth failed sign-in from an address gets 429 with a clear message, even with the right password", async () => {
    await new ApiSession(server.url).post("/api/user/register", { username: "sharer", password: "password123" }, from("10.0.9.1"));
    // Five different accounts, so that only the address's count reaches the limit.
    for (let attempt = 0; attempt < 5; attempt++) expect((await login("10.0.0.1", `nobody${attempt}`, "wrong")).status).toBe(200);
    const limited = await login("10.0.0.1", "sharer", "password123");
    expect(limited.status).toBe(429);
    expect(limited.body.success).toBe(false);
    expect(limited.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Registration has a window of its own: it is not locked by the failed sign-ins.
    const registered = await new ApiSession(server.url).post(
      "/api/user/register",
      { username: "fresh1", password: "password123" },
      from("10.0.0.1"),
    );
    expect(registered.body).toEqual({ success: true, message: "注册成功！" });
  });

  test("successful sign-ins do not count: people sharing an address do not lock each other out", async () => {
    for (let attempt = 0; attempt < 12; attempt++) expect((await login("10.0.0.2", "root", "123456")).body.success).toBe(true);
  });

  test("failures count per account too, from any address; other accounts are unaffected", async () => {
    await new ApiSession(server.url).post("/api/user/register", { username: "target", password: "password123" }, from("10.0.1.1"));
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(`10.0.2.${attempt}`, "target", "guess")).status).toBe(200);
    expect((await login("10.0.3.1", "target", "password123")).status).toBe(429);
    expect((await login("10.0.3.1", "TARGET", "password123")).status).toBe(429);
    expect((await login("10.0.3.1", "root", "123456")).body.success).toBe(true);
  });

  test("registration counts every attempt per address", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      await new ApiSession(server.url).post("/api/user/register", { username: `reg${attempt}`, password: "password123" }, from("10.0.4.1"));
    }
    const refused = await new ApiSession(server.url).post(
      "/api/user/register",
      { username: "reg9", password: "password123" },
      from("10.0.4.1"),
    );
    expect(refused.status).toBe(429);
    expect((await login("10.0.4.1", "root", "123456")).body.success).toBe(true);
  });

  test("password reset counts failed attempts per address", async () => {
    const reset = (address: string) =>
      new ApiSession(server.url).post("/api/user/reset", { email: "someone@example.com", token: "not-a-token" }, from(address));
    for (let attempt = 0; attempt < 5; attempt++) expect((await reset("10.0.5.1")).body.message).toBe("重置链接非法或已过期");
    expect((await reset("10.0.5.1")).status).toBe(429);
    // The same address signs in as usual: the windows are separate.
    expect((await login("10.0.5.1", "root", "123456")).body.success).toBe(true);
  });
});

describe("login CSRF (issue 15 §6)", () => {
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${server.url}${path}`, { method: "POST", body, headers: { "x-forwarded-for": "10.0.6.1", ...headers }, redirect: "manual" });

  test("a form another site posts is refused before anything is read, and sets no cookie", async () => {
    for (const path of ["/api/user/login", "/api/user/register", "/api/user/reset"]) {
      const form = await post(path, "username=root&password=123456", {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
      });
      expect(form.status).toBe(415);
      expect(await form.json()).toEqual({ success: false, message: "请求体必须是 JSON" });
      expect(form.headers.getSetCookie()).toEqual([]);
      const plain = await post(path, JSON.stringify({ username: "root", password: "123456" }), { "content-type": "text/plain" });
      expect(plain.status).toBe(415);
    }
  });

  test("JSON from another origin is refused; from this site, or from a script (no Origin), it signs in", async () => {
    const body = JSON.stringify({ username: "root", password: "123456", setup_code: printedSetupCode(server.output()) });
    const json = { "content-type": "application/json" };
    const foreign = await post("/api/user/login", body, { ...json, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ success: false, message: "请求来源不被允许" });
    expect(foreign.headers.getSetCookie()).toEqual([]);
    expect((await post("/api/user/login", body, { ...json, origin: "null" })).status).toBe(403);
    expect((await post("/api/user/login", body, { ...json, "sec-fetch-site": "cross-site" })).status).toBe(403);
    const own = await post("/api/user/login", body, { ...json, origin: server.url });
    expect(((await own.json()) as { success: boolean }).success).toBe(true);
    expect(own.headers.getSetCookie().some((line) => line.startsWith("session="))).toBe(true);
    expect(((await (await post("/api/user/login", body, json)).json()) as { success: boolean }).success).toBe(true);
  });
});

describe("general /api limit", () => {
  test("stops a client after the configured number of calls", async () => {
    const statuses: number[] = [];
    for (let call = 0; call < 45; call++) statuses.push((await fetch(`${server.url}/api/status`)).status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    // Pages and assets are not counted against the API limit.
    expect((await fetch(`${server.url}/about`)).status).toBe(200);
  });
});
