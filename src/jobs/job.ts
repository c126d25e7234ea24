// A background job as the scheduler runs it (scheduler.ts); the jobs themselves are listed in
// job-list.ts, and server.ts hands that list to the scheduler.
import type { Config } from "../config.ts";

export type Job = {
  name: string;
  everySeconds: (config: Config) => number;
  /** Run on a single instance per period (cluster-wide), not on each. */
  once?: boolean;
  /** Also run right after start, not only when the first period has passed. */
  runAtStart?: boolean;
  run: (config: Config) => Promise<void>;
};
