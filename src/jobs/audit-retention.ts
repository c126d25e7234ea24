// Audit entries older than AuditRetentionDays go: hourly on one instance, at start, and at once
// when the option changes (a shorter retention applies without waiting for the hour).
import { logger } from "../logger.ts";
import { deleteExpiredAuditEntries } from "../services/audit/audit-retention.ts";
import { onOptionsChanged } from "../services/options/options.ts";
import type { Job } from "./job.ts";

let queue: Promise<void> = Promise.resolve();
function cleanUp(): Promise<void> {
  const run = queue.then(async () => {
    const deleted = await deleteExpiredAuditEntries();
    if (deleted > 0) logger.info("audit entries past their retention deleted", { deleted });
  });
  queue = run.catch(() => undefined);
  return run;
}

let watching = false;
function watchRetention(): void {
  if (watching) return;
  watching = true;
  onOptionsChanged((keys) => {
    if (keys.includes("AuditRetentionDays"))
      cleanUp().catch((error) => logger.error("audit retention failed", { error: error instanceof Error ? error.message : String(error) }));
  });
}

export const auditRetentionJob: Job = {
  name: "audit-retention",
  everySeconds: () => 3600,
  once: true,
  runAtStart: true,
  run: () => {
    watchRetention();
    return cleanUp();
  },
};
