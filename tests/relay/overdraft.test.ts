// An upstream that bills more than the hold covered (issues 14 and 23): 100 concurrent calls
// against a balance that covers 20 holds, and an upstream reporting ten times max_tokens. Holds
// admit exactly 20; their settlements take the balance to zero and never below, each log says
// what it charged and what it could not collect, and the channel is flagged for the operator.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newUserSession } from "../helpers/api-session.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  postRelay,
  reservedFor,
  startRelayWorld,
  withoutRequestId,
  type RelayWorld,
} from "../helpers/relay-world.ts";

let world: RelayWorld;
let greedyChannel: number;

beforeAll(async () => {
  world = await startRelayWorld();
  greedyChannel = await addChannel(world, { key: "sk-greedy", models: "gpt-4o,gpt-4o-mini" });
});
afterAll(() => world.stop());

const body = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }], max_tokens: 50 };
/** gpt-4o: model ratio 1.25, completion ratio 4; the prompt "hi" is 8 tokens with its framing. */
const hold = Math.ceil((8 + 50 * 4) * 1.25);

async function books(userId: number) {
  const user = await one(world, "select quota, used_quota, request_count from users where id = ?", userId);
  const logs = await one(
    world,
    "select count(*) as count, coalesce(sum(quota), 0) as total from logs where type = 2 and user_id = ?",
    userId,
  );
  const tokens = await one(world, "select coalesce(sum(used_quota), 0) as used from tokens where user_id = ?", userId);
  return {
    quota: n(user.quota),
    used: n(user.used_quota),
    requests: n(user.request_count),
    logs: n(logs.count),
    logTotal: n(logs.total),
    tokenUsed: n(tokens.used),
  };
}

describe("an upstream that bills more than max_tokens", () => {
  test("100 concurrent calls, a balance for 20: 20 served, the balance stops at zero, the rest is uncollected, the channel flagged", async () => {
    const session = await newUserSession(world.server.url, "greedy");
    const userId = session.userId!;
    const token = await addToken(session, { name: "greedy" });
    await world.server.store.query("update users set quota = ? where id = ?", 20 * hold, userId);
    world.upstream.behave("sk-greedy", { delayMs: 300, promptTokens: 20, completionTokens: 500 });
    const cost = Math.round((20 + 500 * 4) * 1.25);

    const responses = await Promise.all(Array.from({ length: 100 }, () => postRelay(world, "/v1/chat/completions", token.key, body)));
    const served = responses.filter((response) => response.status === 200).length;
    expect(served).toBe(20);
    for (const refused of responses.filter((response) => response.status !== 200)) {
      expect([refused.status, withoutRequestId(refused.json).error.code]).toEqual([403, "insufficient_user_quota"]);
    }
    // Everything the balance had was charged, nothing more: used quota = Σ logs = what was paid.
    expect(await books(userId)).toEqual({
      quota: 0,
      used: 20 * hold,
      requests: 20,
      logs: 20,
      logTotal: 20 * hold,
      tokenUsed: 20 * hold,
    });
    const logs = await world.server.store.query<{ quota: number; other: string }>(
      "select quota, other from logs where type = 2 and user_id = ?",
      userId,
    );
    const others = logs.map((log) => JSON.parse(log.other));
    expect(others.reduce((sum, other) => sum + (other.uncollected ?? 0), 0)).toBe(20 * (cost - hold));
    for (const [index, other] of others.entries()) {
      expect(other.over_max_tokens).toBe(50);
      expect(n(logs[index]!.quota) + (other.uncollected ?? 0)).toBe(cost);
    }
    const channel = await one(
      world,
      "select used_quota, uncollected_quota, over_limit_count, over_limit_at from channels where id = ?",
      greedyChannel,
    );
    expect([n(channel.used_quota), n(channel.uncollected_quota), n(channel.over_limit_count)]).toEqual([20 * hold, 20 * (cost - hold), 20]);
    expect(n(channel.over_limit_at)).toBeGreaterThan(0);
    // The operator sees it: the channel through the API, and its row in the console's channel list.
    const listed = await world.root.get(`/api/channel/${greedyChannel}`);
    expect(listed.body.data).toMatchObject({ uncollected_quota: 20 * (cost - hold), over_limit_count: 20 });
    const page = await world.root.get("/channel");
    expect(page.body.raw).toContain(`data-billing-flag="20/${20 * (cost - hold)}"`);
    expect(page.body.raw).toContain("上游报告的输出超过 max_tokens：20 次");

    // At zero: nothing more, not even the cheapest call, until the balance is topped up.
    world.upstream.behave("sk-greedy", {});
    const cheap = await postRelay(world, "/v1/chat/completions", token.key, {
      model: "gpt-4o-mini",
      messages: body.messages,
      max_tokens: 1,
    });
    expect(cheap.status).toBe(403);
    await world.server.store.query("update users set quota = quota + ? where id = ?", 20 * cost, userId);
    expect((await postRelay(world, "/v1/chat/completions", token.key, body)).status).toBe(200);
  }, 60_000);
});

describe("the reservation probe the suites use", () => {
  test("sees a request in flight, and nothing once it is over", async () => {
    const session = await newUserSession(world.server.url, "inflight");
    const token = await addToken(session, { name: "inflight" });
    await world.server.store.query("update users set quota = 1000000 where id = ?", session.userId);
    world.upstream.behave("sk-greedy", { delayMs: 1500 });
    const pending = postRelay(world, "/v1/chat/completions", token.key, body);
    await Bun.sleep(300);
    expect(await reservedFor(world, { userId: session.userId!, tokenKey: token.key })).toBe(true);
    expect((await pending).status).toBe(200);
    expect(await reservedFor(world, { userId: session.userId!, tokenKey: token.key })).toBe(false);
  });
});
