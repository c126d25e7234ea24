// Wires the relay's in-memory copies to their sources: change notices from every instance
// (through SharedState) drop or rebuild them at once, and the periodic resync job
// (SYNC_FREQUENCY) repairs anything a lost notice left stale.
import { registerCacheSize } from "../../metrics/metrics.ts";
import { onChange } from "../../services/change-notices.ts";
import { channelIndex, currentChannelIndex, reloadChannels, resyncChannels } from "./channel-cache.ts";
import { cachedTokenCount, forgetTokens, resyncTokens } from "./token-cache.ts";
import { cachedUserCount, forgetUsers, resyncUsers } from "./user-cache.ts";

let started = false;

export function startRelayCaches(): void {
  if (started) return;
  started = true;
  onChange("channels", () => void reloadChannels());
  onChange("tokens", (subject) => forgetTokens(subject));
  onChange("users", (subject) => forgetUsers(subject));
  // Group changes alter which tokens may use which groups; token checks read groups from the
  // options, so nothing cached needs dropping beyond the tokens themselves.
  onChange("groups", () => forgetTokens(""));
  void channelIndex();
  registerCacheSize("tokens", cachedTokenCount);
  registerCacheSize("users", cachedUserCount);
  registerCacheSize("channels", () => currentChannelIndex()?.byId.size ?? 0);
}

export async function resyncRelayCaches(): Promise<void> {
  await Promise.all([resyncChannels(), resyncTokens(), resyncUsers()]);
}
