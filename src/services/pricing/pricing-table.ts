// GET /api/pricing and the /pricing page: every model an enabled
// channel serves, with its price as billing computes it (services/billing/model-prices.ts) and
// the groups that serve it; the group ratios and groups the caller (or a visitor) may use.
// Models without a configured price are left out: the relay refuses them (or bills them at the
// UnpricedModelPolicy's default, which is not a price to advertise). Beyond new-api's fields a row
// carries its cache ratios and its prices by prompt size (tiers), when it has them.
import { asc, eq } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { groupRatioOf, priceOfModel } from "../billing/model-prices.ts";
import { usableGroupsOf } from "../groups/user-groups.ts";

export type PricingRow = {
  model_name: string;
  /** 0 billed by tokens (ratios), 1 a fixed price per call. */
  quota_type: 0 | 1;
  model_ratio: number;
  model_price: number;
  owner_by: string;
  completion_ratio: number;
  enable_groups: string[];
  cache_ratio?: number;
  create_cache_ratio?: number;
  /** Above `above` prompt tokens the whole call is billed at these ratios. */
  tiers?: { above: number; model_ratio: number; completion_ratio: number }[];
};

export type PricingTable = { data: PricingRow[]; group_ratio: Record<string, number>; usable_group: Record<string, string> };

export async function pricingTable(userGroup: string | undefined): Promise<PricingTable> {
  const pairs = await db
    .selectDistinct({ model: t.abilities.model, group: t.abilities.group })
    .from(t.abilities)
    .where(eq(t.abilities.enabled, true))
    .orderBy(asc(t.abilities.model), asc(t.abilities.group));
  const groupsByModel = new Map<string, string[]>();
  for (const pair of pairs) groupsByModel.set(pair.model, [...(groupsByModel.get(pair.model) ?? []), pair.group]);
  const data: PricingRow[] = [];
  for (const [model, groups] of groupsByModel) {
    const price = priceOfModel(model);
    if (!price) continue;
    data.push(
      price.kind === "fixed"
        ? {
            model_name: model,
            quota_type: 1,
            model_ratio: 0,
            model_price: price.price,
            owner_by: "",
            completion_ratio: 0,
            enable_groups: groups,
          }
        : {
            model_name: model,
            quota_type: 0,
            model_ratio: price.modelRatio,
            model_price: 0,
            owner_by: "",
            completion_ratio: price.completionRatio,
            enable_groups: groups,
            ...(price.cacheRatio !== undefined ? { cache_ratio: price.cacheRatio } : {}),
            ...(price.cacheCreationRatio !== undefined ? { create_cache_ratio: price.cacheCreationRatio } : {}),
            ...(price.tiers
              ? {
                  tiers: price.tiers.map((tier) => ({
                    above: tier.above,
                    model_ratio: tier.modelRatio,
                    completion_ratio: tier.completionRatio ?? price.completionRatio,
                  })),
                }
              : {}),
          },
    );
  }
  const usable = usableGroupsOf(userGroup ?? "");
  const groupRatio = Object.fromEntries(Object.keys(usable).map((group) => [group, groupRatioOf(group)]));
  return { data, group_ratio: groupRatio, usable_group: usable };
}
