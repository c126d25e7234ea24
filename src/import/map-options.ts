// Options: each key Switchyard knows is checked by the same rules as an edit in the console
// (a value they refuse is left out, with the reason); keys it does not know are listed, so the
// operator can see which of their settings have no counterpart here.
import { isAppError } from "../errors/app-error.ts";
import { translator } from "../i18n/i18n.ts";
import { normalizeOptionChange } from "../services/options/option-values.ts";
import { internalOptionKeys, isOptionKey } from "../services/options/option-registry.ts";
import type { ImportContext, TargetRow } from "./import-context.ts";
import type { SourceRow } from "./source-database.ts";
import { textOf } from "./source-values.ts";

const english = translator("en");

export function mapOptions(context: ImportContext, rows: SourceRow[]): TargetRow<"options">[] {
  const kept: TargetRow<"options">[] = [];
  const unknown: string[] = [];
  for (const row of rows) {
    const key = textOf(row, "key");
    if (!isOptionKey(key) || internalOptionKeys.has(key)) {
      unknown.push(key);
      continue;
    }
    try {
      kept.push(normalizeOptionChange({ key, value: textOf(row, "value") }));
    } catch (error) {
      if (!isAppError(error)) throw error;
      context.report.skip("options", "whose value Switchyard refuses", `${key}: ${english(error.messageKey, error.params)}`);
    }
  }
  if (unknown.length > 0) context.report.note(`options Switchyard does not have (not imported): ${unknown.sort().join(", ")}`);
  return kept;
}

/** The source's QuotaPerUnit (quota per dollar), or new-api's default. */
export function quotaPerUnitOf(rows: SourceRow[]): number {
  const row = rows.find((candidate) => textOf(candidate, "key") === "QuotaPerUnit");
  const value = row ? Number(textOf(row, "value")) : NaN;
  return Number.isFinite(value) && value > 0 ? value : 500_000;
}
