// SharedState on a Redis that goes away and comes back (issue 18), with a redis-server of the
// test's own: commands fail over to this instance at once instead of queueing, once-marks are
// refused, notices reach this instance and the others when Redis is back, subscriptions are
// renewed, and the reservations made meanwhile are the store's business (two-instances-outages).
import { afterAll, describe, expect, test } from "bun:test";
import { createRedisState } from "../../src/cache/redis-state.ts";
import type { SharedState } from "../../src/cache/shared-state.ts";
import { startRedisProcess, type RedisProcess } from "../helpers/redis-process.ts";

describe.if(Bun.which("redis-server") !== null)("redis shared state through an outage", () => {
  let redis: RedisProcess;
  const opened: SharedState[] = [];
  afterAll(async () => {
    for (const state of opened) await state.close();
    await redis?.stop();
  });

  const until = async (what: string, check: () => boolean | Promise<boolean>) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      if (await check()) return;
      await Bun.sleep(50);
    }
    throw new Error(`${what}: never`);
  };

  test("degraded while Redis is away, whole again when it is back", async () => {
    redis = await startRedisProcess();
    const prefix = `switchyard-test-${crypto.randomUUID()}:`;
    const [first, second] = [await createRedisState(redis.url, prefix), await createRedisState(redis.url, prefix)];
    opened.push(first, second);
    const heard: string[] = [];
    second.subscribe("topic", (message) => heard.push(message));
    const changes: boolean[] = [];
    first.onHealthChange((healthy) => changes.push(healthy));
    await first.publish("topic", "before");
    await until("the notice before the outage arrives", () => heard.includes("before"));
    expect(await first.setIfAbsent("mark", "1", 60)).toBe(true);

    await redis.stop();
    await until("both notice the outage", () => !first.healthy() && !second.healthy());
    expect(changes).toEqual([false]);
    // Windows count on this instance alone; once-marks are refused; values are this instance's.
    expect((await first.hitWindow("window", 1, 60)).allowed).toBe(true);
    expect((await first.hitWindow("window", 1, 60)).allowed).toBe(false);
    expect((await second.hitWindow("window", 1, 60)).allowed).toBe(true);
    expect(await first.setIfAbsent("other-mark", "1", 60)).toBe(false);
    await first.set("value", "kept", 60);
    expect(await first.get("value")).toBe("kept");
    // A notice announced meanwhile reaches its own instance now and the others later.
    await second.publish("topic", "during");
    expect(heard).toContain("during");
    const localOnly = heard.length;
    await first.publish("topic", "from-first-during");
    expect(heard).toHaveLength(localOnly);

    await redis.start();
    await until("both are back", () => first.healthy() && second.healthy());
    expect(changes).toEqual([false, true]);
    // The queued notice went out, and the renewed subscription heard it.
    await until("the notice queued during the outage arrives", () => heard.includes("from-first-during"));
    await first.publish("topic", "after");
    await until("a notice after the outage arrives", () => heard.includes("after"));
    expect(await first.setIfAbsent("other-mark", "1", 60)).toBe(true);
  });
});
