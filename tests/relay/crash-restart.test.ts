// kill -9 with requests in flight, then a restart on the same store (reliability plan K1, K3):
// a crash loses at most the charges of the requests that were in flight (nothing was taken from
// any balance for them), never a user's money and never an acknowledged top-up; after the restart
// nothing stays reserved, and the books balance exactly from the store alone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { addChannel, addToken, n, one, postRelay, reservedFor, type RelayWorld } from "../helpers/relay-world.ts";

let store: TestStore;
let upstream: Upstream;
const servers: TestServer[] = [];

beforeAll(async () => {
  store = await createTestStore();
  upstream = await startUpstream();
});
afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => undefined);
  await upstream.stop();
  await store.dispose();
});

async function world(): Promise<RelayWorld> {
  const server = await startTestServer({ store, env: { STREAMING_TIMEOUT: "60" } });
  servers.push(server);
  return { server, upstream, root: await rootSession(server.url), stop: () => server.stop() };
}

const opening = 10_000_000;
const granted = 5_000_000;
const topUp = 4242;

describe("a crash with requests in flight", () => {
  test("loses only their charges; after a restart nothing is reserved and the books balance", async () => {
    const first = await world();
    const channelId = await addChannel(first, { key: "sk-crash", models: "gpt-4o-mini" });
    const session = await newUserSession(first.server.url, "crashy");
    const userId = session.userId!;
    await store.query("update users set quota = ? where id = ?", opening, userId);
    const limited = await addToken(session, { name: "limited", unlimited_quota: false, remain_quota: granted });
    const unlimited = await addToken(session, { name: "unlimited" });

    // An acknowledged top-up before the crash.
    const [code] = (await first.root.post("/api/redemption/", { name: "crash", quota: topUp, count: 1 })).body.data as string[];
    expect((await session.post("/api/user/topup", { key: code })).body.success).toBe(true);

    // Finished requests: charged and logged before the crash.
    upstream.behave("sk-crash", { promptTokens: 40, completionTokens: 20 });
    for (let index = 0; index < 12; index++) {
      const key = index % 2 ? limited.key : unlimited.key;
      expect(
        (
          await postRelay(first, "/v1/chat/completions", key, {
            model: "gpt-4o-mini",
            messages: [{ role: "user", content: `done ${index}` }],
            max_tokens: 100,
          })
        ).status,
      ).toBe(200);
    }

    // In flight at the crash: streams half-way through, and whole answers still waited for.
    upstream.behave("sk-crash", { chunks: 40, chunkDelayMs: 100, delayMs: 0, promptTokens: 40, completionTokens: 40 });
    const streams = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const response = await fetch(`${first.server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer sk-${index % 2 ? limited.key : unlimited.key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "stream" }], stream: true, max_tokens: 200 }),
        });
        const reader = response.body!.getReader();
        await reader.read();
        return reader;
      }),
    );
    upstream.behave("sk-crash", { delayMs: 5000 });
    const waiting = Array.from({ length: 10 }, () =>
      postRelay(first, "/v1/chat/completions", limited.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "slow" }] }).catch(
        () => undefined,
      ),
    );
    await Bun.sleep(300);
    await first.server.crash();
    // The clients see their connections break.
    await Promise.all([
      ...streams.map((reader) =>
        reader
          .read()
          .then(() => reader.cancel())
          .catch(() => undefined),
      ),
      ...waiting,
    ]);

    const second = await world();
    if (store.dialect === "sqlite") expect(await store.query("pragma integrity_check")).toEqual([{ integrity_check: "ok" }]);
    const user = await one(second, "select quota, used_quota, request_count from users where id = ?", userId);
    const logs = await one(
      second,
      "select count(*) as count, coalesce(sum(quota), 0) as total from logs where type = 2 and user_id = ?",
      userId,
    );
    const tokens = await one(second, "select coalesce(sum(used_quota), 0) as used from tokens where user_id = ?", userId);
    const token = await one(second, "select remain_quota, used_quota from tokens where id = ?", limited.id);
    const channel = await one(second, "select used_quota from channels where id = ?", channelId);
    const channelLogs = await one(second, "select coalesce(sum(quota), 0) as total from logs where type = 2 and channel_id = ?", channelId);
    const topUps = await one(
      second,
      "select count(*) as count, coalesce(sum(quota), 0) as total from logs where type = 1 and user_id = ?",
      userId,
    );

    // Money: only the top-up moved quota + used quota; every charge is a log.
    expect(n(user.quota) + n(user.used_quota)).toBe(opening + topUp);
    expect([n(user.used_quota), n(user.request_count)]).toEqual([n(logs.total), n(logs.count)]);
    expect(n(logs.count)).toBeGreaterThanOrEqual(12);
    expect(n(tokens.used)).toBe(n(user.used_quota));
    expect(n(token.remain_quota) + n(token.used_quota)).toBe(granted);
    expect(n(channel.used_quota)).toBe(n(channelLogs.total));
    expect([n(topUps.count), n(topUps.total)]).toEqual([1, topUp]);

    // Nothing of the requests cut short stays reserved.
    upstream.behave("sk-crash", {});
    expect(await reservedFor(second, { userId, tokenKey: unlimited.key })).toBe(false);
  }, 60_000);
});
