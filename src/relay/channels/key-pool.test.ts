import { describe, expect, test } from "bun:test";
import { multiKeyInfo, withKeyStatus } from "../../services/channels/channel-keys.ts";
import type { UpstreamTarget } from "../providers/adaptor.ts";
import { keyPoolOf, keyTargetOf, pickKey } from "./key-pool.ts";

const target: UpstreamTarget = { id: 1, type: 1, key: "a", baseUrl: "", other: "", organization: "", setting: {} };

describe("key pools", () => {
  test("a one-key channel has none", () => {
    expect(keyPoolOf({ type: 1, key: "a", channel_info: "" }, target)).toBeUndefined();
  });

  test("in turn: the enabled keys in order, skipping those this request tried", () => {
    const info = withKeyStatus(multiKeyInfo(4, "polling"), 2, 3, "dead");
    const pool = keyPoolOf({ type: 1, key: "a\nb\nc\nd", channel_info: JSON.stringify(info) }, target, () => 0)!;
    expect(pool.slots.map((slot) => slot.target.key)).toEqual(["a", "b", "d"]);
    expect([0, 1, 2, 3].map(() => pickKey(pool)!.target.key)).toEqual(["a", "b", "d", "a"]);
    const tried = new Set([1]);
    expect(pickKey(pool, tried)!.target.key).toBe("d");
    expect(pickKey(pool, new Set([0, 1, 3]))).toBeUndefined();
  });

  test("in turn: the turn is a key's number, so a key disabled or brought back does not shift it; it starts anywhere", () => {
    const row = { type: 1, key: "a\nb\nc\nd", channel_info: JSON.stringify(multiKeyInfo(4, "polling")) };
    const pool = keyPoolOf(row, target, () => 0)!;
    expect([pickKey(pool)!.target.key, pickKey(pool)!.target.key]).toEqual(["a", "b"]);
    // "b" is disabled: the rebuilt pool goes on at "c", as the old one would have.
    const rebuilt = keyPoolOf({ ...row, channel_info: JSON.stringify(withKeyStatus(multiKeyInfo(4, "polling"), 1, 3, "dead")) }, target)!;
    rebuilt.cursor = pool.cursor;
    expect([0, 1, 2].map(() => pickKey(rebuilt)!.target.key)).toEqual(["c", "d", "a"]);
    expect(keyPoolOf(row, target, () => 0.99)!.cursor).toBe(3);
  });

  test("a task's key: the one that took it, whatever its state now; else the channel's own", () => {
    const info = withKeyStatus(multiKeyInfo(3, "random"), 1, 3, "dead");
    const pool = keyPoolOf({ type: 1, key: "a\nb\nc", channel_info: JSON.stringify(info) }, target)!;
    expect(keyTargetOf(pool, target, 1).key).toBe("b");
    expect(keyTargetOf(pool, target, -1).key).toBe("a");
    expect(keyTargetOf(pool, target, 7).key).toBe("a");
    expect(keyTargetOf(undefined, target, 1).key).toBe("a");
  });

  test("at random: only untried keys, by the random source", () => {
    const pool = keyPoolOf({ type: 1, key: "a\nb\nc", channel_info: JSON.stringify(multiKeyInfo(3, "random")) }, target)!;
    expect(pickKey(pool, undefined, () => 0.99)!.target.key).toBe("c");
    expect(pickKey(pool, new Set([2]), () => 0.99)!.target.key).toBe("b");
    expect(pickKey(pool, new Set([0, 1, 2]))).toBeUndefined();
  });
});
