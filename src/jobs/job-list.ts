// Every background job of the process; add new jobs here.
import { refreshQuotaDataWhenDue } from "../services/dashboard/quota-rollup.ts";
import { reloadOptions } from "../services/options/options.ts";
import { deleteExpiredCodes } from "../services/verifications/verification-codes.ts";
import type { Job } from "./scheduler.ts";
import { relayJobs } from "../relay/relay-jobs.ts";
import { taskPollingJob } from "./task-polling.ts";
import { dailyBackupJob } from "../backup/daily-backups.ts";

export const backgroundJobs: Job[] = [
  {
    // Change notices already reach other instances at once; this is the safety net for a
    // missed notice (e.g. Redis restarted), bounded by SYNC_FREQUENCY.
    name: "options-resync",
    everySeconds: (config) => config.syncFrequencySeconds,
    run: () => reloadOptions(),
  },
  {
    name: "expired-codes-cleanup",
    everySeconds: () => 3600,
    once: true,
    run: () => deleteExpiredCodes(),
  },
  {
    // Checks every minute; refreshes once per DataExportInterval across all instances.
    name: "quota-data-rollup",
    everySeconds: () => 60,
    run: () => refreshQuotaDataWhenDue(),
  },
  ...relayJobs,
  taskPollingJob,
  dailyBackupJob,
];
