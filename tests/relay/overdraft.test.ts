// What a balance can lose when an upstream bills more than the hold covered (issue 14's measured
// case): 100 concurrent calls against a balance that covers 20 holds, and an upstream reporting
// ten times max_tokens. Holds admit exactly 20; each one overdraws by its cost minus its hold,
// which is the bound docs/ARCHITECTURE.md states; a balance below zero refuses everything after.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newUserSession } from "../helpers/api-session.ts";
import { addChannel, addToken, n, one, postRelay, reservedFor, startRelayWorld, withoutRequestId, type RelayWorld } from "./relay-world.ts";

let world: RelayWorld;

beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, { key: "sk-greedy", models: "gpt-4o,gpt-4o-mini" });
});
afterAll(() => world.stop());

const body = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }], max_tokens: 50 };
/** gpt-4o: model ratio 1.25, completion ratio 4; the prompt "hi" is 8 tokens with its framing. */
const hold = Math.ceil((8 + 50 * 4) * 1.25);

async function books(userId: number) {
  const user = await one(world, "select quota, used_quota, request_count from users where id = ?", userId);
  const logs = await one(world, "select count(*) as count, coalesce(sum(quota), 0) as total from logs where type = 2 and user_id = ?", userId);
  const tokens = await one(world, "select coalesce(sum(used_quota), 0) as used from tokens where user_id = ?", userId);
  return { quota: n(user.quota), used: n(user.used_quota), requests: n(user.request_count), logs: n(logs.count), logTotal: n(logs.total), tokenUsed: n(tokens.used) };
}

describe("an upstream that bills more than max_tokens", () => {
  test("100 concurrent calls, a balance for 20: 20 served, the overdraft is 20 x (cost - hold) at most, then refusals", async () => {
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
    const after = await books(userId);
    expect(after).toEqual({ quota: 20 * hold - 20 * cost, used: 20 * cost, requests: 20, logs: 20, logTotal: 20 * cost, tokenUsed: 20 * cost });
    expect(after.quota).toBeGreaterThanOrEqual(-served * (cost - hold));

    // Below zero: nothing more, not even the cheapest call, until the balance is topped up.
    world.upstream.behave("sk-greedy", {});
    const cheap = await postRelay(world, "/v1/chat/completions", token.key, { model: "gpt-4o-mini", messages: body.messages, max_tokens: 1 });
    expect([cheap.status, withoutRequestId(cheap.json).error.code]).toEqual([403, "insufficient_user_quota"]);
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
