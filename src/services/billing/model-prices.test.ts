// Prices read the options' in-memory values; without a store loaded those are the defaults.
import { describe, expect, test } from "bun:test";
import { completionRatioOf, groupRatioOf, priceOfModel, requirePrice } from "./model-prices.ts";

describe("model prices", () => {
  test("built-in ratios, completion and cache ratios", () => {
    expect(priceOfModel("gpt-4o-mini")).toEqual({ kind: "ratio", modelRatio: 0.075, completionRatio: 4, cacheRatio: 0.5 });
    expect(priceOfModel("deepseek-chat")).toEqual({ kind: "ratio", modelRatio: 0.07, completionRatio: 2, cacheRatio: 0.02 });
    expect(priceOfModel("gpt-5-codex")).toEqual({ kind: "ratio", modelRatio: 0.625, completionRatio: 8, cacheRatio: 0.1 });
  });

  test("a fixed price wins over ratios; GPTs share the gizmo price", () => {
    expect(priceOfModel("dall-e-3")).toEqual({ kind: "fixed", price: 0.04 });
    expect(priceOfModel("gpt-4-gizmo-g-abc123")).toEqual({ kind: "fixed", price: 0.1 });
  });

  test("a reasoning-effort suffix costs what the base model costs", () => {
    expect(priceOfModel("o3-mini-high")).toEqual({ kind: "ratio", modelRatio: 0.55, completionRatio: 4 });
  });

  test("versioned names the tables do not list take the family's completion ratio", () => {
    expect(completionRatioOf("gpt-4o-2099-01-01")).toBe(4);
    expect(completionRatioOf("claude-3-9-future")).toBe(5);
    expect(completionRatioOf("something-else")).toBe(1);
  });

  test("Claude models carry cache ratios (reads 0.1, writes 1.25); a -thinking name costs what the model costs", () => {
    const sonnet = { kind: "ratio" as const, modelRatio: 1.5, completionRatio: 5, cacheRatio: 0.1, cacheCreationRatio: 1.25 };
    expect(priceOfModel("claude-3-5-sonnet-20241022")).toEqual(sonnet);
    expect(priceOfModel("claude-3-7-sonnet-20250219-thinking")).toEqual(sonnet);
    expect(completionRatioOf("claude-opus-9-future")).toBe(5);
  });

  test("long-context tiers come with the built-in price, thinking names included", () => {
    const tier = { above: 200_000, modelRatio: 3, completionRatio: 3.75, cacheRatio: 0.1, cacheCreationRatio: 1.25 };
    expect(priceOfModel("claude-sonnet-4-20250514")).toMatchObject({ modelRatio: 1.5, tiers: [tier] });
    expect(priceOfModel("claude-sonnet-4-20250514-thinking")).toMatchObject({ tiers: [tier] });
    expect(priceOfModel("gemini-2.5-pro")).toEqual({
      kind: "ratio",
      modelRatio: 0.625,
      completionRatio: 8,
      cacheRatio: 0.1,
      tiers: [{ above: 200_000, modelRatio: 1.25, completionRatio: 6, cacheRatio: 0.1 }],
    });
  });

  test("a model with no price is refused with the operator's error, not served free", () => {
    expect(priceOfModel("no-such-model")).toBeUndefined();
    let caught: unknown;
    try {
      requirePrice("no-such-model");
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ kind: "unavailable", code: "model_price_not_configured" });
    expect(String((caught as Error).message)).toStartWith("模型 no-such-model 倍率或价格未配置");
  });

  test("group ratios default to 1 for unlisted groups", () => {
    expect(groupRatioOf("default")).toBe(1);
    expect(groupRatioOf("nowhere")).toBe(1);
  });
});
