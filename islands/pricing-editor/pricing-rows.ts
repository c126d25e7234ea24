// The pricing editor's data, kept apart from React so it can be tested as plain functions: rows
// built from the pricing options, and the options rebuilt from the rows, changed ones only.
// A row may carry prices by prompt size (tiers, ModelPriceTiers): the built-in long-context
// tiers show on the models they apply to, and editing them saves the model's own list (an empty
// list turns the built-in one off).
import type { TierOption } from "../../src/services/pricing/price-list.ts";

/** A tier as typed: text fields, checked when saved. */
export type TierRow = { above: string; ratio: string; completion: string; cache: string; createCache: string };

export type PricingRow = { name: string; price: string; ratio: string; completion: string; tiers?: TierRow[] };

export type PricingOptions = {
  modelPrice: Record<string, number>;
  modelRatio: Record<string, number>;
  completionRatio: Record<string, number>;
  /** The ModelPriceTiers option (the operator's own tiers). */
  modelPriceTiers?: Record<string, TierOption[]>;
  /** The built-in tiers in force (for models that keep their built-in base price). */
  builtinTiers?: Record<string, TierOption[]>;
};

const text = (value: number | undefined) => (value === undefined ? "" : String(value));

export const tierRowOf = (tier: TierOption): TierRow => ({
  above: String(tier.above),
  ratio: String(tier.model_ratio),
  completion: text(tier.completion_ratio),
  cache: text(tier.cache_ratio),
  createCache: text(tier.create_cache_ratio),
});

export const emptyTierRow = (): TierRow => ({ above: "", ratio: "", completion: "", cache: "", createCache: "" });

/** The tiers shown for a model: its own (option), else the built-in ones in force. */
function tiersOf(name: string, options: Pick<PricingOptions, "modelPriceTiers" | "builtinTiers">): TierOption[] {
  const own = options.modelPriceTiers ?? {};
  if (Object.hasOwn(own, name)) return own[name] ?? [];
  return options.builtinTiers?.[name] ?? [];
}

/** One row per model named in any of the three price options, in name order. */
export function pricingRows(
  modelPrice: Record<string, number>,
  modelRatio: Record<string, number>,
  completionRatio: Record<string, number>,
  tiers: Pick<PricingOptions, "modelPriceTiers" | "builtinTiers"> = {},
): PricingRow[] {
  const names = [...new Set([...Object.keys(modelPrice), ...Object.keys(modelRatio), ...Object.keys(completionRatio)])].sort();
  return names.map((name) => {
    const row: PricingRow = {
      name,
      price: text(modelPrice[name]),
      ratio: text(modelRatio[name]),
      completion: text(completionRatio[name]),
    };
    const shown = tiersOf(name, tiers);
    if (shown.length > 0) row.tiers = shown.map(tierRowOf);
    return row;
  });
}

/** A tier row that cannot be saved, or undefined: the threshold a whole positive number, the ratio a number. */
export function tierProblem(tier: TierRow): "above" | "ratio" | undefined {
  if (!/^\d+$/.test(tier.above) || Number(tier.above) <= 0) return "above";
  if (tier.ratio === "") return "ratio";
  return undefined;
}

function tierOption(tier: TierRow): TierOption {
  const option: TierOption = { above: Number(tier.above), model_ratio: Number(tier.ratio) };
  if (tier.completion !== "") option.completion_ratio = Number(tier.completion);
  if (tier.cache !== "") option.cache_ratio = Number(tier.cache);
  if (tier.createCache !== "") option.create_cache_ratio = Number(tier.createCache);
  return option;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The options as the rows say. A model with a fixed price is billed per call, so its ratios (and
 * tiers) are left out. Only options whose content changed are returned, ready for PUT /api/option/.
 */
export function buildPricingOptions(rows: PricingRow[], original: PricingOptions): { key: string; value: string }[] {
  const next = {
    modelPrice: {} as Record<string, number>,
    modelRatio: {} as Record<string, number>,
    completionRatio: {} as Record<string, number>,
    modelPriceTiers: { ...(original.modelPriceTiers ?? {}) },
  };
  const kept = new Set(rows.map((row) => row.name));
  for (const name of Object.keys(next.modelPriceTiers)) if (!kept.has(name)) delete next.modelPriceTiers[name];
  for (const row of rows) {
    if (row.price !== "") {
      next.modelPrice[row.name] = Number(row.price);
      continue;
    }
    if (row.ratio !== "") next.modelRatio[row.name] = Number(row.ratio);
    if (row.completion !== "") next.completionRatio[row.name] = Number(row.completion);
    const edited = [...(row.tiers ?? []).map(tierOption)].sort((a, b) => a.above - b.above);
    if (canonical(edited) !== canonical(tiersOf(row.name, original))) next.modelPriceTiers[row.name] = edited;
  }
  const keys = {
    modelPrice: "ModelPrice",
    modelRatio: "ModelRatio",
    completionRatio: "CompletionRatio",
    modelPriceTiers: "ModelPriceTiers",
  } as const;
  const before = { ...original, modelPriceTiers: original.modelPriceTiers ?? {} };
  return (Object.keys(keys) as (keyof typeof keys)[])
    .filter((field) => canonical(next[field]) !== canonical(before[field]))
    .map((field) => ({ key: keys[field], value: JSON.stringify(next[field], null, 2) }));
}
