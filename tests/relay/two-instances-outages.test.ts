// Two instances and Redis faults (issue 18), each case with a redis-server of its own: a 5 s
// outage under load with bans and token disables during and after it, a Redis that accepts
// connections and never answers, and 400 concurrent requests costing more than their estimate.
// After each case the ledger is checked from the store (outage-world.ts). The 60 s outage is in
// tests/faults/redis-outage.test.ts. Runs in the PostgreSQL pass (redis-server must be installed).
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testDialect } from "../helpers/test-store.ts";
import { redisServerInstalled, startRedisProcess, startSilentServer } from "../helpers/redis-process.ts";
import { ban, disableToken, expectBalancedBooks, fixedPrice, refusedOn, startLoad, startOutageWorld } from "../helpers/outage-world.ts";

setDefaultTimeout(180_000);

const enabled = testDialect === "pg" && redisServerInstalled();

describe.if(enabled)("two instances through Redis faults", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  test("Redis stopped for 5 s under load: requests keep answering, bans and token disables converge during and after, the books balance", async () => {
    const redis = await startRedisProcess();
    cleanups.push(() => redis.stop());
    const world = await startOutageWorld(redis.url);
    cleanups.push(() => world.stop());
    const spender = await world.customer("outagespend", 60 * fixedPrice);
    const [bannedDuring, disabledDuring, bannedAfter, disabledAfter] = await Promise.all(
      ["outageban1", "outagetok1", "outageban2", "outagetok2"].map((name) => world.customer(name, 10 * fixedPrice)),
    );
    // Each instance has them cached before the outage.
    for (const customer of [bannedDuring!, disabledDuring!, bannedAfter!, disabledAfter!]) {
      for (const index of [0, 1]) expect((await world.call(index, customer.token.key)).status).toBe(200);
    }
    world.upstream.behave("outage-channel", { delayMs: 100 });

    const load = startLoad(world, spender.token.key);
    await Bun.sleep(500);
    await redis.stop();
    const stoppedAt = Date.now();
    await world.eventually("both instances notice Redis is away", async () => (await world.sharedHealthy()).every((healthy) => !healthy));
    await ban(world, 0, bannedDuring!);
    await disableToken(world, 1, disabledDuring!);
    // No notice can travel: the degraded resync carries the changes across.
    await refusedOn(world, 1, bannedDuring!, "a ban made during the outage reaches the other instance");
    await refusedOn(world, 0, disabledDuring!, "a token disabled during the outage is refused by the other instance");
    await Bun.sleep(Math.max(0, 5000 - (Date.now() - stoppedAt)));
    await redis.start();
    await world.eventually("both instances are back on Redis", async () => (await world.sharedHealthy()).every(Boolean));
    expect(await world.healthMetric()).toEqual(["1", "1"]);
    const channels = (await redis.command("PUBSUB", ["CHANNELS", `${world.prefix}*`])) as string[];
    expect(channels).toContain(`${world.prefix}changed:users`);
    expect(channels).toContain(`${world.prefix}changed:tokens`);
    await ban(world, 1, bannedAfter!);
    await disableToken(world, 0, disabledAfter!);
    await refusedOn(world, 0, bannedAfter!, "a ban made after the outage reaches the other instance");
    await refusedOn(world, 1, disabledAfter!, "a token disabled after the outage is refused by the other instance");
    await Bun.sleep(500);
    const statuses = await load.stop();

    // Served or refused for want of balance, never failed.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 403)).toEqual([]);
    for (const server of world.worlds.map((relay) => relay.server)) {
      expect(server.output()).toContain("shared state degraded");
      expect(server.output()).toContain("Redis is back");
    }
    // Fixed prices: every hold is the cost, so no overdraft at all.
    await expectBalancedBooks(world, spender, 60 * fixedPrice, 0);
  });

  test("a Redis that accepts connections and never answers: requests, sign-ins and bans still work, and the status says so", async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const world = await startOutageWorld(silent.url);
    cleanups.push(() => world.stop());
    expect(await world.sharedHealthy()).toEqual([false, false]);
    expect(await world.healthMetric()).toEqual(["0", "0"]);
    const spender = await world.customer("silentspend", 20 * fixedPrice);
    // Only admins are told.
    expect((await spender.session.get("/api/status")).body.data.shared_state).toBeUndefined();
    const banned = await world.customer("silentban", 10 * fixedPrice);
    for (const index of [0, 1]) expect((await world.call(index, banned.token.key)).status).toBe(200);
    // Thirty requests for a balance of twenty, through both instances at once: the store's
    // conditional debit admits exactly twenty. A request that queued on the silent Redis would
    // hang (the signal ends the wait long before any test timeout).
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        fetch(`${world.worlds[index % 2]!.server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer sk-${spender.token.key}` },
          body: JSON.stringify({ model: "outage-fixed-model", messages: [{ role: "user", content: "hi" }] }),
          signal: AbortSignal.timeout(30_000),
        }).then((response) => response.status),
      ),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(20);
    expect(answers.filter((status) => status !== 200)).toEqual(Array(10).fill(403));
    await ban(world, 1, banned);
    await refusedOn(world, 0, banned, "a ban reaches the other instance through the degraded resync");
    await expectBalancedBooks(world, spender, 20 * fixedPrice, 0);
  });

  test("a Redis frozen for 4 s under load, then thawed (it runs the commands sent meanwhile): no hold stays counted, the books balance", async () => {
    const redis = await startRedisProcess();
    cleanups.push(() => redis.stop());
    const world = await startOutageWorld(redis.url);
    cleanups.push(() => world.stop());
    const spender = await world.customer("frozenspend", 2000 * fixedPrice);
    world.upstream.behave("outage-channel", { delayMs: 100 });
    const load = startLoad(world, spender.token.key, 6);
    await Bun.sleep(500);
    redis.pause();
    await world.eventually("both instances notice Redis stopped answering", async () =>
      (await world.sharedHealthy()).every((healthy) => !healthy),
    );
    await Bun.sleep(4000);
    redis.resume();
    await world.eventually("both instances are back on Redis", async () => (await world.sharedHealthy()).every(Boolean));
    await Bun.sleep(1000);
    const statuses = await load.stop();
    expect(statuses.filter((status) => status !== 200 && status !== 403)).toEqual([]);
    await expectBalancedBooks(world, spender, 2000 * fixedPrice, 0);
  });

  test("400 concurrent requests through both instances against one balance, each costing more than its estimate, with Redis up and then away", async () => {
    const redis = await startRedisProcess();
    cleanups.push(() => redis.stop());
    const world = await startOutageWorld(redis.url);
    cleanups.push(() => world.stop());
    // ModelRatio 10, CompletionRatio 1: the hold covers the prompt's bound and max_tokens (20)
    // tokens; the upstream reports 10 prompt and 60 completion tokens, 700 a call.
    world.upstream.behave("outage-channel", { delayMs: 200, promptTokens: 10, completionTokens: 60 });
    const body = { model: "outage-ratio-model", max_tokens: 20, messages: [{ role: "user", content: "hi" }] };
    const cost = 700;
    const allowance = 20 * 10;

    for (const phase of ["redis", "store"] as const) {
      if (phase === "store") {
        await redis.stop();
        await world.eventually("both instances notice Redis is away", async () =>
          (await world.sharedHealthy()).every((healthy) => !healthy),
        );
      }
      const spender = await world.customer(`crowd${phase}`, 40 * cost);
      const answers = await Promise.all(Array.from({ length: 400 }, (_, index) => world.call(index, spender.token.key, body)));
      const served = answers.filter((answer) => answer.status === 200).length;
      expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 403)).toEqual([]);
      expect(served).toBeGreaterThanOrEqual(40);
      // docs/ARCHITECTURE.md: quota ≥ −Σ_settled max(0, cost − hold), and every hold covers at
      // least max_tokens at the completion price, so each served call exceeds its hold by less
      // than cost − allowance.
      await expectBalancedBooks(world, spender, 40 * cost, served * (cost - allowance));
      const [{ quota }] = await world.store.query<{ quota: number }>("select quota from users where id = ?", spender.id);
      if (Number(quota) < 0) {
        // An overdrawn balance refuses the next request, on either instance.
        for (const index of [0, 1]) expect((await world.call(index, spender.token.key, body)).status).toBe(403);
      }
    }
  });
});
