// The request inspector's kept bodies: those older than RequestCaptureRetentionDays go hourly and
// at start (on every instance, so each one watches the switch; the deletes are idempotent); when the site's switch is off, every capture ends and every kept
// body goes, at once when the switch is turned off (on every instance that hears it: the work
// is the same whoever does it) and at start (a notice missed while stopped).
import { logger } from "../logger.ts";
import { deleteExpiredCaptures, endAllCaptures } from "../services/captures/capture-store.ts";
import { captureSwitchOn } from "../services/captures/capture-window.ts";
import { onOptionsChanged } from "../services/options/options.ts";
import type { Job } from "./job.ts";

let queue: Promise<void> = Promise.resolve();
function cleanUp(): Promise<void> {
  const run = queue.then(async () => {
    const deleted = captureSwitchOn() ? await deleteExpiredCaptures() : await endAllCaptures();
    if (deleted > 0) logger.info("request captures deleted", { deleted, switchedOff: !captureSwitchOn() });
  });
  queue = run.catch(() => undefined);
  return run;
}

let watching = false;
function watchSwitch(): void {
  if (watching) return;
  watching = true;
  onOptionsChanged((keys) => {
    if (keys.includes("RequestCaptureEnabled") || keys.includes("RequestCaptureRetentionDays"))
      cleanUp().catch((error) =>
        logger.error("request capture cleanup failed", { error: error instanceof Error ? error.message : String(error) }),
      );
  });
}

export const captureRetentionJob: Job = {
  name: "capture-retention",
  everySeconds: () => 3600,
  runAtStart: true,
  run: () => {
    watchSwitch();
    return cleanUp();
  },
};
