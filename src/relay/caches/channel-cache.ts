// The channel index in memory, rebuilt from the store when the channel service announces a
// change (on any instance), when the relay itself disables or enables a channel, and by the
// periodic resync. Rebuilds are coalesced: a burst of notices costs one or two reloads.
import { db, t } from "../../store/client.ts";
import { buildChannelIndex, emptyChannelIndex, type ChannelIndex } from "../channels/channel-index.ts";
import { loadAdaptors } from "../providers/registry.ts";

let index: ChannelIndex = emptyChannelIndex();
let firstLoad: Promise<void> | undefined;
let firstLoaded = false;
let reloading: Promise<void> | undefined;
let reloadAgain = false;
/** A rebuild caused by a change: requests wait for it rather than use the old index. */
let changeRebuild: Promise<void> | undefined;

async function loadOnce(): Promise<void> {
  const rows = await db.select().from(t.channels);
  // The snapshots carry their kind's adaptor, so a request never waits for one to load.
  const next = buildChannelIndex(rows, await loadAdaptors(rows.map((row) => row.type)));
  // Multi-key channels taking keys in turn go on from where they were (the cursor is a key number).
  for (const channel of next.byId.values()) {
    const before = channel.keyPool && index.byId.get(channel.id)?.keyPool;
    if (before && channel.keyPool!.keys.length) channel.keyPool!.cursor = before.cursor % channel.keyPool!.keys.length;
  }
  index = next;
}

function reload(): Promise<void> {
  if (reloading) {
    reloadAgain = true;
    return reloading;
  }
  reloading = (async () => {
    try {
      do {
        reloadAgain = false;
        await loadOnce();
      } while (reloadAgain);
    } finally {
      reloading = undefined;
    }
  })();
  return reloading;
}

/** Rebuilds after a change; requests arriving meanwhile see the result, not the old index. */
export function reloadChannels(): Promise<void> {
  const rebuild = reload();
  changeRebuild = rebuild;
  void rebuild
    .finally(() => {
      if (changeRebuild === rebuild) changeRebuild = undefined;
    })
    .catch(() => undefined);
  return rebuild;
}

/** The periodic safety net: requests keep using the current index while it runs. */
export function resyncChannels(): Promise<void> {
  return reload();
}

/** The index when it is loaded and no change is being applied (the common case, no await). */
export function currentChannelIndex(): ChannelIndex | undefined {
  return firstLoaded && !changeRebuild ? index : undefined;
}

/** The index, loading it on the first call. */
export async function channelIndex(): Promise<ChannelIndex> {
  if (!firstLoad) firstLoad = reload().then(() => void (firstLoaded = true));
  await firstLoad;
  if (changeRebuild) await changeRebuild;
  return index;
}
