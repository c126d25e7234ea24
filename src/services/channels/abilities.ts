// The abilities table: one row per (group, model, channel), rebuilt from a channel's comma
// lists whenever the channel is written, inside the same transaction. Channel selection reads
// these rows (or the relay's cached copy), so they must always mirror the channels table.
import { eq, inArray } from "drizzle-orm";
import { t, type Db } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { splitList } from "./channel-input.ts";

export type ChannelRow = Tables["channels"]["$inferSelect"];
type AbilityRow = Tables["abilities"]["$inferInsert"];

/** The ability rows a channel implies: models x groups, enabled only while status is 1. */
export function abilityRowsOf(
  channel: Pick<ChannelRow, "id" | "models" | "group" | "status" | "priority" | "weight" | "tag">,
): AbilityRow[] {
  const rows: AbilityRow[] = [];
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === 1,
        priority: channel.priority,
        weight: channel.weight,
        tag: channel.tag,
      });
    }
  }
  return rows;
}

// Bounded batches keep each insert well under SQLite's bound-parameter limit.
const insertBatchSize = 500;

/** Replaces the abilities of the given channels (yield* inside a transaction). */
export function* replaceAbilities(tx: Db, channels: ChannelRow[]) {
  if (channels.length === 0) return;
  const ids = channels.map((channel) => channel.id);
  for (let start = 0; start < ids.length; start += insertBatchSize) {
    yield* run(tx.delete(t.abilities).where(inArray(t.abilities.channel_id, ids.slice(start, start + insertBatchSize))));
  }
  const rows = channels.flatMap(abilityRowsOf);
  for (let start = 0; start < rows.length; start += insertBatchSize) {
    yield* run(tx.insert(t.abilities).values(rows.slice(start, start + insertBatchSize)));
  }
}

/** Removes a channel's abilities (the foreign key would too; this keeps it explicit for both dialects). */
export function* removeAbilities(tx: Db, channelId: number) {
  yield* run(tx.delete(t.abilities).where(eq(t.abilities.channel_id, channelId)));
}
