// The task poller (relay/tasks/task-poller.ts), for drawings then music: every TASK_POLL_INTERVAL
// seconds (UPDATE_TASK=false turns it off on an instance), on one instance of the cluster. The scheduler's `once` mark lets one
// instance start per period; a run lock held for the whole run keeps a slow run (upstreams that
// take their time to answer) from being overlapped by another instance's next period. Either
// way a task cannot be changed twice or refunded twice: those are conditional in the store.
import { shared } from "../cache/open-shared-state.ts";
import type { Config } from "../config.ts";
import { drawingFollower } from "../relay/tasks/midjourney/mj-task-reports.ts";
import { musicFollower } from "../relay/tasks/suno/suno-task-reports.ts";
import { followTasks } from "../relay/tasks/task-poller.ts";
import type { Job } from "./scheduler.ts";

const runLockKey = "task-polling:running";
/** Longer than any run can take (every upstream call has its own 15 s timeout). */
const runLockSeconds = 600;

async function pollTasksOnce(config: Config): Promise<void> {
  const owner = `${config.nodeName}:${crypto.randomUUID()}`;
  if (!(await shared.setIfAbsent(runLockKey, owner, runLockSeconds))) return;
  try {
    await followTasks(drawingFollower, config.taskTimeoutSeconds);
    await followTasks(musicFollower, config.taskTimeoutSeconds);
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
