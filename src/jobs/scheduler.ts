// Background jobs: each is {name, everySeconds, run}. A job marked `once` runs on one instance
// per period, whichever takes the shared lock first; the others skip that turn.
import type { Config } from "../config.ts";
import { shared } from "../cache/open-shared-state.ts";
import { logger } from "../logger.ts";
import { backgroundJobs } from "./job-list.ts";

export type Job = {
  name: string;
  everySeconds: (config: Config) => number;
  /** Run on a single instance per period (cluster-wide), not on each. */
  once?: boolean;
  run: (config: Config) => Promise<void>;
};

const timers: Timer[] = [];

async function runJob(job: Job, config: Config, period: number) {
  if (job.once && !(await shared.setIfAbsent(`job:${job.name}`, config.nodeName, Math.max(1, period - 1)))) return;
  try {
    await job.run(config);
  } catch (error) {
    logger.error(`job ${job.name} failed`, { error: error instanceof Error ? error.message : String(error) });
  }
}

export function startJobs(config: Config): void {
  for (const job of backgroundJobs) {
    const period = job.everySeconds(config);
    if (period <= 0) continue;
    let running = false;
    const timer = setInterval(async () => {
      if (running) return; // a slow run is never overlapped by the next one
      running = true;
      await runJob(job, config, period);
      running = false;
    }, period * 1000);
    timer.unref?.();
    timers.push(timer);
  }
}

export function stopJobs(): void {
  for (const timer of timers.splice(0)) clearInterval(timer);
}
