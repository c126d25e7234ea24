// The price of a model and the ratio of a group, from the options (ModelPrice, ModelRatio,
// CompletionRatio, GroupRatio) with the built-in tables as the fallback for what an option does
// not list. A model with neither a fixed price nor a ratio has no price: the relay refuses it
// instead of serving it free (new-api bills unknown models at ratio 30, one-api#1338).
import { AppError } from "../../errors/app-error.ts";
import { optionJson } from "../options/options.ts";
import { defaultCompletionRatios, defaultModelPrices, defaultModelRatios } from "../pricing/default-ratios.ts";

export type ModelPrice =
  | { kind: "ratio"; modelRatio: number; completionRatio: number }
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
    if (modelRatio !== undefined) return { kind: "ratio", modelRatio, completionRatio: completionRatioOf(model) };
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
