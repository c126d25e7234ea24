// An upstream that bills more than the request allowed (issue 23, item 5): 200 concurrent calls
// with `max_tokens: 1` (half whole, half streamed), and an upstream that reports 50 completion
// tokens anyway (then 600), against a balance of 20,000. Before, the balance ended at −100,000
// (−1,200,000 with 600 tokens), on one node and on two. Now a settlement never takes a user's or
// a limited token's balance below zero (sampled while the calls run, and at the end): it charges
// what is left, the log says what it could not collect (`other.uncollected`), the channel row
// counts it with the answers over max_tokens, /metrics counts both, and the books stay exact
// (quota + used = the opening balance, used = Σ logs). Cases: one node; a token limited to
// 20,000 on a rich user; two gateway processes sharing PostgreSQL and a Redis of the test's own
// (in the PostgreSQL run, as the other Redis cases).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { newUserSession } from "../helpers/api-session.ts";
import { redisServerInstalled, startRedisProcess, type RedisProcess } from "../helpers/redis-process.ts";
import { testDialect } from "../helpers/test-store.ts";
import type { TestStore } from "../helpers/test-store.ts";
import { expectBalancedBooks, outageMetricsToken, startOutageWorld, type OutageWorld } from "../helpers/outage-world.ts";
import { addChannel, addToken, n, postRelay, setOptions, type RelayWorld } from "../helpers/relay-world.ts";
import { metricsToken } from "../helpers/ledger-invariants.ts";
import { reportFigures, startFaultWorld, streamChat, type FaultWorld } from "../helpers/fault-world.ts";

setDefaultTimeout(180_000);

/** ModelRatio 10, CompletionRatio 1: a call reporting 10 prompt and 50 completion tokens costs 600. */
const model = "outage-ratio-model";
const opening = 20_000;
const calls = 200;
const costOf = (completion: number) => (10 + completion) * 10;
const body = { model, max_tokens: 1, messages: [{ role: "user", content: "hi" }] };

type Outcome = { statuses: number[]; lowestBalance: number };

/** The calls, half whole and half streamed, while the balance (user's or token's) is sampled. */
async function flood(send: (index: number) => Promise<number>, balance: () => Promise<number>): Promise<Outcome> {
  let running = true;
  let lowestBalance = Number.POSITIVE_INFINITY;
  const sampler = (async () => {
    while (running) {
      lowestBalance = Math.min(lowestBalance, await balance());
      await Bun.sleep(20);
    }
  })();
  const statuses = await Promise.all(Array.from({ length: calls }, (_, index) => send(index)));
  running = false;
  await sampler;
  lowestBalance = Math.min(lowestBalance, await balance());
  return { statuses, lowestBalance };
}

/** What the logs of a user's calls say: charged, not collected, and the calls over max_tokens. */
async function logged(store: TestStore, userId: number) {
  // Only the case's model: the reservation probe of expectBalancedBooks is logged too.
  const rows = await store.query<{ quota: number; other: string }>(
    "select quota, other from logs where type = 2 and user_id = ? and model_name = ?",
    userId,
    model,
  );
  const others = rows.map((row) => JSON.parse(row.other) as { uncollected?: number; over_max_tokens?: number });
  return {
    count: rows.length,
    charged: rows.reduce((sum, row) => sum + n(row.quota), 0),
    uncollected: others.reduce((sum, other) => sum + (other.uncollected ?? 0), 0),
    overMaxTokens: others.filter((other) => other.over_max_tokens === 1).length,
  };
}

async function channelFlags(store: TestStore, channelId: number) {
  const [row] = await store.query<Record<string, unknown>>(
    "select used_quota, uncollected_quota, over_limit_count from channels where id = ?",
    channelId,
  );
  return { used: n(row!.used_quota), uncollected: n(row!.uncollected_quota), overLimit: n(row!.over_limit_count) };
}

/** A counter's sample for one channel on one instance's /metrics. */
async function metricOf(url: string, token: string, name: string, channelId: number): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  return Number(new RegExp(`^${name}\\{channel="${channelId}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
}

describe("one node", () => {
  let world: FaultWorld;
  let channelId: number;
  beforeAll(async () => {
    world = await startFaultWorld();
    channelId = await addChannel(world, { key: "sk-overbilling", models: model });
    await setOptions(world, { ModelRatio: JSON.stringify({ [model]: 10 }), CompletionRatio: JSON.stringify({ [model]: 1 }) });
  });
  afterAll(() => world?.stop());

  const send = (key: string) => (index: number) =>
    index % 2
      ? postRelay(world, "/v1/chat/completions", key, body).then((answer) => answer.status)
      : streamChat(world, key, body).then((outcome) => outcome.status);

  for (const completion of [50, 600]) {
    test(`${calls} calls with max_tokens 1, answered with ${completion} tokens, against ${opening}: the balance stops at zero`, async () => {
      world.upstream.behave("sk-overbilling", { delayMs: 200, promptTokens: 10, completionTokens: completion, chunks: 2 });
      const session = await newUserSession(world.server.url, `over${completion}`);
      const userId = session.userId!;
      await world.server.store.query("update users set quota = ? where id = ?", opening, userId);
      const token = await addToken(session, { name: `over${completion}` });
      const channelBefore = await channelFlags(world.server.store, channelId);
      const metricsBefore = {
        uncollected: await metricOf(world.server.url, metricsToken, "switchyard_quota_uncollected_total", channelId),
        overLimit: await metricOf(world.server.url, metricsToken, "switchyard_completions_over_limit_total", channelId),
      };

      const { statuses, lowestBalance } = await flood(send(token.key), async () =>
        n((await world.server.store.query<{ quota: number }>("select quota from users where id = ?", userId))[0]!.quota),
      );
      expect(statuses.filter((status) => status !== 200 && status !== 403)).toEqual([]);
      const served = statuses.filter((status) => status === 200).length;
      expect(served).toBeGreaterThan(0);
      const figures = await world.check({ totals: [{ userId, total: opening }] });

      expect(lowestBalance).toBeGreaterThanOrEqual(0);
      const logs = await logged(world.server.store, userId);
      // Every served call is in the books at its whole cost: what was charged plus what was not.
      expect(logs.count).toBe(served);
      expect(logs.charged + logs.uncollected).toBe(served * costOf(completion));
      expect(logs.charged).toBeLessThanOrEqual(opening);
      expect(logs.overMaxTokens).toBe(served);
      const channel = await channelFlags(world.server.store, channelId);
      expect({
        used: channel.used - channelBefore.used,
        uncollected: channel.uncollected - channelBefore.uncollected,
        overLimit: channel.overLimit - channelBefore.overLimit,
      }).toEqual({ used: logs.charged, uncollected: logs.uncollected, overLimit: served });
      expect(
        (await metricOf(world.server.url, metricsToken, "switchyard_quota_uncollected_total", channelId)) - metricsBefore.uncollected,
      ).toBe(logs.uncollected);
      expect(
        (await metricOf(world.server.url, metricsToken, "switchyard_completions_over_limit_total", channelId)) - metricsBefore.overLimit,
      ).toBe(served);
      reportFigures(`overdraft one node ${completion} tokens`, {
        served,
        lowestBalance,
        charged: logs.charged,
        uncollected: logs.uncollected,
        ...figures,
      });
    });
  }

  test(`a token limited to ${opening} on a rich user: the token stops at zero, the user is charged the same`, async () => {
    world.upstream.behave("sk-overbilling", { delayMs: 200, promptTokens: 10, completionTokens: 50, chunks: 2 });
    const session = await newUserSession(world.server.url, "overtoken");
    const userId = session.userId!;
    const rich = 10_000_000;
    await world.server.store.query("update users set quota = ? where id = ?", rich, userId);
    const token = await addToken(session, { name: "overtoken", unlimited_quota: false, remain_quota: opening });
    const { statuses, lowestBalance } = await flood(send(token.key), async () =>
      n(
        (await world.server.store.query<{ remain_quota: number }>("select remain_quota from tokens where id = ?", token.id))[0]!
          .remain_quota,
      ),
    );
    expect(statuses.filter((status) => status !== 200 && status !== 403)).toEqual([]);
    const served = statuses.filter((status) => status === 200).length;
    const figures = await world.check({ totals: [{ userId, total: rich }], granted: [{ tokenId: token.id, granted: opening }] });
    expect(lowestBalance).toBeGreaterThanOrEqual(0);
    const logs = await logged(world.server.store, userId);
    expect(logs.charged + logs.uncollected).toBe(served * costOf(50));
    const [user] = await world.server.store.query<{ quota: number; used_quota: number }>(
      "select quota, used_quota from users where id = ?",
      userId,
    );
    expect([n(user!.quota), n(user!.used_quota)]).toEqual([rich - logs.charged, logs.charged]);
    reportFigures("overdraft limited token", {
      served,
      lowestTokenBalance: lowestBalance,
      charged: logs.charged,
      uncollected: logs.uncollected,
      ...figures,
    });
  });
});

describe.if(testDialect === "pg" && redisServerInstalled())("two nodes sharing PostgreSQL and Redis", () => {
  let redis: RedisProcess;
  let world: OutageWorld;
  let channelId: number;
  beforeAll(async () => {
    redis = await startRedisProcess();
    world = await startOutageWorld(redis.url);
    const [row] = await world.store.query<{ id: number }>("select id from channels where name = ?", "outage-channel");
    channelId = n(row!.id);
  });
  afterAll(async () => {
    await world?.stop();
    await redis?.stop();
  });

  for (const completion of [50, 600]) {
    test(`${calls} calls through both instances, answered with ${completion} tokens, against ${opening}: the balance stops at zero`, async () => {
      world.upstream.behave("outage-channel", { delayMs: 200, promptTokens: 10, completionTokens: completion, chunks: 2 });
      const customer = await world.customer(`twin${completion}`, opening);
      const channelBefore = await channelFlags(world.store, channelId);
      const send = (index: number) => {
        const relay = world.worlds[index % 2] as RelayWorld;
        return index % 4 < 2
          ? postRelay(relay, "/v1/chat/completions", customer.token.key, body).then((answer) => answer.status)
          : streamChat(relay as FaultWorld, customer.token.key, body).then((outcome) => outcome.status);
      };
      const { statuses, lowestBalance } = await flood(send, async () =>
        n((await world.store.query<{ quota: number }>("select quota from users where id = ?", customer.id))[0]!.quota),
      );
      expect(statuses.filter((status) => status !== 200 && status !== 403)).toEqual([]);
      const served = statuses.filter((status) => status === 200).length;
      await expectBalancedBooks(world, customer, opening, 0);
      expect(lowestBalance).toBeGreaterThanOrEqual(0);
      const logs = await logged(world.store, customer.id);
      expect(logs.charged + logs.uncollected).toBe(served * costOf(completion));
      expect(logs.overMaxTokens).toBe(served);
      const channel = await channelFlags(world.store, channelId);
      expect({
        uncollected: channel.uncollected - channelBefore.uncollected,
        overLimit: channel.overLimit - channelBefore.overLimit,
      }).toEqual({ uncollected: logs.uncollected, overLimit: served });
      reportFigures(`overdraft two nodes ${completion} tokens`, {
        served,
        lowestBalance,
        charged: logs.charged,
        uncollected: logs.uncollected,
      });
    });
  }

  test("the counters on /metrics of both instances add up to the channel's row", async () => {
    const sum = async (name: string) => {
      let total = 0;
      for (const relay of world.worlds) total += await metricOf(relay.server.url, outageMetricsToken, name, channelId);
      return total;
    };
    const channel = await channelFlags(world.store, channelId);
    expect(await sum("switchyard_quota_uncollected_total")).toBe(channel.uncollected);
    expect(await sum("switchyard_completions_over_limit_total")).toBe(channel.overLimit);
  });
});
