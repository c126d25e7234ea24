// The price of a model and the ratio of a group, from the options (ModelPrice, ModelRatio,
// CompletionRatio, CacheRatio, CreateCacheRatio, GroupRatio) with the built-in tables as the
// fallback for what an option does not list. A model with neither a fixed price nor a ratio has no price: the relay refuses it
// instead of serving it free (new-api bills unknown models at ratio 30, one-api#1338).
import { AppError } from "../../errors/app-error.ts";
import { optionJson } from "../options/options.ts";
import { defaultCacheRatios, defaultCompletionRatios, defaultCreateCacheRatios, defaultModelPrices, defaultModelRatios } from "../pricing/default-ratios.ts";

export type ModelPrice =
  | {
      kind: "ratio";
      modelRatio: number;
      completionRatio: number;
      /** Prompt tokens read from the provider's cache, relative to the prompt price (absent: 1). */
      cacheRatio?: number;
      /** Prompt tokens written to the provider's cache, relative to the prompt price (absent: 1). */
      cacheCreationRatio?: number;
    }
  /** Dollars per call (per image for image models). */
  | { kind: "fixed"; price: number };

type Table = Record<string, number>;

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

export function completionRatioOf(model: string): number {
  const option = optionJson<Table>("CompletionRatio");
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
function cacheRatioOf(model: string, option: "CacheRatio" | "CreateCacheRatio"): number {
  const table = optionJson<Table>(option);
  const defaults = option === "CacheRatio" ? defaultCacheRatios : defaultCreateCacheRatios;
  for (const name of pricingNames(model)) {
    const ratio = lookup(table, defaults, name);
    if (ratio !== undefined) return ratio;
  }
  for (const [pattern, ratios] of cacheRatioRules) if (pattern.test(model)) return option === "CacheRatio" ? ratios.read : ratios.write;
  return 1;
}

function ratioPrice(model: string, modelRatio: number): ModelPrice {
  const price: ModelPrice = { kind: "ratio", modelRatio, completionRatio: completionRatioOf(model) };
  const read = cacheRatioOf(model, "CacheRatio");
  const write = cacheRatioOf(model, "CreateCacheRatio");
  if (read !== 1) price.cacheRatio = read;
  if (write !== 1) price.cacheCreationRatio = write;
  return price;
}

/** The model's price, or undefined when none is configured. */
export function priceOfModel(model: string): ModelPrice | undefined {
  const prices = optionJson<Table>("ModelPrice");
  const ratios = optionJson<Table>("ModelRatio");
  for (const name of pricingNames(model)) {
    const price = lookup(prices, defaultModelPrices, name);
    if (price !== undefined) return { kind: "fixed", price };
  }
  for (const name of pricingNames(model)) {
    const modelRatio = lookup(ratios, defaultModelRatios, name);
    if (modelRatio !== undefined) return ratioPrice(model, modelRatio);
  }
  return undefined;
}

export function requirePrice(model: string): ModelPrice {
  const price = priceOfModel(model);
  if (!price) {
    throw new AppError("invalid", "模型 {{model}} 倍率或价格未配置，请联系管理员设置", { model }, { code: "model_price_error" });
  }
  return price;
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
