// The drawing and music task poller: every TASK_POLL_INTERVAL seconds (UPDATE_TASK=false turns
// it off on an instance), on one instance of the cluster. The scheduler's `once` mark lets one
// instance start per period; a run lock held for the whole run keeps a slow run (upstreams that
// take their time to answer) from being overlapped by another instance's next period. Either
// way a task cannot be changed twice or refunded twice: those are conditional in the store.
import { shared } from "../cache/open-shared-state.ts";
import type { Config } from "../config.ts";
import { pollDrawings } from "../relay/tasks/midjourney/mj-poll.ts";
import { pollSunoTasks } from "../relay/tasks/suno/suno-poll.ts";
import type { Job } from "./scheduler.ts";

const runLockKey = "task-polling:running";
/** Longer than any run can take (every upstream call has its own 15 s timeout). */
const runLockSeconds = 600;

export async function pollTasksOnce(config: Config): Promise<void> {
  const owner = `${config.nodeName}:${crypto.randomUUID()}`;
  if (!(await shared.setIfAbsent(runLockKey, owner, runLockSeconds))) return;
  try {
    await pollDrawings(config.taskTimeoutSeconds);
    await pollSunoTasks(config.taskTimeoutSeconds);
  } finally {
    if ((await shared.get(runLockKey)) === owner) await shared.delete(runLockKey);
  }
}

export const taskPollingJob: Job = {
  name: "task-polling",
  everySeconds: (config) => config.taskPollSeconds,
  once: true,
  run: (config) => pollTasksOnce(config),
};
