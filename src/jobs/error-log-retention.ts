// Error log entries (type 5) older than ErrorLogRetentionDays go: hourly on one instance, at
// start, and at once when the option changes (so a shorter retention applies without waiting).
import { logger } from "../logger.ts";
import { deleteExpiredErrorLogs } from "../services/logs/log-cleanup.ts";
import { onOptionsChanged } from "../services/options/options.ts";
import type { Job } from "./job.ts";

let queue: Promise<void> = Promise.resolve();
function cleanUp(): Promise<void> {
  const run = queue.then(async () => {
    const deleted = await deleteExpiredErrorLogs();
    if (deleted > 0) logger.info("error log entries past their retention deleted", { deleted });
  });
  queue = run.catch(() => undefined);
  return run;
}

let watching = false;
function watchRetention(): void {
  if (watching) return;
  watching = true;
  onOptionsChanged((keys) => {
    if (keys.includes("ErrorLogRetentionDays"))
      cleanUp().catch((error) =>
        logger.error("error log retention failed", { error: error instanceof Error ? error.message : String(error) }),
      );
  });
}

export const errorLogRetentionJob: Job = {
  name: "error-log-retention",
  everySeconds: () => 3600,
  once: true,
  runAtStart: true,
  run: () => {
    watchRetention();
    return cleanUp();
  },
};
