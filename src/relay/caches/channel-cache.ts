// The channel index in memory, rebuilt from the store when the channel service announces a
// change (on any instance), when the relay itself disables or enables a channel, and by the
// periodic resync. Rebuilds are coalesced: a burst of notices costs one or two reloads.
import { db, t } from "../../store/client.ts";
import { buildChannelIndex, emptyChannelIndex, type ChannelIndex } from "../channels/channel-index.ts";

let index: ChannelIndex = emptyChannelIndex();
let firstLoad: Promise<void> | undefined;
let reloading: Promise<void> | undefined;
let reloadAgain = false;

async function loadOnce(): Promise<void> {
  const rows = await db.select().from(t.channels);
  index = buildChannelIndex(rows);
}

export function reloadChannels(): Promise<void> {
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

/** The index, loading it on the first call. */
export async function channelIndex(): Promise<ChannelIndex> {
  if (!firstLoad) firstLoad = reloadChannels();
  await firstLoad;
  return index;
}
