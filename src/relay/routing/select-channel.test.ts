import { describe, expect, test } from "bun:test";
import { selectChannel, type Tier } from "./select-channel.ts";

type C = { id: number; weight: number };
const tiers: Tier<C>[] = [
  {
    priority: 10,
    channels: [
      { id: 1, weight: 0 },
      { id: 2, weight: 30 },
    ],
  },
  { priority: 5, channels: [{ id: 3, weight: 0 }] },
  { priority: 0, channels: [{ id: 4, weight: 0 }] },
];
const fixed = (value: number) => () => value;

describe("selectChannel", () => {
  test("nothing to choose from gives undefined", () => {
    expect(selectChannel([], 0, new Set())).toBeUndefined();
  });

  test("the first attempt picks in the highest tier, weighted by weight + 10", () => {
    // weights 10 and 40: the first fifth of the range is channel 1, the rest channel 2.
    expect(selectChannel(tiers, 0, new Set(), fixed(0.19))!.id).toBe(1);
    expect(selectChannel(tiers, 0, new Set(), fixed(0.21))!.id).toBe(2);
    expect(selectChannel(tiers, 0, new Set(), fixed(0.999))!.id).toBe(2);
  });

  test("weights decide the share of traffic", () => {
    const counts = new Map<number, number>();
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let index = 0; index < 10_000; index++) {
      const id = selectChannel(tiers, 0, new Set(), random)!.id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(counts.get(1)! / 10_000).toBeCloseTo(0.2, 1);
    expect(counts.get(2)! / 10_000).toBeCloseTo(0.8, 1);
  });

  test("each retry steps down a tier, clamped to the lowest", () => {
    expect(selectChannel(tiers, 1, new Set([1]), fixed(0))!.id).toBe(3);
    expect(selectChannel(tiers, 2, new Set([1, 3]), fixed(0))!.id).toBe(4);
    expect(selectChannel(tiers, 7, new Set([1, 3]), fixed(0))!.id).toBe(4);
  });

  test("channels already tried are avoided while others remain, lower tiers first", () => {
    expect(selectChannel(tiers, 2, new Set([4]), fixed(0))!.id).toBe(3);
    expect(selectChannel(tiers, 2, new Set([4, 3]), fixed(0))!.id).toBe(1);
    expect(selectChannel(tiers, 0, new Set([1]), fixed(0))!.id).toBe(2);
  });

  test("when every channel was tried, one of the attempt's tier is reused", () => {
    expect(selectChannel(tiers, 1, new Set([1, 2, 3, 4]), fixed(0))!.id).toBe(3);
  });
});
