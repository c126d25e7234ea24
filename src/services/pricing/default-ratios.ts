// Built-in prices: the vendors' public list prices, kept as data in list-prices/*.json (one file
// per vendor, each block naming its price page and the date its figures were read; the format is
// price-list.ts's, the one `switchyard prices sync` reads too). They are turned into the defaults
// of the ModelRatio, CompletionRatio, CacheRatio, CreateCacheRatio and ModelPrice options by the
// spec's formula, and into the built-in long-context tiers. Operators override any entry through
// the options; an option entry always wins over these tables. The JSON is embedded in the build
// (bundled imports) and checked by list-prices.test.ts, so a start does no validation work.
import alibaba from "./list-prices/alibaba.json";
import anthropic from "./list-prices/anthropic.json";
import baidu from "./list-prices/baidu.json";
import cohere from "./list-prices/cohere.json";
import deepseek from "./list-prices/deepseek.json";
import gatewayConventions from "./list-prices/gateway-conventions.json";
import google from "./list-prices/google.json";
import minimax from "./list-prices/minimax.json";
import mistral from "./list-prices/mistral.json";
import moonshot from "./list-prices/moonshot.json";
import openai from "./list-prices/openai.json";
import otherVendors from "./list-prices/other-vendors.json";
import tencent from "./list-prices/tencent.json";
import volcengine from "./list-prices/volcengine.json";
import xai from "./list-prices/xai.json";
import zhipu from "./list-prices/zhipu.json";
import { addBlock, emptyTables, type PriceBlock, type PriceList, type TierOption } from "./price-list.ts";

/** Every built-in list, in the order they are applied (a later list wins for a name it repeats). */
export const builtinPriceLists: Record<string, PriceList> = {
  openai,
  anthropic,
  google,
  deepseek,
  xai,
  mistral,
  moonshot,
  alibaba,
  zhipu,
  baidu,
  tencent,
  volcengine,
  minimax,
  cohere,
  "other-vendors": otherVendors,
  "gateway-conventions": gatewayConventions,
} as unknown as Record<string, PriceList>;

const builtin = emptyTables();
for (const list of Object.values(builtinPriceLists)) {
  for (const block of "blocks" in list ? list.blocks : [list]) addBlock(builtin, block as PriceBlock);
}

export const defaultModelRatios: Record<string, number> = builtin.ModelRatio;

/** Completion (output) price as a multiple of the prompt price. */
export const defaultCompletionRatios: Record<string, number> = builtin.CompletionRatio;

/** Prompt tokens read from the provider's cache, as a multiple of the prompt price (CacheRatio). */
export const defaultCacheRatios: Record<string, number> = builtin.CacheRatio;

/** Prompt tokens written to the provider's cache (5-minute cache), as a multiple of the prompt price (CreateCacheRatio). */
export const defaultCreateCacheRatios: Record<string, number> = builtin.CreateCacheRatio;

/** Fixed price in dollars per call; wins over ratios for the models it lists. */
export const defaultModelPrices: Record<string, number> = builtin.ModelPrice;

/** The vendors' published prices by prompt size (long context), for the built-in prices above. */
export const defaultPriceTiers: Record<string, TierOption[]> = builtin.ModelPriceTiers;
