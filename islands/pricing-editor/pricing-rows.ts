// The pricing editor's data, kept apart from React so it can be tested as plain functions: rows
// built from the three pricing options, and the options rebuilt from the rows, changed ones only.
export type PricingRow = { name: string; price: string; ratio: string; completion: string };

export type PricingOptions = {
  modelPrice: Record<string, number>;
  modelRatio: Record<string, number>;
  completionRatio: Record<string, number>;
};

const text = (value: number | undefined) => (value === undefined ? "" : String(value));

/** One row per model named in any of the three options, in name order. */
export function pricingRows(modelPrice: Record<string, number>, modelRatio: Record<string, number>, completionRatio: Record<string, number>): PricingRow[] {
  const names = [...new Set([...Object.keys(modelPrice), ...Object.keys(modelRatio), ...Object.keys(completionRatio)])].sort();
  return names.map((name) => ({ name, price: text(modelPrice[name]), ratio: text(modelRatio[name]), completion: text(completionRatio[name]) }));
}

function canonical(map: Record<string, number>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(map).sort(([a], [b]) => a.localeCompare(b))));
}

/**
 * The options as the rows say. A model with a fixed price is billed per call, so its ratios are
 * left out. Only options whose content changed are returned, ready for PUT /api/option/.
 */
export function buildPricingOptions(rows: PricingRow[], original: PricingOptions): { key: string; value: string }[] {
  const next: PricingOptions = { modelPrice: {}, modelRatio: {}, completionRatio: {} };
  for (const row of rows) {
    if (row.price !== "") {
      next.modelPrice[row.name] = Number(row.price);
      continue;
    }
    if (row.ratio !== "") next.modelRatio[row.name] = Number(row.ratio);
    if (row.completion !== "") next.completionRatio[row.name] = Number(row.completion);
  }
  const keys = { modelPrice: "ModelPrice", modelRatio: "ModelRatio", completionRatio: "CompletionRatio" } as const;
  return (Object.keys(keys) as (keyof PricingOptions)[])
    .filter((field) => canonical(next[field]) !== canonical(original[field]))
    .map((field) => ({ key: keys[field], value: JSON.stringify(next[field], null, 2) }));
}
