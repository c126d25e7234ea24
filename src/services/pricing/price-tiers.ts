// The ModelPriceTiers option: per model, the prices of prompts above a size (long context), as
// ratios like the other pricing options. Absent completion or cache ratios in a tier keep the
// model's own; an empty list turns a model's built-in tiers off.
//
//   { "gemini-2.5-pro": [ { "above": 200000, "model_ratio": 1.25, "completion_ratio": 6, "cache_ratio": 0.1 } ] }
import { z } from "zod";
import { invalid } from "../../errors/app-error.ts";
import type { TierOption } from "./price-list.ts";

const ratio = z.number().finite().min(0);

const tierSchema = z
  .object({
    above: z.number().int().positive(),
    model_ratio: ratio,
    completion_ratio: ratio.optional(),
    cache_ratio: ratio.optional(),
    create_cache_ratio: ratio.optional(),
  })
  .strict();

export const maxTiersPerModel = 10;

/** Refuses a value that is not {model: [tier, ...]} with clear words: which model, which tier, what is wrong. */
export function checkPriceTiers(parsed: unknown): Record<string, TierOption[]> {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalid("价格分档必须是以模型名称为键的 JSON 对象");
  for (const [model, tiers] of Object.entries(parsed)) {
    if (!Array.isArray(tiers)) throw invalid("模型 {{model}} 的价格分档必须是列表", { model });
    if (tiers.length > maxTiersPerModel)
      throw invalid("模型 {{model}} 的价格分档不能超过 {{count}} 档", { model, count: maxTiersPerModel });
    const seen = new Set<number>();
    for (const tier of tiers) {
      const result = tierSchema.safeParse(tier);
      if (!result.success) {
        throw invalid("模型 {{model}} 的价格分档无效：above 须为正整数，倍率须为非负数字", { model });
      }
      if (seen.has(result.data.above))
        throw invalid("模型 {{model}} 有两个价格分档的起点都是 {{above}}", { model, above: result.data.above });
      seen.add(result.data.above);
    }
  }
  return parsed as Record<string, TierOption[]>;
}
