// The relay's background job: the cache resync (every instance, SYNC_FREQUENCY). Holds need no
// sweeper: they live outside the store and end with their request or their process.
import type { Job } from "../jobs/job.ts";
import { resyncRelayCaches } from "./caches/relay-caches.ts";

export const relayJobs: Job[] = [
  {
    name: "relay-caches-resync",
    everySeconds: (config) => config.syncFrequencySeconds,
    run: () => resyncRelayCaches(),
  },
];
