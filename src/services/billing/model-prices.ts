// The price of a model and the ratio of a group, from the options (ModelPrice, ModelRatio,
// CompletionRatio, CacheRatio, CreateCacheRatio, ModelPriceTiers, GroupRatio) with the built-in
// tables as the fallback for what an option does not list. A model with neither a fixed price nor
// a ratio has no price; what happens to it is the UnpricedModelPolicy option's choice: refused
// (the default), billed at UnpricedModelRatio (new-api's ratio 30), or free for a self-use
// gateway (new-api billed unknown models at ratio 30 without asking, one-api#1338).
//
// The relay asks for a price on every request: prices are resolved once per model name and kept
// until a pricing option changes (any instance's change reaches this one's options first), so a
// request costs one map lookup however many tables and tiers stand behind it.
import { AppError } from "../../errors/app-error.ts";
import { optionJson, optionNumber, optionsVersion, optionText } from "../options/options.ts";
import {
  defaultCacheRatios,
  defaultCompletionRatios,
  defaultCreateCacheRatios,
  defaultModelPrices,
  defaultModelRatios,
  defaultPriceTiers,
} from "../pricing/default-ratios.ts";
import type { TierOption } from "../pricing/price-list.ts";

/** Above `above` prompt tokens, these ratios bill the whole request (absent ones: the base price's). */
export type RatioTier = {
  above: number;
  modelRatio: number;
  completionRatio?: number;
  cacheRatio?: number;
  cacheCreationRatio?: number;
};

export type ModelPrice = (
  | {
      kind: "ratio";
      modelRatio: number;
      completionRatio: number;
      /** Prompt tokens read from the provider's cache, relative to the prompt price (absent: 1). */
      cacheRatio?: number;
      /** Prompt tokens written to the provider's cache, relative to the prompt price (absent: 1). */
      cacheCreationRatio?: number;
      /** Prices by prompt size, in ascending order of their thresholds. */
      tiers?: RatioTier[];
    }
  /** Dollars per call (per image for image models). */
  | { kind: "fixed"; price: number }
) & {
  /** Set when the model has no price and the UnpricedModelPolicy billed it anyway. */
  unpriced?: "ratio" | "free";
};

export type UnpricedPolicy = "refuse" | "ratio" | "free";

type Table = Record<string, number>;

/** The pricing options' values (or a proposed change of them: a price sync's preview). */
export type PricingTables = {
  ModelPrice: Table;
  ModelRatio: Table;
  CompletionRatio: Table;
  CacheRatio: Table;
  CreateCacheRatio: Table;
  ModelPriceTiers: Record<string, TierOption[]>;
};

export const pricingTableKeys = [
  "ModelPrice",
  "ModelRatio",
  "CompletionRatio",
  "CacheRatio",
  "CreateCacheRatio",
  "ModelPriceTiers",
] as const;

export function currentPricingTables(): PricingTables {
  return {
    ModelPrice: optionJson<Table>("ModelPrice"),
    ModelRatio: optionJson<Table>("ModelRatio"),
    CompletionRatio: optionJson<Table>("CompletionRatio"),
    CacheRatio: optionJson<Table>("CacheRatio"),
    CreateCacheRatio: optionJson<Table>("CreateCacheRatio"),
    ModelPriceTiers: optionJson<Record<string, TierOption[]>>("ModelPriceTiers"),
  };
}

function lookup(option: Table, defaults: Table, name: string): number | undefined {
  const value = Object.hasOwn(option, name) ? option[name] : Object.hasOwn(defaults, name) ? defaults[name] : undefined;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The names a model is priced under, most specific first. */
function pricingNames(model: string): string[] {
  const names = [model];
  if (model.startsWith("gpt-4-gizmo")) names.push("gpt-4-gizmo-*");
  else if (model.startsWith("gpt-4o-gizmo")) names.push("gpt-4o-gizmo-*");
  // Azure's deployment names drop the dot: gpt-35-turbo is gpt-3.5-turbo.
  if (model.startsWith("gpt-35")) names.push(model.replace("gpt-35", "gpt-3.5"));
  // "o3-mini-high" is o3-mini with a reasoning effort; it costs what o3-mini costs per token.
  const effort = /^(o[1-9].*)-(high|medium|low)$/.exec(model);
  if (effort) names.push(effort[1]!);
  // "claude-3-7-sonnet-20250219-thinking" is the model with thinking on: same price per token.
  if (model.startsWith("claude-") && model.endsWith("-thinking")) names.push(model.slice(0, -"-thinking".length));
  return names;
}

/** Completion ratios for versioned names the tables do not list (checked after the tables). */
const completionRatioRules: [RegExp, number][] = [
  [/^gpt-4o-2024-05-13/, 3],
  [/^(gpt-4o|gpt-4\.1|o[1-9])/, 4],
  [/^chatgpt-4o/, 3],
  [/^gpt-4-turbo|preview$/, 3],
  [/^gpt-4/, 2],
  [/^gpt-3\.5-turbo.*(0125|turbo$)/, 3],
  [/^gpt-3\.5-turbo.*1106/, 2],
  [/^gpt-3\.5/, 4 / 3],
  [/^claude-3/, 5],
  [/^claude-(2|instant)/, 3],
  [/^claude-/, 5],
  [/^gemini-/, 4],
  [/^mistral-/, 3],
  [/^deepseek-(chat|reasoner)/, 4],
];

export function completionRatioOf(model: string, tables: Pick<PricingTables, "CompletionRatio"> = currentPricingTables()): number {
  const option = tables.CompletionRatio;
  for (const name of pricingNames(model)) {
    const ratio = lookup(option, defaultCompletionRatios, name);
    if (ratio !== undefined) return ratio;
  }
  for (const [pattern, ratio] of completionRatioRules) if (pattern.test(model)) return ratio;
  return 1;
}

/** Cache ratios by family, for models the tables do not list (Anthropic's list prices). */
const cacheRatioRules: [RegExp, { read: number; write: number }][] = [[/^claude-/, { read: 0.1, write: 1.25 }]];

/** The ratio of cached prompt tokens (read, or written) to the prompt price; 1 when none is set. */
function cacheRatioOf(model: string, option: "CacheRatio" | "CreateCacheRatio", tables: PricingTables): number {
  const table = tables[option];
  const defaults = option === "CacheRatio" ? defaultCacheRatios : defaultCreateCacheRatios;
  for (const name of pricingNames(model)) {
    const ratio = lookup(table, defaults, name);
    if (ratio !== undefined) return ratio;
  }
  for (const [pattern, ratios] of cacheRatioRules) if (pattern.test(model)) return option === "CacheRatio" ? ratios.read : ratios.write;
  return 1;
}

const tierOf = (tier: TierOption): RatioTier => {
  const ratios: RatioTier = { above: tier.above, modelRatio: tier.model_ratio };
  if (tier.completion_ratio !== undefined) ratios.completionRatio = tier.completion_ratio;
  if (tier.cache_ratio !== undefined) ratios.cacheRatio = tier.cache_ratio;
  if (tier.create_cache_ratio !== undefined) ratios.cacheCreationRatio = tier.create_cache_ratio;
  return ratios;
};

/**
 * The model's tiers: the operator's (ModelPriceTiers, an empty list turning them off), else the
 * built-in ones, but only while the model keeps its built-in base price: a vendor's long-context
 * prices belong with its standard prices, not with a price the operator set.
 */
function tiersOf(names: string[], modelRatio: number, tables: PricingTables): RatioTier[] | undefined {
  const option = tables.ModelPriceTiers;
  for (const name of names) {
    if (Object.hasOwn(option, name)) {
      const tiers = option[name];
      return Array.isArray(tiers) && tiers.length > 0 ? [...tiers].sort((a, b) => a.above - b.above).map(tierOf) : undefined;
    }
  }
  for (const name of names) {
    if (Object.hasOwn(defaultPriceTiers, name) && defaultModelRatios[name] === modelRatio) return defaultPriceTiers[name]!.map(tierOf);
  }
  return undefined;
}

function ratioPrice(model: string, modelRatio: number, names: string[], tables: PricingTables): ModelPrice {
  const price: ModelPrice = { kind: "ratio", modelRatio, completionRatio: completionRatioOf(model, tables) };
  const read = cacheRatioOf(model, "CacheRatio", tables);
  const write = cacheRatioOf(model, "CreateCacheRatio", tables);
  if (read !== 1) price.cacheRatio = read;
  if (write !== 1) price.cacheCreationRatio = write;
  const tiers = tiersOf(names, modelRatio, tables);
  if (tiers) price.tiers = tiers;
  return price;
}

/** A model's price under these tables (the options, then the built-in tables), or undefined. */
export function resolvePrice(model: string, tables: PricingTables): ModelPrice | undefined {
  const prices = tables.ModelPrice;
  const ratios = tables.ModelRatio;
  const names = pricingNames(model);
  for (const name of names) {
    const price = lookup(prices, defaultModelPrices, name);
    if (price !== undefined) return { kind: "fixed", price };
  }
  for (const name of names) {
    const modelRatio = lookup(ratios, defaultModelRatios, name);
    if (modelRatio !== undefined) return ratioPrice(model, modelRatio, names.slice(names.indexOf(name)), tables);
  }
  return undefined;
}

// Resolved prices by model name (null: none configured), dropped whenever an option value changes
// in this process (options change rarely; the check is one integer read). Names come from served
// models and admins' pinned calls; the bound only keeps a flood of odd names from growing it.
const resolved = new Map<string, ModelPrice | null>();
const maxResolved = 20_000;
let resolvedAt = -1;

/** The model's configured price (options, then built-in tables), or undefined when it has none. */
export function priceOfModel(model: string): ModelPrice | undefined {
  if (resolvedAt !== optionsVersion()) {
    resolved.clear();
    resolvedAt = optionsVersion();
  }
  let price = resolved.get(model);
  if (price === undefined) {
    price = resolvePrice(model, currentPricingTables()) ?? null;
    if (resolved.size >= maxResolved) resolved.clear();
    resolved.set(model, price);
  }
  return price ?? undefined;
}

export function unpricedPolicy(): UnpricedPolicy {
  const policy = optionText("UnpricedModelPolicy");
  return policy === "ratio" || policy === "free" ? policy : "refuse";
}

/**
 * The error of a model without a price. It is the gateway's configuration, not the client's
 * request, that is wrong: 503 with a code of its own, `x-should-retry: false` so the official
 * SDKs do not repeat a call that cannot succeed until the operator acts, and words addressed to
 * the operator naming where to fix it (new-api's phrase kept at its start for scripts matching it).
 */
export function priceNotConfigured(model: string): AppError {
  return new AppError(
    "unavailable",
    "模型 {{model}} 倍率或价格未配置：这是网关的设置问题，不是请求的错误。请网关管理员在「系统设置 → 模型」中为它定价（或在「未定价模型」页面一次定价），或修改未定价模型的处理方式（UnpricedModelPolicy）",
    { model },
    { code: "model_price_not_configured" },
  );
}

/** The price a call is billed at: the configured one, else what the UnpricedModelPolicy says. */
export function requirePrice(model: string): ModelPrice {
  const price = priceOfModel(model);
  if (price) return price;
  switch (unpricedPolicy()) {
    case "ratio":
      return {
        kind: "ratio",
        modelRatio: optionNumber("UnpricedModelRatio"),
        completionRatio: completionRatioOf(model),
        unpriced: "ratio",
      };
    case "free":
      return { kind: "fixed", price: 0, unpriced: "free" };
    default:
      throw priceNotConfigured(model);
  }
}

/** A group's ratio; groups the option does not list cost 1 (new-api). */
export function groupRatioOf(group: string): number {
  const ratios = optionJson<Table>("GroupRatio");
  const ratio = ratios[group];
  return typeof ratio === "number" && Number.isFinite(ratio) && ratio >= 0 ? ratio : 1;
}

export function groupExists(group: string): boolean {
  return Object.hasOwn(optionJson<Table>("GroupRatio"), group);
}
