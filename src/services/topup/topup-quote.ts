// What an online top-up costs and credits (docs/COMPATIBILITY.md, Quota units and prices).
// The amount is in dollars of quota when the site shows currency, else in quota points. Money =
// dollars x Price x the top-up ratio of the user's group, in cents so no float drifts into money.
import { z } from "zod";
import { invalid } from "../../errors/app-error.ts";
import { optionBool, optionJson, optionNumber, optionText } from "../options/options.ts";
import { integerField } from "../integer-field.ts";

export type TopUpQuote = {
  /** What the user asked for (dollars, or points when currency display is off). */
  amount: number;
  /** Quota credited when paid. */
  quota: number;
  /** Money to pay, in cents of the payment currency. */
  cents: number;
};

export const topUpAmountInput = z.object({
  amount: integerField("请输入有效的充值数量"),
  top_up_code: z.string().nullish(),
});

export function onlineTopUpEnabled(): boolean {
  return optionText("PayAddress") !== "" && optionText("EpayId") !== "" && optionText("EpayKey") !== "";
}

/** The smallest amount, in the unit the user types. */
export function minimumTopUp(): number {
  const minimum = optionNumber("MinTopUp");
  return optionBool("DisplayInCurrencyEnabled") ? minimum : minimum * optionNumber("QuotaPerUnit");
}

/** TopupGroupRatio for a group; missing, zero or negative ratios count as 1. */
function topUpGroupRatio(group: string): number {
  const ratios = optionJson<Record<string, unknown>>("TopupGroupRatio");
  const ratio = ratios && typeof ratios === "object" ? ratios[group] : undefined;
  return typeof ratio === "number" && Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
}

/** Rounds a product of decimals to whole cents without binary-float noise (2.675 -> 268). */
function toCents(value: number): number {
  return Math.round(Number((value * 100).toPrecision(15)));
}

export function quoteTopUp(group: string, amount: number): TopUpQuote {
  const minimum = minimumTopUp();
  if (amount < minimum) throw invalid("充值数量不能小于{{min}}", { min: minimum });
  const inCurrency = optionBool("DisplayInCurrencyEnabled");
  const quotaPerUnit = optionNumber("QuotaPerUnit");
  const dollars = inCurrency ? amount : amount / quotaPerUnit;
  const cents = toCents(dollars * optionNumber("Price") * topUpGroupRatio(group));
  if (cents < 1) throw invalid("充值金额过低");
  const quota = inCurrency ? Math.round(amount * quotaPerUnit) : amount;
  if (!Number.isSafeInteger(quota)) throw invalid("请输入有效的充值数量");
  return { amount, quota, cents };
}

export const centsText = (cents: number) => (cents / 100).toFixed(2);
