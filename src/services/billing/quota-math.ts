// The billing formulas (docs/COMPATIBILITY.md, Quota units and prices), pure and integer-valued.
//
//   ratio models:  quota = round((prompt + round(completion x completionRatio)) x modelRatio x groupRatio),
//                  at least 1 when the request used tokens and the price is not zero; prompt
//                  tokens the provider read from or wrote to its cache count at the model's
//                  cache ratios (CacheRatio, CreateCacheRatio) instead of 1
//   fixed price:   quota = round(price x QuotaPerUnit x groupRatio) per call (x units, e.g. images)
//
// The hold taken before calling upstream uses the same formula on an upper estimate: the
// counted prompt plus the completion allowance (max_tokens, else PreConsumedQuota tokens) at the
// completion ratio, rounded up, so a request that stays within max_tokens never costs more than
// it reserved. Cache writes can cost more than plain prompt tokens (Claude: 1.25), so the hold
// counts the prompt at the higher of the two.
//
// Price tiers by prompt size (long context): a ratio price may carry tiers, each applying its own
// ratios to the whole request once the prompt passes its threshold (`above` tokens, cached ones
// included, as the vendors count). Settlement uses the tier of the prompt reported; the hold takes
// the dearest of the tiers a prompt within its estimate could fall in (normally the estimate's own).
import type { ModelPrice, RatioTier } from "./model-prices.ts";

export type Price = ModelPrice & { groupRatio: number };
type RatioPrice = Extract<Price, { kind: "ratio" }>;

export type TokenCounts = {
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those read from the provider's cache. */
  cachedTokens?: number;
  /** Of the prompt tokens, those written to the provider's cache. */
  cacheCreationTokens?: number;
};

const safeInteger = (value: number) => (Number.isFinite(value) && value > 0 ? Math.min(Math.round(value), Number.MAX_SAFE_INTEGER) : 0);

/** The prompt tokens weighted by the cache ratios (just the count when nothing was cached). */
function weightedPrompt(price: Extract<Price, { kind: "ratio" }>, usage: TokenCounts): number {
  const prompt = safeInteger(usage.promptTokens);
  const read = Math.min(safeInteger(usage.cachedTokens ?? 0), prompt);
  const written = Math.min(safeInteger(usage.cacheCreationTokens ?? 0), prompt - read);
  if (read === 0 && written === 0) return prompt;
  return prompt - read - written + read * (price.cacheRatio ?? 1) + written * (price.cacheCreationRatio ?? 1);
}

/** The tier a prompt of this many tokens is billed at: the highest threshold it passes (none: the base price). */
export function tierOf(price: Price, promptTokens: number): RatioTier | undefined {
  if (price.kind !== "ratio" || !price.tiers) return undefined;
  let chosen: RatioTier | undefined;
  for (const tier of price.tiers) if (promptTokens > tier.above && (!chosen || tier.above > chosen.above)) chosen = tier;
  return chosen;
}

/** The price with a tier's ratios in place of the base ones (a tier leaves out what it keeps). */
export function atTier<P extends Price>(price: P, tier: RatioTier | undefined): P {
  if (!tier || price.kind !== "ratio") return price;
  const base = price as RatioPrice;
  const tiered: RatioPrice = {
    ...base,
    modelRatio: tier.modelRatio,
    completionRatio: tier.completionRatio ?? base.completionRatio,
    tiers: undefined,
  };
  if (tier.cacheRatio !== undefined) tiered.cacheRatio = tier.cacheRatio;
  if (tier.cacheCreationRatio !== undefined) tiered.cacheCreationRatio = tier.cacheCreationRatio;
  return tiered as P;
}

export function quotaForUsage(price: Price, usage: TokenCounts, quotaPerUnit: number, units = 1): number {
  if (price.kind === "fixed") return safeInteger(price.price * units * quotaPerUnit * price.groupRatio);
  if (price.tiers) price = atTier(price, tierOf(price, safeInteger(usage.promptTokens)));
  const prompt = safeInteger(usage.promptTokens);
  const completion = safeInteger(usage.completionTokens);
  if (prompt + completion === 0) return 0;
  const weighted = weightedPrompt(price, usage) + Math.round(completion * price.completionRatio);
  const quota = safeInteger(weighted * price.modelRatio * price.groupRatio);
  return quota === 0 && price.modelRatio * price.groupRatio > 0 ? 1 : quota;
}

export function holdForRequest(price: Price, promptTokens: number, completionAllowance: number, quotaPerUnit: number, units = 1): number {
  if (price.kind === "fixed") return quotaForUsage(price, { promptTokens, completionTokens: 0 }, quotaPerUnit, units);
  if (!price.tiers) return ratioHold(price, promptTokens, completionAllowance);
  // The prompt is at most the estimate, so it is billed at the base price or a tier below it.
  let hold = ratioHold(atTier(price, undefined), promptTokens, completionAllowance);
  for (const tier of price.tiers) {
    if (promptTokens > tier.above) hold = Math.max(hold, ratioHold(atTier(price, tier), promptTokens, completionAllowance));
  }
  return hold;
}

function ratioHold(price: RatioPrice, promptTokens: number, completionAllowance: number): number {
  const promptWeight = Math.max(1, price.cacheCreationRatio ?? 1);
  const tokens = Math.ceil(safeInteger(promptTokens) * promptWeight) + Math.ceil(safeInteger(completionAllowance) * price.completionRatio);
  const hold = Math.ceil(tokens * price.modelRatio * price.groupRatio);
  return Number.isFinite(hold) && hold > 0 ? Math.min(hold, Number.MAX_SAFE_INTEGER) : 0;
}

let lastPrice: Price | undefined;
let lastDescription = "";

/** The log's price text (new-api's wording, stored as data); consecutive requests mostly share one price. */
export function priceDescription(price: Price): string {
  if (
    lastPrice &&
    lastPrice.kind === price.kind &&
    lastPrice.groupRatio === price.groupRatio &&
    (price.kind === "fixed"
      ? lastPrice.kind === "fixed" && lastPrice.price === price.price
      : lastPrice.kind === "ratio" && lastPrice.modelRatio === price.modelRatio && lastPrice.completionRatio === price.completionRatio)
  ) {
    return lastDescription;
  }
  lastPrice = price;
  lastDescription =
    price.kind === "fixed"
      ? `模型价格 ${price.price.toFixed(2)}，分组倍率 ${price.groupRatio.toFixed(2)}` // i18n-exempt: stored log text
      : `模型倍率 ${price.modelRatio.toFixed(2)}，补全倍率 ${price.completionRatio.toFixed(2)}，分组倍率 ${price.groupRatio.toFixed(2)}`; // i18n-exempt: stored log text
  return lastDescription;
}
