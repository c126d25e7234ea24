// What an answer cost, by the same formula the relay bills with (services/billing/quota-math.ts)
// over the prices the page handed over, shown in the site's unit: dollars when the site displays
// currency (enough digits that a small non-zero cost does not read $0.00), raw quota otherwise.
import type { ModelPrice } from "../../src/services/billing/model-prices.ts";
import { quotaForUsage } from "../../src/services/billing/quota-math.ts";
import type { Usage } from "./chat-stream.ts";

export type PriceList = {
  /** Model -> price (null: the model has none; the relay refuses it). */
  models: Record<string, ModelPrice | null>;
  groupRatios: Record<string, number>;
};

export type MoneyDisplay = { quotaPerUnit: number; displayInCurrency: boolean };

export function answerQuota(
  prices: PriceList,
  model: string,
  group: string,
  usage: Usage | undefined,
  quotaPerUnit: number,
): number | undefined {
  const price = prices.models[model];
  if (!price || !usage) return undefined;
  const groupRatio = prices.groupRatios[group] ?? 1;
  return quotaForUsage(
    { ...price, groupRatio },
    { promptTokens: usage.prompt_tokens ?? 0, completionTokens: usage.completion_tokens ?? 0 },
    quotaPerUnit,
  );
}

/** Two significant digits below a dollar, cents above: $0.0042, $0.31, $12.40. */
export function formatDollars(amount: number): string {
  if (amount === 0) return "$0";
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  const digits = Math.min(8, Math.max(2, 1 - Math.floor(Math.log10(amount))));
  return `$${amount.toFixed(digits).replace(/0+$/, "").replace(/\.$/, "")}`;
}

/** A list price: three significant digits, at least cents ($0.15, $0.60, $0.075, $10.00). */
export function formatPrice(amount: number): string {
  const rounded = Number(amount.toPrecision(3));
  const decimals = Math.max(2, (String(rounded).split(".")[1] ?? "").length);
  return `$${rounded.toFixed(decimals)}`;
}

export function formatQuota(quota: number, display: MoneyDisplay): string {
  if (display.displayInCurrency && display.quotaPerUnit > 0) return formatDollars(quota / display.quotaPerUnit);
  return quota.toLocaleString();
}
