import { describe, expect, test } from "bun:test";
import { channelTypes } from "../channels/channel-types.ts";
import {
  builtinPriceLists,
  defaultCacheRatios,
  defaultCompletionRatios,
  defaultCreateCacheRatios,
  defaultModelPrices,
  defaultModelRatios,
  defaultPriceTiers,
} from "./default-ratios.ts";
import { blocksOf, priceListSchema, tablesOf } from "./price-list.ts";

describe("the built-in price lists", () => {
  test("every list is a valid price list whose blocks name their source and date", () => {
    for (const [name, list] of Object.entries(builtinPriceLists)) {
      const parsed = priceListSchema.safeParse(list);
      if (!parsed.success) throw new Error(`${name}: ${parsed.error.message}`);
      for (const block of blocksOf(parsed.data)) {
        expect(block.source, name).toBeTruthy();
        expect(block.as_of, name).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
      }
    }
  });

  test("no model is listed twice across the lists (one source of truth per name)", () => {
    const seen = new Map<string, string>();
    for (const [name, list] of Object.entries(builtinPriceLists)) {
      for (const block of blocksOf(priceListSchema.parse(list))) {
        for (const model of Object.keys(block.models)) {
          expect(seen.get(model), `${model} in ${name}`).toBeUndefined();
          seen.set(model, name);
        }
      }
    }
  });

  test("the spec's formula: ratio 1 = $2 per million prompt tokens, yuan at 7.3 per dollar, cache prices over the input price", () => {
    // qwen-plus: 0.8 yuan in, 2 yuan out per million.
    expect(defaultModelRatios["qwen-plus"]).toBeCloseTo(0.8 / 7.3 / 2, 6);
    expect(defaultCompletionRatios["qwen-plus"]).toBe(2.5);
    // command-r: $0.15 in, $0.60 out per million.
    expect(defaultModelRatios["command-r"]).toBe(0.075);
    expect(defaultCompletionRatios["command-r"]).toBe(4);
    // Cohere rerank: $2 per 1,000 search units, one unit reported as one prompt token.
    expect(defaultModelRatios["rerank-v3.5"]! * 0.000002).toBeCloseTo(0.002, 9);
    expect(defaultModelRatios["ERNIE-Speed-8K"]).toBe(0);
    expect(defaultModelPrices["wanx-v1"]).toBeCloseTo(0.16 / 7.3, 6);
    // gpt-5: $1.25 in, $0.125 cached, $10 out.
    expect([defaultModelRatios["gpt-5"], defaultCompletionRatios["gpt-5"], defaultCacheRatios["gpt-5"]]).toEqual([0.625, 8, 0.1]);
    // Claude Opus 4.5: $5 in, $25 out, cache reads $0.50, 5-minute writes $6.25.
    const opus = "claude-opus-4-5-20251101";
    expect([defaultModelRatios[opus], defaultCompletionRatios[opus], defaultCacheRatios[opus], defaultCreateCacheRatios[opus]]).toEqual([
      2.5, 5, 0.1, 1.25,
    ]);
  });

  test("today's models: the gpt-5 family and gpt-5-codex, o3/o4, Claude 4.x by alias and dated id, Gemini 2.5 and 3.x", () => {
    const required = [
      "gpt-5",
      "gpt-5-mini",
      "gpt-5-nano",
      "gpt-5-codex",
      "gpt-5.1",
      "gpt-5.1-codex",
      "gpt-5.2",
      "gpt-5.4",
      "gpt-5.5",
      "o3",
      "o4-mini",
      "claude-opus-4-5",
      "claude-opus-4-5-20251101",
      "claude-sonnet-4-5",
      "claude-sonnet-4-5-20250929",
      "claude-haiku-4-5",
      "claude-haiku-4-5-20251001",
      "claude-opus-4-1-20250805",
      "claude-sonnet-4-20250514",
      "claude-opus-4-6",
      "claude-sonnet-4-6",
      "gemini-2.5-pro",
      "gemini-2.5-flash",
      "gemini-2.5-flash-lite",
      "gemini-3-pro-preview",
      "gemini-3.1-pro-preview",
      "gemini-3-flash-preview",
      "deepseek-chat",
      "deepseek-reasoner",
    ];
    expect(required.filter((model) => defaultModelRatios[model] === undefined)).toEqual([]);
    // A dated id and its alias cost the same.
    expect(defaultModelRatios["claude-sonnet-4-5-20250929"]).toBe(defaultModelRatios["claude-sonnet-4-5"]!);
  });

  test("long-context tiers: Gemini 2.5 Pro and Gemini 3 Pro above 200k, Claude's 1M-context Sonnet 4 and 4.5 above 200k", () => {
    expect(defaultPriceTiers["gemini-2.5-pro"]).toEqual([{ above: 200_000, model_ratio: 1.25, completion_ratio: 6, cache_ratio: 0.1 }]);
    expect(defaultPriceTiers["gemini-3-pro-preview"]).toEqual([
      { above: 200_000, model_ratio: 2, completion_ratio: 4.5, cache_ratio: 0.1 },
    ]);
    expect(defaultPriceTiers["claude-sonnet-4-5-20250929"]).toEqual([
      { above: 200_000, model_ratio: 3, completion_ratio: 3.75, cache_ratio: 0.1, create_cache_ratio: 1.25 },
    ]);
    expect(defaultPriceTiers["claude-sonnet-4-20250514"]).toEqual(defaultPriceTiers["claude-sonnet-4-5"]!);
    // Sonnet 4.6 serves its 1M tokens at one price.
    expect(defaultPriceTiers["claude-sonnet-4-6"]).toBeUndefined();
  });

  test("every default model of the catalogue has a price, except the documented ones", () => {
    // Apps (their cost is their workflow's) and vendors without a public price page we could check;
    // Azure's gpt-35-turbo is priced under its gpt-3.5-turbo name (model-prices.ts).
    const unpriced = new Set([
      "dify",
      "SparkDesk-v2.1",
      "SparkDesk-v3.1",
      "SparkDesk-v3.5",
      "SparkDesk-v4.0",
      "360GPT_S2_V9",
      "embedding-bert-512-v1",
      "gpt-35-turbo",
    ]);
    // A "-thinking" name is its base model with extended thinking, priced as the base (model-prices.ts).
    const listed = (model: string) => defaultModelRatios[model] !== undefined || defaultModelPrices[model] !== undefined;
    const missing = channelTypes
      .flatMap((type) => type.models)
      .filter(
        (model) => !unpriced.has(model) && !listed(model) && !(model.endsWith("-thinking") && listed(model.slice(0, -"-thinking".length))),
      );
    expect(missing).toEqual([]);
  });
});

describe("price lists as data", () => {
  test("aliases, yuan blocks, fixed prices and gateway ratios", () => {
    const tables = tablesOf(
      priceListSchema.parse({
        blocks: [
          { source: "a", as_of: "2026-11", models: { m: { input: 3, output: 15, cache_read: 0.3 }, "m-latest": { same_as: "m" } } },
          { currency: "CNY", models: { y: { input: 7.3, output: 14.6 }, img: { per_call: 0.73 } } },
          { models: { audio: { ratio: 15 }, local: { input: 0 } } },
        ],
      }),
    );
    expect(tables.ModelRatio).toEqual({ m: 1.5, "m-latest": 1.5, y: 0.5, audio: 15, local: 0 });
    expect(tables.CompletionRatio).toEqual({ m: 5, "m-latest": 5, y: 2 });
    expect(tables.CacheRatio).toEqual({ m: 0.1, "m-latest": 0.1 });
    expect(tables.ModelPrice).toEqual({ img: 0.1 });
  });

  test("bad entries are refused with the reason", () => {
    const accepted = (models: unknown) => priceListSchema.safeParse({ models }).success;
    expect(accepted({ m: { output: 1 } })).toBe(false);
    expect(accepted({ m: { input: 1, per_call: 1 } })).toBe(false);
    expect(accepted({ m: { input: -1 } })).toBe(false);
    expect(accepted({ m: { input: "1" } })).toBe(false);
    expect(accepted({ m: { per_call: 1, tiers: [{ above: 10, input: 1 }] } })).toBe(false);
    expect(accepted({ m: { input: 1, tiers: [{ above: 0, input: 1 }] } })).toBe(false);
    expect(accepted({ m: { input: 1, surprise: true } })).toBe(false);
    expect(accepted({ m: { input: 1, tiers: [{ above: 10, input: 2 }] } })).toBe(true);
  });
});
