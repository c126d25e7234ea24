// The relay's background jobs: the cache resync (every instance, SYNC_FREQUENCY) and the
// release of quota holds left by requests whose process died (one instance per period).
import type { Config } from "../config.ts";
import type { Job } from "../jobs/scheduler.ts";
import { releaseStaleHolds } from "../services/billing/quota-holds.ts";
import { logger } from "../logger.ts";
import { resyncRelayCaches } from "./caches/relay-caches.ts";

/**
 * A hold older than this belongs to a request that can no longer be running normally. A stream
 * that really lasts longer is settled without its hold later, still at its exact cost.
 */
export function staleHoldAgeSeconds(config: Config): number {
  return Math.max(3600, config.relayTimeoutSeconds + config.streamingTimeoutSeconds + 600);
}

export const relayJobs: Job[] = [
  {
    name: "relay-caches-resync",
    everySeconds: (config) => config.syncFrequencySeconds,
    run: () => resyncRelayCaches(),
  },
  {
    name: "stale-quota-holds",
    everySeconds: () => 300,
    once: true,
    run: async (config) => {
      const released = await releaseStaleHolds(staleHoldAgeSeconds(config));
      if (released > 0) logger.warn("released stale quota holds", { count: released });
    },
  },
];
