// SharedState behaves the same in memory and on Redis: sliding windows, once-marks, pub/sub.
// The Redis half runs when TEST_REDIS_URL is set (CI sets it; there a missing Redis fails).
import { afterAll, describe, expect, test } from "bun:test";
import { createMemoryState } from "../../src/cache/memory-state.ts";
import { createRedisState } from "../../src/cache/redis-state.ts";
import type { SharedState } from "../../src/cache/shared-state.ts";

const implementations: [string, () => Promise<SharedState>][] = [["memory", async () => createMemoryState()]];
if (process.env.TEST_REDIS_URL) {
  implementations.push(["redis", () => createRedisState(process.env.TEST_REDIS_URL!, `switchyard-test-${crypto.randomUUID()}:`)]);
} else if (process.env.CI) {
  test("Redis is available in CI", () => {
    throw new Error("TEST_REDIS_URL is not set");
  });
}

const opened: SharedState[] = [];
afterAll(async () => {
  for (const state of opened) await state.close();
});

for (const [name, open] of implementations) {
  describe(`${name} shared state`, () => {
    test("a sliding window allows `limit` hits, then says when to retry", async () => {
      const state = await open();
      opened.push(state);
      const verdicts = [];
      for (let hit = 0; hit < 4; hit++) verdicts.push(await state.hitWindow("window", 3, 60));
      expect(verdicts.map((verdict) => verdict.allowed)).toEqual([true, true, true, false]);
      expect(verdicts[3]!.retryAfterSeconds).toBeGreaterThan(0);
      expect(verdicts[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    });

    test("concurrent hits never exceed the limit", async () => {
      const state = await open();
      opened.push(state);
      const verdicts = await Promise.all(Array.from({ length: 30 }, () => state.hitWindow("race", 10, 60)));
      expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(10);
    });

    test("setIfAbsent marks once; values expire", async () => {
      const state = await open();
      opened.push(state);
      expect(await state.setIfAbsent("once", "a", 60)).toBe(true);
      expect(await state.setIfAbsent("once", "b", 60)).toBe(false);
      expect(await state.get("once")).toBe("a");
      await state.set("short", "x", 1);
      await Bun.sleep(1100);
      expect(await state.get("short")).toBeNull();
    });

    test("published notices reach subscribers", async () => {
      const state = await open();
      opened.push(state);
      const received: string[] = [];
      state.subscribe("topic", (message) => received.push(message));
      await Bun.sleep(50);
      await state.publish("topic", "hello");
      for (let wait = 0; wait < 50 && received.length === 0; wait++) await Bun.sleep(20);
      expect(received).toEqual(["hello"]);
    });
  });
}
