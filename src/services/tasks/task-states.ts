// The life of a drawing or music task (docs/COMPATIBILITY.md, Tasks): the states an
// upstream reports, in the order a task goes through them. A task never moves backwards: an
// update that reports an earlier state than the one stored (a late poll answer, a callback that
// arrives after the poller saw the end) changes nothing, and a finished task stays finished.
export const TaskStatus = {
  submitting: "",
  unknown: "UNKNOWN",
  notStart: "NOT_START",
  submitted: "SUBMITTED",
  queued: "QUEUED",
  modal: "MODAL",
  inProgress: "IN_PROGRESS",
  success: "SUCCESS",
  failure: "FAILURE",
} as const;

const rank: Record<string, number> = {
  "": 0,
  UNKNOWN: 0,
  NOT_START: 1,
  SUBMITTED: 2,
  QUEUED: 2,
  // Waiting for a window (Plus): the modal call makes the same task go on from here.
  MODAL: 2,
  IN_PROGRESS: 3,
  SUCCESS: 4,
  FAILURE: 4,
};

export const finishedProgress = "100%";

export function isFinished(status: string): boolean {
  return status === TaskStatus.success || status === TaskStatus.failure;
}

/** The percentage of a progress text ("45%" -> 45); 0 when unreadable. */
function progressPercent(progress: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(progress);
  return match ? Math.min(100, Number(match[1])) : 0;
}

function laterProgress(stored: string, reported: string): string {
  if (!reported.trim()) return stored;
  return progressPercent(reported) >= progressPercent(stored) ? reported.trim() : stored;
}

/** True when a report describes an earlier state than the stored one (a late answer): ignore it whole. */
export function isEarlierState(storedStatus: string, reportedStatus: string): boolean {
  if (isFinished(storedStatus)) return true;
  const reported = Object.hasOwn(rank, reportedStatus) ? reportedStatus : TaskStatus.unknown;
  return rank[reported]! < (rank[storedStatus] ?? 0);
}

export type TaskState = { status: string; progress: string; failReason: string };

/**
 * What a task becomes when the upstream reports `reported`, or undefined when nothing changes.
 * Unknown statuses read as UNKNOWN; a finished task always shows 100%; a failure keeps the
 * upstream's reason (or says it had none).
 */
export function mergeState(stored: TaskState, reported: TaskState, emptyReason: string): TaskState | undefined {
  if (isEarlierState(stored.status, reported.status)) return undefined;
  const status = Object.hasOwn(rank, reported.status) ? reported.status : TaskStatus.unknown;
  const next: TaskState = {
    status,
    progress: isFinished(status) ? finishedProgress : laterProgress(stored.progress, reported.progress),
    failReason: status === TaskStatus.failure ? reported.failReason || stored.failReason || emptyReason : stored.failReason,
  };
  const same = next.status === stored.status && next.progress === stored.progress && next.failReason === stored.failReason;
  return same ? undefined : next;
}

// Why the gateway itself ended a task (stored as the task's fail reason, like the upstream's).
export const noFailReason = "上游未说明失败原因"; // i18n-exempt: stored as data
export const channelGoneReason = "渠道不存在"; // i18n-exempt: stored as data
export const noTaskIdReason = "上游未返回任务 ID"; // i18n-exempt: stored as data
export const timeoutReason = (seconds: number) => `上游任务超时（超过 ${seconds} 秒）`; // i18n-exempt: stored as data
