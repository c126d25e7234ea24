// Issue 26 item 12: once, right after seeding through the API, every token was refused with 401
// 无效的令牌 and a fresh session with 未登录 for about 30 s. Accounts, sessions and tokens made
// through the API are usable at once, on the instance that made them and on any other: users
// created and given quota by an admin, each signing in (a fresh session) and making a token, the
// session and the token used immediately on every instance, while the admin keeps changing
// options, as a seeding script does. One instance always; two sharing PostgreSQL and Redis in
// the PostgreSQL pass when a Redis is given.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, testDialect, type TestStore } from "../helpers/test-store.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { sharedRedisEnv } from "../helpers/shared-redis-env.ts";

const twoInstances = testDialect === "pg" && Boolean(process.env.TEST_REDIS_URL);

describe(twoInstances ? "fresh accounts on two instances" : "fresh accounts on one instance", () => {
  let store: TestStore;
  let upstream: Upstream;
  let servers: TestServer[] = [];

  beforeAll(async () => {
    store = await createTestStore();
    upstream = await startUpstream();
    // Resyncs far apart: whatever works here works without waiting for one.
    const env: Record<string, string> = { SYNC_FREQUENCY: "600" };
    if (twoInstances) Object.assign(env, sharedRedisEnv("fresh"));
    servers = [await startTestServer({ store, env })];
    if (twoInstances) servers.push(await startTestServer({ store, env }));
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await upstream?.stop();
    await store?.dispose();
  });

  test("users, sessions and tokens made through the API work at once everywhere", async () => {
    const urls = servers.map((server) => server.url);
    const root = await rootSession(urls[0]!);
    const channel = await root.post("/api/channel/", {
      name: "fresh",
      type: 1,
      key: "sk-fresh",
      base_url: upstream.url,
      models: "gpt-4o-mini",
      group: "default",
    });
    expect(channel.body.success).toBe(true);
    const refusals: string[] = [];
    for (let round = 0; round < 6; round++) {
      const username = `fresh${round}`;
      expect((await root.post("/api/user/", { username, password: "password123", display_name: username })).body.success).toBe(true);
      const [user] = (await root.get(`/api/user/search?keyword=${username}`)).body.data.items ?? [];
      expect(user?.username).toBe(username);
      const quota = await root.put("/api/user/", { id: user.id, username, display_name: username, quota: 5_000_000, group: "default" });
      expect(quota.body.success).toBe(true);
      await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "gpt-4o-mini": 0.075 + round / 1000 }) });

      const session = new ApiSession(urls[(round + 1) % urls.length]!);
      expect((await session.login(username, "password123")).body.success).toBe(true);
      for (const url of urls) {
        const elsewhere = new ApiSession(url);
        elsewhere.cookie = session.cookie;
        elsewhere.userId = session.userId;
        const self = await elsewhere.get("/api/user/self");
        if (!self.body.success) refusals.push(`${username} session on ${url}: ${self.status} ${self.body.message}`);
      }
      const made = await session.post("/api/token/", { name: "fresh", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
      expect(made.body.success).toBe(true);
      const key = made.body.data[0].key as string;
      for (const url of urls) {
        const answer = await fetch(`${url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
        });
        const text = await answer.text();
        if (answer.status !== 200) refusals.push(`${username} token on ${url}: ${answer.status} ${text.slice(0, 200)}`);
      }
    }
    expect(refusals).toEqual([]);
  }, 120_000);
});
