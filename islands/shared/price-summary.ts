// A model's price as short lines for people: dollars per million tokens (ratio 1 = $2)
// or per call, the cache prices, and each prompt-size tier. Shared by the price sync preview and
// the unpriced-models view; the translator supplies the words.
import type { ModelPrice } from "../../src/services/billing/model-prices.ts";

export type PriceTranslate = (key: string, params?: Record<string, unknown>) => string;

/** Four significant digits, no trailing zeros: $1.25, $0.0028, $22.5. */
export const dollars = (value: number) => `$${Number(value.toPrecision(4))}`;

/** "200K" for thresholds that are whole thousands, the exact count otherwise. */
export const tokenCount = (tokens: number) => (tokens % 1000 === 0 ? `${tokens / 1000}K` : String(tokens));

export function priceLines(price: ModelPrice | null, t: PriceTranslate): string[] {
  if (!price) return [t("无价格")];
  if (price.kind === "fixed") return [t("按次 {{price}}", { price: dollars(price.price) })];
  const input = price.modelRatio * 2;
  const lines = [
    t("输入 {{input}} · 输出 {{output}} / 1M tokens", { input: dollars(input), output: dollars(input * price.completionRatio) }),
  ];
  const cache: string[] = [];
  if (price.cacheRatio !== undefined) cache.push(t("缓存读取 {{price}}", { price: dollars(input * price.cacheRatio) }));
  if (price.cacheCreationRatio !== undefined) cache.push(t("缓存写入 {{price}}", { price: dollars(input * price.cacheCreationRatio) }));
  if (cache.length > 0) lines.push(cache.join(" · "));
  for (const tier of price.tiers ?? []) {
    const tierInput = tier.modelRatio * 2;
    lines.push(
      t("提示超过 {{above}} tokens：输入 {{input}} · 输出 {{output}}", {
        above: tokenCount(tier.above),
        input: dollars(tierInput),
        output: dollars(tierInput * (tier.completionRatio ?? price.completionRatio)),
      }),
    );
  }
  return lines;
}
