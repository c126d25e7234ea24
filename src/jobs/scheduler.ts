// Runs background jobs (job.ts: {name, everySeconds, run}), the list server.ts starts it with.
// A job marked `once` runs on one instance per period, whichever takes the shared lock first;
// the others skip that turn.
import type { Config } from "../config.ts";
import { shared } from "../cache/open-shared-state.ts";
import { logger } from "../logger.ts";
import type { Job } from "./job.ts";

export type { Job } from "./job.ts";

const timers: Timer[] = [];
/** Runs in progress, so a stopping server can let them finish before it closes the store. */
const running = new Set<Promise<void>>();

async function runJob(job: Job, config: Config, period: number) {
  if (job.once && !(await shared.setIfAbsent(`job:${job.name}`, config.nodeName, Math.max(1, period - 1)))) return;
  try {
    await job.run(config);
  } catch (error) {
    logger.error(`job ${job.name} failed`, { error: error instanceof Error ? error.message : String(error) });
  }
}

export function startJobs(config: Config, jobs: readonly Job[]): void {
  for (const job of jobs) {
    const period = job.everySeconds(config);
    if (period <= 0) continue;
    let busy = false;
    const tick = async () => {
      if (busy) return; // a slow run is never overlapped by the next one
      busy = true;
      const run = runJob(job, config, period);
      running.add(run);
      await run;
      running.delete(run);
      busy = false;
    };
    const timer = setInterval(tick, period * 1000);
    timer.unref?.();
    timers.push(timer);
    if (job.runAtStart) void tick();
  }
}

/** No new runs; resolves when the runs in progress have finished. */
export async function stopJobs(): Promise<void> {
  for (const timer of timers.splice(0)) clearInterval(timer);
  await Promise.all(running);
}
