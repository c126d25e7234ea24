import { describe, expect, test } from "bun:test";
import { channelTypes } from "../channels/channel-types.ts";
import { defaultCompletionRatios, defaultModelPrices, defaultModelRatios } from "./default-ratios.ts";

describe("built-in prices of the other catalogue kinds", () => {
  test("the spec's formula: ratio 1 = $2 per million prompt tokens, yuan at 7.3 per dollar", () => {
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
  });

  test("every default model of the catalogue has a price, except the documented ones", () => {
    // Apps (their cost is their workflow's) and vendors without a public price page we could check;
    // Azure's gpt-35-turbo is priced under its gpt-3.5-turbo name (model-prices.ts).
    const unpriced = new Set(["dify", "SparkDesk-v2.1", "SparkDesk-v3.1", "SparkDesk-v3.5", "SparkDesk-v4.0", "360GPT_S2_V9", "embedding-bert-512-v1", "gpt-35-turbo"]);
    // A "-thinking" name is its base model with extended thinking, priced as the base (model-prices.ts).
    const listed = (model: string) => defaultModelRatios[model] !== undefined || defaultModelPrices[model] !== undefined;
    const missing = channelTypes
      .flatMap((type) => type.models)
      .filter((model) => !unpriced.has(model) && !listed(model) && !(model.endsWith("-thinking") && listed(model.slice(0, -"-thinking".length))));
    expect(missing).toEqual([]);
  });
});
