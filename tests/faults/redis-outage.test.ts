// A 60 s Redis outage under load, two instances (issue 18): Bun's own client would have given up
// on its reconnection attempts long before; the link keeps trying, and both instances come back
// on Redis, renew their subscriptions and converge. Slow, so it runs with the fault suites
// (`npm run test:faults`), in the PostgreSQL pass with redis-server installed.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { redisServerInstalled, startRedisProcess, type RedisProcess } from "../helpers/redis-process.ts";
import { testDialect } from "../helpers/test-store.ts";
import {
  ban,
  disableToken,
  expectBalancedBooks,
  fixedPrice,
  refusedOn,
  startLoad,
  startOutageWorld,
  type OutageWorld,
} from "../helpers/outage-world.ts";

setDefaultTimeout(300_000);

const enabled = testDialect === "pg" && redisServerInstalled();

describe.if(enabled)("two instances through a 60 s Redis outage", () => {
  let redis: RedisProcess;
  let world: OutageWorld;
  afterAll(async () => {
    await world?.stop();
    await redis?.stop();
  });

  test("requests keep answering for the whole outage; bans and token disables converge during and after it; the books balance", async () => {
    redis = await startRedisProcess();
    world = await startOutageWorld(redis.url);
    const spender = await world.customer("longspend", 200 * fixedPrice);
    const [bannedDuring, disabledDuring, bannedAfter, disabledAfter] = await Promise.all(
      ["longban1", "longtok1", "longban2", "longtok2"].map((name) => world.customer(name, 10 * fixedPrice)),
    );
    for (const customer of [bannedDuring!, disabledDuring!, bannedAfter!, disabledAfter!]) {
      for (const index of [0, 1]) expect((await world.call(index, customer.token.key)).status).toBe(200);
    }
    world.upstream.behave("outage-channel", { delayMs: 250 });
    const load = startLoad(world, spender.token.key, 2);
    await Bun.sleep(500);
    await redis.stop();
    const stoppedAt = Date.now();
    await world.eventually("both instances notice Redis is away", async () => (await world.sharedHealthy()).every((healthy) => !healthy));
    await Bun.sleep(30_000);
    // Late in the outage, long after Bun's client alone would have stopped reconnecting.
    await ban(world, 0, bannedDuring!);
    await disableToken(world, 1, disabledDuring!);
    await refusedOn(world, 1, bannedDuring!, "a ban made during the outage reaches the other instance");
    await refusedOn(world, 0, disabledDuring!, "a token disabled during the outage is refused by the other instance");
    await Bun.sleep(Math.max(0, 60_000 - (Date.now() - stoppedAt)));
    await redis.start();
    await world.eventually("both instances are back on Redis", async () => (await world.sharedHealthy()).every(Boolean));
    const channels = (await redis.command("PUBSUB", ["CHANNELS", `${world.prefix}*`])) as string[];
    expect(channels).toContain(`${world.prefix}changed:users`);
    await ban(world, 1, bannedAfter!);
    await disableToken(world, 0, disabledAfter!);
    await refusedOn(world, 0, bannedAfter!, "a ban made after the outage reaches the other instance");
    await refusedOn(world, 1, disabledAfter!, "a token disabled after the outage is refused by the other instance");
    const statuses = await load.stop();
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 403)).toEqual([]);
    await expectBalancedBooks(world, spender, 200 * fixedPrice, 0);
  });
});
