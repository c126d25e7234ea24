// The models channels serve without a price (the unpriced-models view, and the getting-started
// checklist's last step): every name a channel lists, enabled or not, that neither the pricing
// options nor the built-in tables price, with the channels that serve it.
import { asc, eq } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { priceOfModel } from "../billing/model-prices.ts";

export type UnpricedModel = {
  model: string;
  /** The channels listing the model; `enabled` when the channel is on and serves it now. */
  channels: { id: number; name: string; enabled: boolean }[];
};

export async function unpricedModels(): Promise<UnpricedModel[]> {
  const rows = await db
    .selectDistinct({ model: t.abilities.model, id: t.channels.id, name: t.channels.name, enabled: t.abilities.enabled })
    .from(t.abilities)
    .innerJoin(t.channels, eq(t.channels.id, t.abilities.channel_id))
    .orderBy(asc(t.abilities.model), asc(t.channels.id));
  const byModel = new Map<string, UnpricedModel>();
  for (const row of rows) {
    if (priceOfModel(row.model)) continue;
    const entry = byModel.get(row.model) ?? { model: row.model, channels: [] };
    const known = entry.channels.find((channel) => channel.id === row.id);
    if (known) known.enabled ||= row.enabled;
    else entry.channels.push({ id: row.id, name: row.name, enabled: row.enabled });
    byModel.set(row.model, entry);
  }
  return [...byModel.values()];
}
