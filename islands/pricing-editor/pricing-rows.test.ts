// The pricing editor's rows and the options rebuilt from them.
import { describe, expect, test } from "bun:test";
import { buildPricingOptions, pricingRows } from "./pricing-rows.ts";

const original = {
  modelPrice: { "dall-e-3": 0.04 },
  modelRatio: { "gpt-4o": 1.25, "gpt-4o-mini": 0.075 },
  completionRatio: { "gpt-4o": 4 },
};

describe("pricing rows", () => {
  test("one row per model named anywhere, in name order, blanks where a value is missing", () => {
    expect(pricingRows(original.modelPrice, original.modelRatio, original.completionRatio)).toEqual([
      { name: "dall-e-3", price: "0.04", ratio: "", completion: "" },
      { name: "gpt-4o", price: "", ratio: "1.25", completion: "4" },
      { name: "gpt-4o-mini", price: "", ratio: "0.075", completion: "" },
    ]);
  });

  test("unchanged rows change no option", () => {
    const rows = pricingRows(original.modelPrice, original.modelRatio, original.completionRatio);
    expect(buildPricingOptions(rows, original)).toEqual([]);
  });

  test("only the options that changed are returned; a fixed price drops the model's ratios", () => {
    const rows = pricingRows(original.modelPrice, original.modelRatio, original.completionRatio).map((row) =>
      row.name === "gpt-4o" ? { ...row, price: "0.5" } : row,
    );
    const changes = buildPricingOptions(rows, original);
    expect(changes.map((change) => change.key)).toEqual(["ModelPrice", "ModelRatio", "CompletionRatio"]);
    expect(JSON.parse(changes[0]!.value)).toEqual({ "dall-e-3": 0.04, "gpt-4o": 0.5 });
    expect(JSON.parse(changes[1]!.value)).toEqual({ "gpt-4o-mini": 0.075 });
    expect(JSON.parse(changes[2]!.value)).toEqual({});
  });

  test("a new model with a ratio touches only the ratio option", () => {
    const rows = [
      ...pricingRows(original.modelPrice, original.modelRatio, original.completionRatio),
      { name: "new-model", price: "", ratio: "2", completion: "" },
    ];
    expect(buildPricingOptions(rows, original).map((change) => change.key)).toEqual(["ModelRatio"]);
  });
});
