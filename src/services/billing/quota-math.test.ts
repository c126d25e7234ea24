import { describe, expect, test } from "bun:test";
import { holdForRequest, priceDescription, quotaForUsage, tierOf, type Price } from "./quota-math.ts";

const ratio = (modelRatio: number, completionRatio: number, groupRatio = 1): Price => ({
  kind: "ratio",
  modelRatio,
  completionRatio,
  groupRatio,
});
const fixed = (price: number, groupRatio = 1): Price => ({ kind: "fixed", price, groupRatio });

describe("quota for usage (new-api's formula)", () => {
  test("ratio models: (prompt + completion x completion ratio) x model ratio x group ratio", () => {
    expect(quotaForUsage(ratio(1.25, 4), { promptTokens: 100, completionTokens: 50 }, 500000)).toBe(375);
    expect(quotaForUsage(ratio(1.25, 4, 2), { promptTokens: 100, completionTokens: 50 }, 500000)).toBe(750);
    expect(quotaForUsage(ratio(0.075, 4), { promptTokens: 24, completionTokens: 12 }, 500000)).toBe(5);
    expect(quotaForUsage(ratio(2.5, 4 / 3), { promptTokens: 10, completionTokens: 10 }, 500000)).toBe(58);
  });

  test("at least 1 when tokens were used at a non-zero price; 0 when nothing was used or the price is 0", () => {
    expect(quotaForUsage(ratio(0.01, 1), { promptTokens: 3, completionTokens: 0 }, 500000)).toBe(1);
    expect(quotaForUsage(ratio(0.01, 1), { promptTokens: 0, completionTokens: 0 }, 500000)).toBe(0);
    expect(quotaForUsage(ratio(0, 1), { promptTokens: 300, completionTokens: 10 }, 500000)).toBe(0);
    expect(quotaForUsage(ratio(1, 1, 0), { promptTokens: 300, completionTokens: 10 }, 500000)).toBe(0);
  });

  test("fixed price: price x QuotaPerUnit x group ratio per call, times units", () => {
    expect(quotaForUsage(fixed(0.04), { promptTokens: 999, completionTokens: 999 }, 500000)).toBe(20000);
    expect(quotaForUsage(fixed(0.04, 1.5), { promptTokens: 0, completionTokens: 0 }, 500000)).toBe(30000);
    expect(quotaForUsage(fixed(0.02), { promptTokens: 0, completionTokens: 0 }, 500000, 2 * 0.45)).toBe(9000);
  });

  test("never NaN, negative or beyond safe integers", () => {
    expect(quotaForUsage(ratio(1, 1), { promptTokens: NaN, completionTokens: -5 }, 500000)).toBe(0);
    expect(quotaForUsage(ratio(1e3, 1e3), { promptTokens: 2 ** 60, completionTokens: 2 ** 60 }, 500000)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("cached prompt tokens", () => {
  test("reads and writes count at the cache ratios; the rest of the prompt at 1", () => {
    const claude = { ...ratio(1.5, 5), cacheRatio: 0.1, cacheCreationRatio: 1.25 };
    // (20 + 300 x 0.1 + 100 x 1.25 + 42 x 5) x 1.5 = (20 + 30 + 125 + 210) x 1.5 = 577.5
    expect(quotaForUsage(claude, { promptTokens: 420, completionTokens: 42, cachedTokens: 300, cacheCreationTokens: 100 }, 500000)).toBe(
      578,
    );
    expect(quotaForUsage(claude, { promptTokens: 420, completionTokens: 42 }, 500000)).toBe(Math.round((420 + 210) * 1.5));
  });

  test("a model without cache ratios pays the full prompt price; nonsense counts cannot exceed the prompt", () => {
    expect(quotaForUsage(ratio(1, 1), { promptTokens: 100, completionTokens: 0, cachedTokens: 60 }, 500000)).toBe(100);
    const cheap = { ...ratio(1, 1), cacheRatio: 0.5 };
    expect(quotaForUsage(cheap, { promptTokens: 100, completionTokens: 0, cachedTokens: 1e9 }, 500000)).toBe(50);
  });
});

describe("the hold", () => {
  test("covers prompt + allowance at the completion ratio, rounded up", () => {
    expect(holdForRequest(ratio(0.075, 4), 24, 64, 500000)).toBe(Math.ceil((24 + 256) * 0.075));
    expect(holdForRequest(ratio(1, 4 / 3), 1, 1, 500000)).toBe(3);
  });

  test("is never below what a request within its allowance costs", () => {
    for (const [modelRatio, completionRatio, groupRatio] of [
      [0.075, 4, 1],
      [2.5, 4 / 3, 0.7],
      [0.01, 1, 3],
      [15, 2, 1.1],
    ] as const) {
      for (const [prompt, completion] of [
        [1, 1],
        [17, 33],
        [250, 999],
        [0, 7],
      ] as const) {
        const price = ratio(modelRatio, completionRatio, groupRatio);
        expect(holdForRequest(price, prompt, completion, 500000)).toBeGreaterThanOrEqual(
          quotaForUsage(price, { promptTokens: prompt, completionTokens: completion }, 500000),
        );
      }
    }
  });

  test("covers cache writes priced above plain prompt tokens", () => {
    const claude = { ...ratio(1.5, 5), cacheRatio: 0.1, cacheCreationRatio: 1.25 };
    for (const [prompt, written, read, completion] of [
      [1000, 1000, 0, 50],
      [400, 300, 100, 10],
      [7, 7, 0, 0],
    ] as const) {
      const cost = quotaForUsage(
        claude,
        { promptTokens: prompt, completionTokens: completion, cachedTokens: read, cacheCreationTokens: written },
        500000,
      );
      expect(holdForRequest(claude, prompt, completion, 500000)).toBeGreaterThanOrEqual(cost);
    }
  });

  test("fixed prices hold exactly the price", () => {
    expect(holdForRequest(fixed(0.1), 500, 500, 500000)).toBe(50000);
  });
});

test("log text", () => {
  expect(priceDescription(ratio(1.25, 4, 1))).toBe("模型倍率 1.25，补全倍率 4.00，分组倍率 1.00");
  expect(priceDescription(fixed(0.04, 2))).toBe("模型价格 0.04，分组倍率 2.00");
});

describe("price tiers by prompt size", () => {
  // Gemini 2.5 Pro at a group ratio of 1: $1.25 / $10 up to 200k prompt tokens, $2.50 / $15 above.
  const tiered: Price = {
    kind: "ratio",
    modelRatio: 0.625,
    completionRatio: 8,
    cacheRatio: 0.1,
    tiers: [{ above: 200_000, modelRatio: 1.25, completionRatio: 6 }],
    groupRatio: 1,
  };

  test("the tier applies to the whole request once the prompt passes its threshold, exact to the unit", () => {
    // 200,000 prompt tokens is not above the threshold: (200000 + 1000 x 8) x 0.625.
    expect(quotaForUsage(tiered, { promptTokens: 200_000, completionTokens: 1000 }, 500000)).toBe(130_000);
    // 200,001: (200001 + 1000 x 6) x 1.25 = 257,501.25 -> 257,501.
    expect(quotaForUsage(tiered, { promptTokens: 200_001, completionTokens: 1000 }, 500000)).toBe(257_501);
    expect(tierOf(tiered, 200_000)).toBeUndefined();
    expect(tierOf(tiered, 200_001)).toEqual({ above: 200_000, modelRatio: 1.25, completionRatio: 6 });
  });

  test("a tier keeps the ratios it does not name (cache reads stay a tenth of the tier's input price)", () => {
    // 300,000 prompt, 100,000 read from the cache: (200000 + 100000 x 0.1 + 10 x 6) x 1.25 = 262,575.
    expect(quotaForUsage(tiered, { promptTokens: 300_000, completionTokens: 10, cachedTokens: 100_000 }, 500000)).toBe(262_575);
  });

  test("the highest threshold passed wins among several", () => {
    const stepped: Price = {
      kind: "ratio",
      modelRatio: 1,
      completionRatio: 4,
      tiers: [
        { above: 128_000, modelRatio: 3, completionRatio: 4 },
        { above: 32_000, modelRatio: 2 },
      ],
      groupRatio: 2,
    };
    expect(quotaForUsage(stepped, { promptTokens: 32_000, completionTokens: 0 }, 500000)).toBe(64_000);
    expect(quotaForUsage(stepped, { promptTokens: 50_000, completionTokens: 10 }, 500000)).toBe((50_000 + 40) * 2 * 2);
    expect(quotaForUsage(stepped, { promptTokens: 130_000, completionTokens: 10 }, 500000)).toBe((130_000 + 40) * 3 * 2);
  });

  test("the hold uses the tier its estimate falls in, and stays an upper bound of any prompt within it", () => {
    // An estimate of 150,000 prompt tokens and 1,000 completion: base price.
    expect(holdForRequest(tiered, 150_000, 1000, 500000)).toBe(Math.ceil((150_000 + 8000) * 0.625));
    // An estimate of 250,000: the tier's price.
    expect(holdForRequest(tiered, 250_000, 1000, 500000)).toBe(Math.ceil((250_000 + 6000) * 1.25));
    for (const prompt of [1, 199_999, 200_000, 200_001, 250_000]) {
      expect(quotaForUsage(tiered, { promptTokens: prompt, completionTokens: 1000 }, 500000)).toBeLessThanOrEqual(
        holdForRequest(tiered, 250_000, 1000, 500000),
      );
    }
    // A tier cheaper than the base (unusual, but an operator may set one): the hold still covers
    // a prompt that ends up below the threshold at the dearer base price.
    const cheaperAbove: Price = { ...tiered, tiers: [{ above: 100, modelRatio: 0.1 }] };
    expect(holdForRequest(cheaperAbove, 1000, 0, 500000)).toBe(Math.ceil(1000 * 0.625));
  });
});
