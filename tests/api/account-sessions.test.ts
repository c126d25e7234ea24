// Signed-in sessions as the personal settings see them (issue 28): the list (device from the
// user agent, address, sign-in time and method, last seen), ending one, an admin ending all of a
// user's, and what ends every other session (password change) or all of them (role change).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, testDialect } from "../helpers/test-store.ts";
import { sharedRedisEnv } from "../helpers/shared-redis-env.ts";

const chromeOnMac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const safariOnIphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

const signIn = async (username: string, userAgent: string, password = "password123") => {
  const session = new ApiSession(server.url);
  const result = await session.request("POST", "/api/user/login", { username, password }, { "user-agent": userAgent });
  expect(result.body.success).toBe(true);
  session.userId = result.body.data.id;
  return session;
};

type SessionEntry = {
  id: number;
  device: string;
  device_type: string;
  address: string;
  method: string;
  created_at: number;
  last_seen_at: number;
  current: boolean;
};

describe("GET /api/user/sessions", () => {
  test("lists the account's sessions with device, address, method and times, this one first", async () => {
    await newUserSession(server.url, "se-list");
    const laptop = await signIn("se-list", chromeOnMac);
    const phone = await signIn("se-list", safariOnIphone);
    const listed = (await laptop.get("/api/user/sessions")).body.data as SessionEntry[];
    expect(listed.length).toBe(3);
    expect(listed[0]!.current).toBe(true);
    expect(listed[0]!.device).toContain("Chrome 131");
    expect(listed[0]!.device).toContain("macOS");
    expect(listed[0]!.device_type).toBe("desktop");
    expect(listed[0]!.address).toBe("127.0.0.1");
    expect(listed[0]!.method).toBe("password");
    expect(listed[0]!.created_at).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(listed[0]!.last_seen_at).toBeGreaterThanOrEqual(listed[0]!.created_at);
    const iphone = listed.find((entry) => entry.device.includes("Safari"))!;
    expect(iphone.device).toContain("iOS");
    expect(iphone.device_type).toBe("mobile");
    expect(iphone.current).toBe(false);
    // Another account's sessions are not listed, and the list carries no cookie material.
    expect(JSON.stringify((await phone.get("/api/user/sessions")).body)).not.toContain("token_hash");
    const other = await newUserSession(server.url, "se-other");
    expect(((await other.get("/api/user/sessions")).body.data as SessionEntry[]).length).toBe(1);
  });
});

describe("ending sessions", () => {
  test("DELETE /api/user/sessions/{id} ends that session on the server; another account's id is refused", async () => {
    await newUserSession(server.url, "se-end");
    const laptop = await signIn("se-end", chromeOnMac);
    const phone = await signIn("se-end", safariOnIphone);
    const phoneEntry = ((await laptop.get("/api/user/sessions")).body.data as SessionEntry[]).find((entry) =>
      entry.device.includes("Safari"),
    )!;
    const stranger = await newUserSession(server.url, "se-stranger");
    expect((await stranger.delete(`/api/user/sessions/${phoneEntry.id}`)).body).toEqual({ success: false, message: "会话不存在或已结束" });
    expect((await phone.get("/api/user/self")).status).toBe(200);
    const ended = await laptop.delete(`/api/user/sessions/${phoneEntry.id}`);
    expect(ended.body).toEqual({ success: true, message: "会话已结束" });
    expect((await phone.get("/api/user/self")).status).toBe(401);
    expect((await laptop.get("/api/user/self")).status).toBe(200);
    expect(((await laptop.get("/api/user/sessions")).body.data as SessionEntry[]).some((entry) => entry.id === phoneEntry.id)).toBe(false);
    // Ending one's own current session signs this browser out.
    const own = ((await laptop.get("/api/user/sessions")).body.data as SessionEntry[]).find((entry) => entry.current)!;
    const self = await laptop.delete(`/api/user/sessions/${own.id}`);
    expect(self.body.success).toBe(true);
    expect(laptop.cookie).toBe("");
  });

  test("an admin ends every session of a user of a lower role, not of an equal one", async () => {
    const user = await newUserSession(server.url, "se-victim");
    const second = await signIn("se-victim", chromeOnMac);
    const admin = await newUserSession(server.url, "se-admin");
    await root.post("/api/user/manage", { id: admin.userId, action: "promote" });
    await admin.login("se-admin", "password123");
    const ended = await admin.delete(`/api/user/${user.userId}/sessions`);
    expect(ended.body).toEqual({ success: true, message: "已结束该用户的所有会话", data: { ended: 2 } });
    expect((await user.get("/api/user/self")).status).toBe(401);
    expect((await second.get("/api/user/self")).status).toBe(401);
    // The user signs in again as usual.
    expect((await new ApiSession(server.url).login("se-victim", "password123")).body.success).toBe(true);
    const peer = await newUserSession(server.url, "se-peer");
    await root.post("/api/user/manage", { id: peer.userId, action: "promote" });
    expect((await admin.delete(`/api/user/${peer.userId}/sessions`)).body.message).toBe("无权更新同权限等级或更高权限等级的用户信息");
    expect((await new ApiSession(server.url).delete(`/api/user/${user.userId}/sessions`, { "New-Api-User": "1" })).status).toBe(401);
  });

  test("a password change ends every other session and keeps this one; a role change ends them all", async () => {
    const session = await newUserSession(server.url, "se-pass");
    const other = await signIn("se-pass", safariOnIphone);
    const changed = await session.put("/api/user/self", { password: "newpassword1", original_password: "password123" });
    expect(changed.body.success).toBe(true);
    expect((await other.get("/api/user/self")).status).toBe(401);
    expect((await session.get("/api/user/self")).status).toBe(200);
    const listed = (await session.get("/api/user/sessions")).body.data as SessionEntry[];
    expect(listed.map((entry) => entry.current)).toEqual([true]);
    await root.post("/api/user/manage", { id: session.userId, action: "promote" });
    expect((await session.get("/api/user/self")).status).toBe(401);
  });

  // One SQLite file serves one process: two instances need PostgreSQL (the PostgreSQL pass), and
  // share Redis when the run has one (the notice ends it at once), else rely on the resync.
  test.if(testDialect === "pg")(
    "a session ended on one instance ends on the other",
    async () => {
      const store = await createTestStore();
      const env: Record<string, string> = process.env.TEST_REDIS_URL ? sharedRedisEnv() : { SYNC_FREQUENCY: "1" };
      const first = await startTestServer({ store, env });
      const second = await startTestServer({ store, env });
      try {
        const session = await newUserSession(first.url, "se-two");
        const there = Object.assign(new ApiSession(second.url), { cookie: session.cookie, userId: session.userId });
        expect((await there.get("/api/user/self")).status).toBe(200);
        const listed = (await there.get("/api/user/sessions")).body.data as SessionEntry[];
        await session.delete(`/api/user/sessions/${listed[0]!.id}`);
        const deadline = Date.now() + 15_000;
        let status = 200;
        while (status === 200 && Date.now() < deadline) {
          status = (await there.get("/api/user/self")).status;
          if (status === 200) await Bun.sleep(200);
        }
        expect(status).toBe(401);
      } finally {
        await second.stop();
        await first.stop();
        await store.dispose();
      }
    },
    60_000,
  );
});
