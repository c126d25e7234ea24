// While Redis is away, change notices from other instances do not arrive, so the caches that
// rely on them (relay caches, options, sessions) reload every few seconds instead of every SYNC_FREQUENCY;
// when Redis is back they reload at once (notices are trusted again from that moment), so every
// instance converges within a second of Redis's return (docs/ARCHITECTURE.md, Redis outages).
import type { SharedState } from "../cache/shared-state.ts";
import { logger } from "../logger.ts";
import { resyncRelayCaches } from "../relay/caches/relay-caches.ts";
import { reloadOptions } from "../services/options/options.ts";
import { resyncSessions } from "../services/sessions/session-cache.ts";

/** The resync period while notices cannot be trusted. */
const degradedResyncSeconds = 3;

async function resyncAll(): Promise<void> {
  await Promise.all([resyncRelayCaches(), reloadOptions(), resyncSessions()]).catch((error) =>
    logger.error("resync of the caches failed", { error: error instanceof Error ? error.message : String(error) }),
  );
}

export function watchSharedHealth(shared: SharedState): () => void {
  let timer: Timer | undefined;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  shared.onHealthChange((healthy) => {
    if (healthy) {
      stop();
      void resyncAll();
    } else if (!timer) {
      timer = setInterval(() => void resyncAll(), degradedResyncSeconds * 1000);
      timer.unref?.();
    }
  });
  // Redis may already be away at start.
  if (!shared.healthy()) {
    timer = setInterval(() => void resyncAll(), degradedResyncSeconds * 1000);
    timer.unref?.();
  }
  return stop;
}
