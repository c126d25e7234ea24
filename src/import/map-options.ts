// Options: each key Switchyard knows is checked by the same rules as an edit in the console
// (the service's validateOptionChanges: each value, then the rules across keys such as "metrics
// need their token" against the store's values); a value they refuse is left out, with the
// reason. Keys Switchyard does not know are listed, so the operator can see which of their
// settings have no counterpart here.
//
// Into an empty store the source's options are the settings. A merge keeps the store's: the
// summary previews the source's options that differ (secrets not shown), and --merge-options
// takes them, once the operator has seen that preview.
//
// What the source did with a model it had no price for becomes UnpricedModelPolicy, so the
// gateway keeps behaving as it did: one-api bills such a model at ratio 30 (its GetModelRatio
// falls back to 30); new-api refuses it ("倍率或价格未配置") unless its self-use mode is on
// (SelfUseModeEnabled), which bills it at its fallback ratio 37.5.
import { isAppError } from "../errors/app-error.ts";
import { translator } from "../i18n/i18n.ts";
import { definitionOf, internalOptionKeys, isOptionKey, type OptionKey } from "../services/options/option-registry.ts";
import { validateOptionChanges } from "../services/options/option-values.ts";
import type { ImportContext, TargetRow } from "./import-context.ts";
import type { SourceRow } from "./source-database.ts";
import { textOf } from "./source-values.ts";

const english = translator("en");

/** Source options that Switchyard reads into options of its own (not listed as "not imported"). */
const translatedKeys = new Set(["SelfUseModeEnabled"]);

/** UnpricedModelPolicy and UnpricedModelRatio as the source behaved. */
function unpricedPolicyOf(context: ImportContext, rows: SourceRow[]): TargetRow<"options">[] {
  const selfUse = rows.some((row) => textOf(row, "key") === "SelfUseModeEnabled" && textOf(row, "value").trim().toLowerCase() === "true");
  const [policy, ratio, why] =
    context.schema.product === "one-api"
      ? ["ratio", "30", "one-api bills models without a price at ratio 30"]
      : selfUse
        ? ["ratio", "37.5", "new-api's self-use mode bills models without a price at ratio 37.5"]
        : ["refuse", "30", "new-api refuses models without a price (self-use mode off)"];
  context.report.note(
    `models without a price: ${policy === "ratio" ? `billed at ratio ${ratio}` : "refused"}, as the source did (${why}); UnpricedModelPolicy in the settings changes it`,
  );
  return [
    { key: "UnpricedModelPolicy", value: policy },
    { key: "UnpricedModelRatio", value: ratio },
  ];
}

/** The source's options as the store would accept them, checked against the store's `current` values. */
export function mapOptions(context: ImportContext, rows: SourceRow[], current: Map<string, string>): TargetRow<"options">[] {
  const unknown: string[] = [];
  const offered: { key: OptionKey; value: string }[] = [];
  for (const row of rows) {
    const key = textOf(row, "key");
    if (translatedKeys.has(key)) continue;
    if (!isOptionKey(key) || internalOptionKeys.has(key)) unknown.push(key);
    else offered.push({ key, value: textOf(row, "value") });
  }
  if (unknown.length > 0) context.report.note(`options Switchyard does not have (not imported): ${unknown.sort().join(", ")}`);
  for (const row of unpricedPolicyOf(context, rows)) offered.push({ key: row.key as OptionKey, value: row.value ?? "" });
  // A rule across keys may need a key that comes later ("switch on" before "its setting"): take
  // what passes, against what was taken so far, until a round takes nothing more.
  const accepted = new Map<OptionKey, string>();
  const valueTaken = (key: OptionKey) => accepted.get(key) ?? current.get(key) ?? definitionOf(key).default;
  let pending = offered;
  const refusals = new Map<string, string>();
  while (pending.length > 0) {
    const left: typeof pending = [];
    for (const change of pending) {
      try {
        const [checked] = validateOptionChanges([change], valueTaken);
        accepted.set(checked!.key, checked!.value);
        refusals.delete(change.key);
      } catch (error) {
        if (!isAppError(error)) throw error;
        refusals.set(change.key, english(error.messageKey, error.params));
        left.push(change);
      }
    }
    if (left.length === pending.length) break;
    pending = left;
  }
  for (const [key, reason] of refusals) context.report.skip("options", "whose value Switchyard refuses", `${key}: ${reason}`);
  return [...accepted].map(([key, value]) => ({ key, value }));
}

const shown = (value: string) => {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}..."` : text;
};

/** The source's options that differ from the store's, as the summary previews them. */
export function optionDifferences(options: TargetRow<"options">[], current: Map<string, string>): TargetRow<"options">[] {
  return options.filter((option) => (current.get(option.key) ?? definitionOf(option.key as OptionKey).default) !== option.value);
}

export function previewOptions(context: ImportContext, differing: TargetRow<"options">[], current: Map<string, string>, merged: boolean) {
  if (differing.length === 0) return;
  const lines = differing.map((option) => {
    const key = option.key as OptionKey;
    const before = current.get(key) ?? definitionOf(key).default;
    return definitionOf(key).secret ? `    ${key}: (secret, differs)` : `    ${key}: ${shown(before)} -> ${shown(option.value ?? "")}`;
  });
  const heading = merged
    ? `options merged from the source (${differing.length}):`
    : `options of the source that differ from this store's, NOT merged (${differing.length}); check them, then give --merge-options to take them:`;
  context.report.note([heading, ...lines].join("\n"));
}

/** The source's QuotaPerUnit (quota per dollar), or new-api's default. */
export function quotaPerUnitOf(rows: SourceRow[]): number {
  const row = rows.find((candidate) => textOf(candidate, "key") === "QuotaPerUnit");
  const value = row ? Number(textOf(row, "value")) : NaN;
  return Number.isFinite(value) && value > 0 ? value : 500_000;
}
