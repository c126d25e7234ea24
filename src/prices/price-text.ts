// A price as one line of text for the command line: dollars per million tokens (per call for a
// fixed price), the way the vendors' price pages write them.
import type { ModelPrice } from "../services/billing/model-prices.ts";

const dollars = (value: number) => `$${Number(value.toPrecision(6))}`;

/** ratio 1 = $2 per million prompt tokens (500,000 quota units per dollar). */
function perMillion(ratio: number): number {
  return ratio * 2;
}

export function describePrice(price: ModelPrice | null): string {
  if (!price) return "no price";
  if (price.kind === "fixed") return `${dollars(price.price)} per call`;
  const input = perMillion(price.modelRatio);
  const parts = [`in ${dollars(input)}`, `out ${dollars(input * price.completionRatio)}`];
  if (price.cacheRatio !== undefined) parts.push(`cache read ${dollars(input * price.cacheRatio)}`);
  if (price.cacheCreationRatio !== undefined) parts.push(`cache write ${dollars(input * price.cacheCreationRatio)}`);
  let text = `${parts.join(", ")} per 1M`;
  for (const tier of price.tiers ?? []) {
    const tierInput = perMillion(tier.modelRatio);
    text += `; above ${tier.above} prompt tokens in ${dollars(tierInput)}, out ${dollars(tierInput * (tier.completionRatio ?? price.completionRatio))}`;
  }
  return text;
}
