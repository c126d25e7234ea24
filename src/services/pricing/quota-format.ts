// How an amount of quota is written for people: dollars when the site displays currency,
// otherwise points (quota / QuotaPerUnit with the dollar sign).
import { optionBool, optionNumber } from "../options/options.ts";

export function formatQuota(quota: number, digits = 6): string {
  if (optionBool("DisplayInCurrencyEnabled")) {
    return `＄${(quota / optionNumber("QuotaPerUnit")).toFixed(digits)} 额度`; // i18n-exempt: stored log text
  }
  return `${quota} 点额度`; // i18n-exempt: stored log text
}

/** A short label of an amount as the console shows it ("$0.20", or the points): default names. */
export function quotaLabel(quota: number): string {
  if (optionBool("DisplayInCurrencyEnabled")) return `$${(quota / optionNumber("QuotaPerUnit")).toFixed(2)}`;
  return String(quota);
}
