// Concurrency never spends more than the balance (reliability plan Q1-Q3, L1-L6): 100 requests
// at once against a balance that covers 20. A hold is a reservation checked against the balance
// read from the store less every open reservation, in one step no other request can enter; the
// store is charged once, at settlement.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newUserSession, type ApiSession } from "../helpers/api-session.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  postRelay,
  reservedFor,
  setOptions,
  startRelayWorld,
  withoutRequestId,
  type RelayWorld,
} from "../helpers/relay-world.ts";

let world: RelayWorld;
let channelId: number;
const price = 10_000; // $0.02 at 500,000 per dollar

beforeAll(async () => {
  world = await startRelayWorld();
  channelId = await addChannel(world, { key: "sk-crowd", models: "fixed-crowd-model,gpt-4o" });
  await setOptions(world, { ModelPrice: JSON.stringify({ "fixed-crowd-model": 0.02 }) });
  // Every upstream answer takes a while, so the hundred requests really overlap.
  world.upstream.behave("sk-crowd", { delayMs: 150, promptTokens: 20, completionTokens: 10 });
});
afterAll(() => world.stop());

async function userWith(name: string, quota: number): Promise<{ session: ApiSession; id: number }> {
  const session = await newUserSession(world.server.url, name);
  await world.server.store.query("update users set quota = ? where username = ?", quota, name);
  return { session, id: session.userId! };
}

const fire = (key: string, model: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, () =>
      postRelay(world, "/v1/chat/completions", key, { model, messages: [{ role: "user", content: "hi" }], max_tokens: 50 }),
    ),
  );

async function ledger(userId: number, token: { key: string }) {
  const user = await one(world, "select quota, used_quota, request_count from users where id = ?", userId);
  const logs = await one(
    world,
    "select count(*) as count, coalesce(sum(quota), 0) as total from logs where type = 2 and user_id = ?",
    userId,
  );
  const tokens = await one(world, "select coalesce(sum(used_quota), 0) as used from tokens where user_id = ?", userId);
  const books = {
    quota: n(user.quota),
    used: n(user.used_quota),
    requests: n(user.request_count),
    logCount: n(logs.count),
    logTotal: n(logs.total),
    tokenUsed: n(tokens.used),
  };
  // Read after the books, since the probe charges a request of its own.
  const reserved = await reservedFor(world, { userId, tokenKey: token.key });
  return { ...books, holds: reserved ? 1 : 0 };
}

describe("100 concurrent requests, a balance for 20", () => {
  test("fixed price: exactly 20 served, 80 refused, the balance exactly spent", async () => {
    const { session, id } = await userWith("crowd1", 20 * price);
    const token = await addToken(session, { name: "crowd" });
    const channelBefore = n((await one(world, "select used_quota from channels where id = ?", channelId)).used_quota);
    const responses = await fire(token.key, "fixed-crowd-model", 100);
    const served = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status !== 200);
    expect(served).toHaveLength(20);
    expect(refused).toHaveLength(80);
    for (const response of refused) {
      expect({ status: response.status, error: withoutRequestId(response.json).error }).toEqual({
        status: 403,
        error: { message: "用户额度不足", type: "new_api_error", param: null, code: "insufficient_user_quota" },
      });
    }
    expect(await ledger(id, token)).toEqual({
      quota: 0,
      used: 20 * price,
      requests: 20,
      logCount: 20,
      logTotal: 20 * price,
      tokenUsed: 20 * price,
      holds: 0,
    });
    const channelAfter = n((await one(world, "select used_quota from channels where id = ?", channelId)).used_quota);
    expect(channelAfter - channelBefore).toBe(20 * price);
  }, 60_000);

  test("a limited token covering 20 of a rich user's requests", async () => {
    const { session, id } = await userWith("crowd2", 100_000_000);
    const token = await addToken(session, { name: "capped", unlimited_quota: false, remain_quota: 20 * price });
    const responses = await fire(token.key, "fixed-crowd-model", 100);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(20);
    const refusals = responses.filter((response) => response.status !== 200).map((response) => withoutRequestId(response.json).error.code);
    expect(new Set(refusals)).toEqual(new Set(["pre_consume_token_quota_failed"]));
    const row = await one(world, "select remain_quota, used_quota from tokens where id = ?", token.id);
    expect([n(row.remain_quota), n(row.used_quota)]).toEqual([0, 20 * price]);
    const books = await ledger(id, await addToken(session, { name: "probe" }));
    expect(books.quota).toBe(100_000_000 - 20 * price);
    expect([books.used, books.logTotal, books.logCount, books.holds]).toEqual([20 * price, 20 * price, 20, 0]);
  }, 60_000);

  test("token-priced: holds cover the worst case, the books balance exactly, never below zero", async () => {
    // gpt-4o: a hold covers the prompt plus 50 completion tokens at ratio 4; the answer costs less.
    const { session, id } = await userWith("crowd3", 0);
    const token = await addToken(session, { name: "ratio" });
    const probe = await postRelay(world, "/v1/chat/completions", token.key, {
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 50,
    });
    expect(probe.status).toBe(403);
    const cost = Math.round((20 + 10 * 4) * 1.25);
    // Enough for 20 holds of (prompt + 200) x 1.25 = about 260 each.
    await world.server.store.query("update users set quota = ? where id = ?", 20 * 262, id);
    const responses = await fire(token.key, "gpt-4o", 100);
    const served = responses.filter((response) => response.status === 200).length;
    expect(served).toBeGreaterThanOrEqual(20);
    const books = await ledger(id, token);
    expect(books.quota).toBeGreaterThanOrEqual(0);
    expect(books).toEqual({
      quota: 20 * 262 - served * cost,
      used: served * cost,
      requests: served,
      logCount: served,
      logTotal: served * cost,
      tokenUsed: served * cost,
      holds: 0,
    });
  }, 60_000);
});
