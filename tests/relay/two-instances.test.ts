// Two gateway instances on one PostgreSQL database and one Redis (reliability plan R1 "2 nodes",
// P3, L7, L8): a code redeemed through both at once credits once, the same Epay notification sent
// to both at once credits once, dashboard refreshes on both never double count, and a low-balance
// alert goes out once although both instances settle requests for the user.
// Runs in the PostgreSQL pass when a Redis is given (CI sets TEST_REDIS_URL).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { newUserSession, rootSession, ApiSession } from "../helpers/api-session.ts";
import { startMailCatcher, type MailCatcher } from "../helpers/mail-catcher.ts";
import { seedUsers } from "../helpers/seeded-users.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, testDialect, type TestStore } from "../helpers/test-store.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { addChannel, addToken, n, openai, postRelay, reservedFor, setOptions, type RelayWorld } from "../helpers/relay-world.ts";
import { sharedRedisEnv } from "../helpers/shared-redis-env.ts";

setDefaultTimeout(60_000);

const enabled = testDialect === "pg" && Boolean(process.env.TEST_REDIS_URL);

describe.if(enabled)("two instances sharing PostgreSQL and Redis", () => {
  let store: TestStore;
  let upstream: Upstream;
  let mail: MailCatcher;
  let first: TestServer;
  let second: TestServer;
  let rootFirst: ApiSession;
  let rootSecond: ApiSession;
  let env: Record<string, string>;

  beforeAll(async () => {
    store = await createTestStore();
    upstream = await startUpstream();
    mail = await startMailCatcher();
    // A prefix of this run's own, so marks and locks of other runs sharing the Redis do not count.
    env = {
      ...sharedRedisEnv(),
      STREAMING_TIMEOUT: "60",
    };
    first = await startTestServer({ store, env });
    second = await startTestServer({ store, env });
    rootFirst = await rootSession(first.url);
    rootSecond = await rootSession(second.url);
    const configured = await rootFirst.put("/api/option/", [
      { key: "ServerAddress", value: "https://gw.example.com" },
      { key: "PayAddress", value: "https://pay.example.com" },
      { key: "EpayId", value: "3001" },
      { key: "EpayKey", value: "two-instance-key" },
      { key: "SMTPServer", value: "127.0.0.1" },
      { key: "SMTPPort", value: String(mail.port) },
      { key: "SMTPFrom", value: "gateway@example.com" },
      { key: "QuotaRemindThreshold", value: "1000000" },
    ]);
    expect(configured.body.success).toBe(true);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await upstream?.stop();
    await mail?.close();
    await store?.dispose();
  });

  const quotaOf = async (id: number) =>
    Number((await store.query<{ quota: number }>("select quota from users where id = ?", id))[0]!.quota);

  test("one code redeemed through both instances at once credits once", async () => {
    const users = await seedUsers(first, "twin", 40);
    for (let round = 0; round < 5; round++) {
      const [key] = (await rootFirst.post("/api/redemption/", { name: `twin${round}`, quota: 4242, count: 1 })).body.data as string[];
      const results = await Promise.all(
        users.map((user, index) => {
          const session = new ApiSession(index % 2 ? second.url : first.url);
          session.accessToken = user.session.accessToken;
          session.userId = user.id;
          return session.post("/api/user/topup", { key });
        }),
      );
      expect(results.filter((result) => result.body.success)).toHaveLength(1);
    }
    const [{ total }] = await store.query<{ total: number }>("select sum(quota) as total from users where username like 'twin%'");
    expect(Number(total)).toBe(5 * 4242);
  });

  test("the same Epay notification sent to both instances at once credits once", async () => {
    const [buyer] = await seedUsers(first, "twinbuyer", 1);
    for (let round = 0; round < 5; round++) {
      const order = (await buyer!.session.post("/api/user/pay", { amount: 2, payment_method: "zfb" })).body.data as Record<string, string>;
      const before = await quotaOf(buyer!.id);
      const params: Record<string, string> = {
        pid: "3001",
        out_trade_no: order.out_trade_no!,
        type: "alipay",
        money: order.money!,
        trade_status: "TRADE_SUCCESS",
      };
      const text = Object.keys(params)
        .sort()
        .map((name) => `${name}=${params[name]}`)
        .join("&");
      params.sign = createHash("md5").update(`${text}two-instance-key`).digest("hex");
      const query = new URLSearchParams(params).toString();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          fetch(`${index % 2 ? second.url : first.url}/api/user/epay/notify?${query}`).then((r) => r.text()),
        ),
      );
      expect(answers).toEqual(Array(10).fill("success"));
      expect(await quotaOf(buyer!.id)).toBe(before + 1_000_000);
    }
  });

  test("dashboard refreshes on both instances at once write each bucket once, equal to its logs", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (let index = 0; index < 60; index++) {
      await store.query(
        `insert into logs (user_id, username, created_at, type, model_name, prompt_tokens, completion_tokens, quota, content, token_name, "group", other)
         values (1, 'root', ?, 2, ?, 10, 5, ?, '', 't', 'default', '')`,
        now - index * 900,
        index % 2 ? "model-a" : "model-b",
        100 + index,
      );
    }
    await Promise.all([0, 1, 2, 3].map((index) => (index % 2 ? rootSecond : rootFirst).post("/api/data/refresh")));
    const rows = (await rootSecond.get(`/api/data/?start_timestamp=${now - 86400}&end_timestamp=${now + 3600}`)).body.data as {
      quota: number;
      count: number;
    }[];
    const [logs] = await store.query<{ quota: number; count: number }>(
      "select sum(quota) as quota, count(*) as count from logs where type = 2 and created_at >= ?",
      now - 86400 - (now % 3600),
    );
    expect(rows.reduce((sum, row) => sum + Number(row.quota), 0)).toBe(Number(logs!.quota));
    expect(rows.reduce((sum, row) => sum + Number(row.count), 0)).toBe(Number(logs!.count));
  });

  test("a low-balance alert is sent once although both instances settle the user's requests", async () => {
    const worldFirst: RelayWorld = { server: first, upstream, root: rootFirst, stop: async () => {} };
    const worldSecond: RelayWorld = { server: second, upstream, root: rootSecond, stop: async () => {} };
    await addChannel(worldFirst, { key: "twin-channel" });
    const user = await newUserSession(first.url, "twinalert");
    await store.query("update users set quota = 600000, email = 'twin@example.com' where id = ?", user.userId);
    const token = await addToken(user);
    const before = mail.messages.length;
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        await openai(worldSecond, token.key).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
        break;
      } catch (error) {
        // The second instance learns of the new channel through Redis; give it a moment.
        if (attempt === 19) throw error;
        await Bun.sleep(250);
      }
    }
    await openai(worldFirst, token.key).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    await openai(worldSecond, token.key).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    await mail.waitFor(before + 1);
    await Bun.sleep(500);
    expect(mail.messages.slice(before).map((message) => message.to)).toEqual([["twin@example.com"]]);
  });

  test("a session signed out on one instance is refused by the other (issue 15 §4)", async () => {
    const session = await rootSession(first.url);
    const onSecond = Object.assign(new ApiSession(second.url), { cookie: session.cookie, userId: session.userId });
    expect((await onSecond.get("/api/user/self")).status).toBe(200);
    expect((await session.get("/api/user/logout")).body.success).toBe(true);
    expect((await onSecond.get("/api/user/self")).status).toBe(401);
  });

  describe("reservations shared through Redis", () => {
    const price = 10_000; // ModelPrice 0.02 at 500,000 per dollar: each call holds and costs this
    let worldFirst: RelayWorld;
    let worldSecond: RelayWorld;
    let userId: number;
    let tokenKey: string;

    const fire = (count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, index) =>
          postRelay(index % 2 ? worldSecond : worldFirst, "/v1/chat/completions", tokenKey, {
            model: "twin-fixed-model",
            messages: [{ role: "user", content: "hi" }],
          }),
        ),
      );

    async function books() {
      const [user] = await store.query<Record<string, unknown>>("select quota, used_quota, request_count from users where id = ?", userId);
      const [logs] = await store.query<Record<string, unknown>>(
        "select count(*) as count, coalesce(sum(quota), 0) as total from logs where type = 2 and user_id = ?",
        userId,
      );
      return {
        quota: n(user!.quota),
        used: n(user!.used_quota),
        requests: n(user!.request_count),
        logs: n(logs!.count),
        logTotal: n(logs!.total),
      };
    }

    beforeAll(async () => {
      worldFirst = { server: first, upstream, root: rootFirst, stop: async () => {} };
      worldSecond = { server: second, upstream, root: rootSecond, stop: async () => {} };
      await addChannel(worldFirst, { key: "twin-crowd", models: "twin-fixed-model" });
      await setOptions(worldFirst, { ModelPrice: JSON.stringify({ "twin-fixed-model": 0.02 }) });
      const user = await newUserSession(first.url, "twincrowd");
      userId = user.userId!;
      tokenKey = (await addToken(user)).key;
      // The second instance learns of the channel and the price through Redis.
      for (let attempt = 0; attempt < 40; attempt++) {
        await store.query("update users set quota = ? where id = ?", price, userId);
        if ((await fire(2)).every((answer) => answer.status === 200)) break;
        await Bun.sleep(250);
      }
    });

    test("100 concurrent requests through both instances against a balance for 20: exactly 20 served", async () => {
      upstream.behave("twin-crowd", { delayMs: 300 });
      const before = await books();
      await store.query("update users set quota = ? where id = ?", 20 * price, userId);
      const answers = await fire(100);
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
      expect(new Set(answers.filter((answer) => answer.status !== 200).map((answer) => answer.status))).toEqual(new Set([403]));
      const after = await books();
      expect(after.quota).toBe(0);
      expect([
        after.used - before.used,
        after.requests - before.requests,
        after.logs - before.logs,
        after.logTotal - before.logTotal,
      ]).toEqual([20 * price, 20, 20, 20 * price]);
      expect(after.used).toBe(after.logTotal);
      expect(await reservedFor(worldSecond, { userId, tokenKey })).toBe(false);
    });

    test("an instance killed with requests in flight: its reservations lapse, a restart holds nothing, the books balance", async () => {
      await store.query("update users set quota = ? where id = ?", 1_000_000, userId);
      const before = await books();
      upstream.behave("twin-crowd", { delayMs: 8000 });
      const inFlight = Array.from({ length: 10 }, () =>
        postRelay(worldSecond, "/v1/chat/completions", tokenKey, {
          model: "twin-fixed-model",
          messages: [{ role: "user", content: "hi" }],
        }).catch(() => undefined),
      );
      await Bun.sleep(500);
      await second.crash();
      await Promise.all(inFlight);
      upstream.behave("twin-crowd", {});
      // The dead instance's reservations still count until its mark expires...
      expect(await reservedFor(worldFirst, { userId, tokenKey })).toBe(true);
      second = await startTestServer({ store, env });
      worldSecond = { ...worldSecond, server: second, root: await rootSession(second.url) };
      // The ten requests cut short cost nothing.
      const after = await books();
      expect(after.quota + after.used).toBe(before.quota + before.used);
      expect([after.used, after.requests]).toEqual([after.logTotal, after.logs]);
      // ...then nothing is reserved (the restarted process is a new instance holding nothing).
      let reserved = true;
      for (let attempt = 0; attempt < 30 && reserved; attempt++) {
        await Bun.sleep(1000);
        reserved = await reservedFor(worldSecond, { userId, tokenKey });
      }
      expect(reserved).toBe(false);
    }, 60_000);
  });
});
