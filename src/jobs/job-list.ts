// Every background job of the process; add new jobs here.
import { refreshQuotaDataWhenDue } from "../services/dashboard/quota-rollup.ts";
import { reloadOptions } from "../services/options/options.ts";
import { deleteExpiredCodes } from "../services/verifications/verification-codes.ts";
import { auditRetentionJob } from "./audit-retention.ts";
import { errorLogRetentionJob } from "./error-log-retention.ts";
import { captureRetentionJob } from "./capture-retention.ts";
import { resyncSessions } from "../services/sessions/session-cache.ts";
import { deleteEndedSessions } from "../services/sessions/session-records.ts";
import type { Job } from "./job.ts";
import { relayJobs } from "../relay/relay-jobs.ts";
import { taskPollingJob } from "./task-polling.ts";
import { dailyBackupJob } from "../backup/daily-backups.ts";
import { sweepStoredResponses } from "../services/responses/stored-responses.ts";

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
  errorLogRetentionJob,
  captureRetentionJob,
  auditRetentionJob,
  {
    // Session rows cached by this instance, reloaded in case an "ended" notice was lost.
    name: "sessions-resync",
    everySeconds: (config) => config.syncFrequencySeconds,
    run: () => resyncSessions(),
  },
  {
    name: "ended-sessions-cleanup",
    everySeconds: () => 3600,
    once: true,
    run: () => deleteEndedSessions(),
  },
  {
    // Checks every minute; refreshes once per DataExportInterval across all instances.
    name: "quota-data-rollup",
    everySeconds: () => 60,
    run: () => refreshQuotaDataWhenDue(),
  },
  {
    // Responses API state past ResponsesRetentionDays, and users above ResponsesStoreUserLimitMB.
    name: "responses-sweep",
    everySeconds: () => 3600,
    once: true,
    run: async () => {
      await sweepStoredResponses();
    },
  },
  ...relayJobs,
  taskPollingJob,
  dailyBackupJob,
];
