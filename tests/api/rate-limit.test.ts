// Sign-in and registration are limited per client address; other /api calls have a looser limit.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { CRITICAL_RATE_LIMIT: "5", CRITICAL_RATE_LIMIT_DURATION: "600", GLOBAL_API_RATE_LIMIT: "40", GLOBAL_API_RATE_LIMIT_DURATION: "600" },
  });
});
afterAll(() => server.stop());

describe("critical endpoints", () => {
  test("the sixth login attempt within the window gets 429 with a clear message", async () => {
    const session = new ApiSession(server.url);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await session.login("root", "wrong")).status).toBe(200);
    }
    const limited = await session.login("root", "123456");
    expect(limited.status).toBe(429);
    expect(limited.body.success).toBe(false);
    expect(limited.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Registration shares the window.
    expect((await session.post("/api/user/register", { username: "x", password: "password123" })).status).toBe(429);
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
