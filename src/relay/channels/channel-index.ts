// The group x model -> channels index the relay selects from (one-api's abilities, held in
// memory): enabled channels only, grouped in priority tiers, highest first. Built from the
// channels table itself, so a stale abilities table can never route to a missing channel.
import type { ProviderAdaptor } from "../providers/adaptor.ts";
import type { Tier } from "../routing/select-channel.ts";
import { ChannelStatus, toChannelSnapshot, type ChannelRow, type ChannelSnapshot } from "./channel-snapshot.ts";

export type ChannelIndex = {
  /** Every channel, enabled or not (pinning, tests, retries by id). */
  byId: Map<number, ChannelSnapshot>;
  /** group -> model -> tiers of enabled channels, highest priority first. */
  routes: Map<string, Map<string, Tier<ChannelSnapshot>[]>>;
  /** Every model some channel lists, in any group, enabled or not: a model outside it does not exist here. */
  knownModels: Set<string>;
};

export const emptyChannelIndex = (): ChannelIndex => ({ byId: new Map(), routes: new Map(), knownModels: new Set() });

/** GPTs models share one price and one route entry (new-api's gizmo aliasing). */
export function routeModelName(model: string): string {
  if (model.startsWith("gpt-4-gizmo")) return "gpt-4-gizmo-*";
  if (model.startsWith("gpt-4o-gizmo")) return "gpt-4o-gizmo-*";
  return model;
}

/** `adaptors`: the loaded adaptors of the rows' types (providers/registry.ts loadAdaptors). */
export function buildChannelIndex(rows: readonly ChannelRow[], adaptors: ReadonlyMap<number, ProviderAdaptor>): ChannelIndex {
  const byId = new Map<number, ChannelSnapshot>();
  const grouped = new Map<string, Map<string, ChannelSnapshot[]>>();
  const knownModels = new Set<string>();
  for (const row of rows) {
    const channel = toChannelSnapshot(row, adaptors.get(row.type));
    byId.set(channel.id, channel);
    for (const model of channel.models) knownModels.add(model);
    // A multi-key channel without an enabled key serves nothing (it is disabled with its last key).
    if (channel.status !== ChannelStatus.enabled || channel.keyPool?.slots.length === 0) continue;
    for (const group of channel.groups) {
      let models = grouped.get(group);
      if (!models) grouped.set(group, (models = new Map()));
      for (const model of channel.models) {
        const list = models.get(model);
        if (list) list.push(channel);
        else models.set(model, [channel]);
      }
    }
  }
  const routes = new Map<string, Map<string, Tier<ChannelSnapshot>[]>>();
  for (const [group, models] of grouped) {
    const tiersByModel = new Map<string, Tier<ChannelSnapshot>[]>();
    for (const [model, channels] of models) tiersByModel.set(model, toTiers(channels));
    routes.set(group, tiersByModel);
  }
  return { byId, routes, knownModels };
}

function toTiers(channels: ChannelSnapshot[]): Tier<ChannelSnapshot>[] {
  const byPriority = new Map<number, ChannelSnapshot[]>();
  for (const channel of channels) {
    const list = byPriority.get(channel.priority);
    if (list) list.push(channel);
    else byPriority.set(channel.priority, [channel]);
  }
  return [...byPriority.entries()]
    .sort(([a], [b]) => b - a)
    .map(([priority, list]) => ({ priority, channels: list.sort((a, b) => a.id - b.id) }));
}

export function candidatesFor(index: ChannelIndex, group: string, model: string): Tier<ChannelSnapshot>[] {
  return index.routes.get(group)?.get(routeModelName(model)) ?? [];
}

/** The models a group can use right now, sorted. */
export function modelsOfGroup(index: ChannelIndex, group: string): string[] {
  return [...(index.routes.get(group)?.keys() ?? [])].sort();
}
