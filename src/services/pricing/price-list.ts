// A price list as data: the built-in tables (list-prices/*.json) and the documents an operator
// syncs from a URL share this one format, read and checked here and turned into the gateway's
// pricing options (ratio 1 = $2 per million prompt tokens; the completion and cache
// ratios are the output and cache prices over the input price).
//
//   { "source": "https://vendor/pricing", "as_of": "2026-11-20", "currency": "USD",
//     "models": {
//       "model-a": { "input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75,
//                    "tiers": [{ "above": 200000, "input": 6, "output": 22.5, "cache_read": 0.6, "cache_write": 7.5 }] },
//       "model-a-latest": { "same_as": "model-a" },
//       "image-model": { "per_call": 0.04 },
//       "local-model": { "input": 0 },
//       "audio-model": { "ratio": 15 } } }
//
// Prices are per million tokens (per call for per_call) in the block's currency; several blocks
// may be given as { "blocks": [ ... ] }, each with its own source, date and currency.
import { z } from "zod";

/** Yuan per dollar for lists priced in yuan: the Price option's default. */
const yuanPerDollar = 7.3;
const dollarsPerMillionAtRatioOne = 2;

const price = z.number().finite().min(0);

const tierEntry = z
  .object({
    above: z.number().int().positive(),
    input: price,
    output: price.optional(),
    cache_read: price.optional(),
    cache_write: price.optional(),
  })
  .strict();

const modelEntry = z
  .object({
    input: price.optional(),
    output: price.optional(),
    cache_read: price.optional(),
    cache_write: price.optional(),
    per_call: price.optional(),
    /** The gateway's own units, for models whose usage is not text tokens (audio seconds, characters). */
    ratio: price.optional(),
    completion_ratio: price.optional(),
    same_as: z.string().min(1).optional(),
    tiers: z.array(tierEntry).max(10).optional(),
    note: z.string().optional(),
  })
  .strict()
  .refine((entry) => [entry.input, entry.per_call, entry.ratio, entry.same_as].filter((value) => value !== undefined).length === 1, {
    message: "exactly one of input, per_call, ratio or same_as",
  })
  .refine((entry) => !entry.tiers || entry.input !== undefined, { message: "tiers need an input price" });

const block = z
  .object({
    source: z.string().optional(),
    as_of: z.string().optional(),
    currency: z.enum(["USD", "CNY"]).default("USD"),
    note: z.string().optional(),
    models: z.record(z.string().min(1).max(200), modelEntry),
  })
  .strict();

export const priceListSchema = z.union([
  block.extend({ format: z.string().optional(), vendor: z.string().optional() }).strict(),
  z
    .object({ format: z.string().optional(), vendor: z.string().optional(), note: z.string().optional(), blocks: z.array(block).min(1) })
    .strict(),
]);

export type PriceList = z.input<typeof priceListSchema>;
export type PriceBlock = z.output<typeof block>;
export type ModelListPrice = z.output<typeof modelEntry>;

/** One tier as the ModelPriceTiers option keeps it (ratios, like the other pricing options). */
export type TierOption = {
  above: number;
  model_ratio: number;
  completion_ratio?: number;
  cache_ratio?: number;
  create_cache_ratio?: number;
};

/** What a list sets in the pricing options; a model appears in ModelRatio or ModelPrice, not both. */
export type RatioTables = {
  ModelRatio: Record<string, number>;
  CompletionRatio: Record<string, number>;
  CacheRatio: Record<string, number>;
  CreateCacheRatio: Record<string, number>;
  ModelPrice: Record<string, number>;
  ModelPriceTiers: Record<string, TierOption[]>;
};

export const emptyTables = (): RatioTables => ({
  ModelRatio: {},
  CompletionRatio: {},
  CacheRatio: {},
  CreateCacheRatio: {},
  ModelPrice: {},
  ModelPriceTiers: {},
});

/** Six decimals are plenty for a ratio and keep the tables readable where they are shown. */
export const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

export function blocksOf(list: z.output<typeof priceListSchema>): PriceBlock[] {
  return "blocks" in list ? list.blocks : [list];
}

type Ratios = { model_ratio: number; completion_ratio?: number; cache_ratio?: number; create_cache_ratio?: number };

/** Input, output and cache prices (per million, in dollars) as ratios. */
function ratiosOf(input: number, output?: number, cacheRead?: number, cacheWrite?: number): Ratios {
  const ratios: Ratios = { model_ratio: rounded(input / dollarsPerMillionAtRatioOne) };
  if (input > 0) {
    if (output !== undefined) ratios.completion_ratio = rounded(output / input);
    if (cacheRead !== undefined) ratios.cache_ratio = rounded(cacheRead / input);
    if (cacheWrite !== undefined) ratios.create_cache_ratio = rounded(cacheWrite / input);
  }
  return ratios;
}

/** Adds one block's models to the tables (later blocks win for a name they repeat). */
export function addBlock(tables: RatioTables, priceBlock: PriceBlock): void {
  const toDollars = priceBlock.currency === "CNY" ? (value: number) => value / yuanPerDollar : (value: number) => value;
  const resolve = (name: string, seen = new Set<string>()): ModelListPrice | undefined => {
    const entry = priceBlock.models[name];
    if (!entry?.same_as) return entry;
    if (seen.has(name)) return undefined;
    seen.add(name);
    return resolve(entry.same_as, seen);
  };
  for (const name of Object.keys(priceBlock.models)) {
    const entry = resolve(name);
    if (!entry) throw new Error(`${name}: same_as names no priced model of its block`);
    for (const table of Object.values(tables)) delete table[name];
    if (entry.per_call !== undefined) {
      tables.ModelPrice[name] = rounded(toDollars(entry.per_call));
      continue;
    }
    if (entry.ratio !== undefined) {
      tables.ModelRatio[name] = entry.ratio;
      if (entry.completion_ratio !== undefined) tables.CompletionRatio[name] = entry.completion_ratio;
      continue;
    }
    const dollars = (value: number | undefined) => (value === undefined ? undefined : toDollars(value));
    const base = ratiosOf(toDollars(entry.input!), dollars(entry.output), dollars(entry.cache_read), dollars(entry.cache_write));
    tables.ModelRatio[name] = base.model_ratio;
    if (base.completion_ratio !== undefined) tables.CompletionRatio[name] = base.completion_ratio;
    if (base.cache_ratio !== undefined) tables.CacheRatio[name] = base.cache_ratio;
    if (base.create_cache_ratio !== undefined) tables.CreateCacheRatio[name] = base.create_cache_ratio;
    if (entry.tiers?.length) {
      tables.ModelPriceTiers[name] = [...entry.tiers]
        .sort((a, b) => a.above - b.above)
        .map((tier) => ({
          above: tier.above,
          ...ratiosOf(toDollars(tier.input), dollars(tier.output), dollars(tier.cache_read), dollars(tier.cache_write)),
        }));
    }
  }
}

/** A whole list as pricing options. */
export function tablesOf(list: z.output<typeof priceListSchema>): RatioTables {
  const tables = emptyTables();
  for (const priceBlock of blocksOf(list)) addBlock(tables, priceBlock);
  return tables;
}
