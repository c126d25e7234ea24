// The list filters of /api/mj and /api/task and of the /midjourney and /task pages, read
// from query values: the upstream task id (mj_id for drawings, task_id for music) and the time
// range for everyone, the channel for admins; a user's lists are always their own. Drawings are
// timed in milliseconds (as midjourney-proxy does), music in seconds; a bound given in the other
// unit is converted, so clients of either convention get what they meant.
import type { TaskFilter, TaskKind, TaskReader } from "./task-store.ts";

type Query = Record<string, string | undefined>;

/** The query field that names a task's upstream id, per kind. */
export const upstreamIdField: Record<TaskKind, string> = { drawing: "mj_id", music: "task_id" };

function integer(value: string | undefined): number {
  const number = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isSafeInteger(number) && number > 0 ? number : 0;
}

/** Milliseconds are 13 digits today; anything below 10^11 is read as seconds. */
const asMilliseconds = (value: number) => (value > 0 && value < 1e11 ? value * 1000 : value);
const asSeconds = (value: number) => (value >= 1e11 ? Math.floor(value / 1000) : value);

const text = (value: string | undefined) => value?.trim() || undefined;

export function taskFilterFromQuery(kind: TaskKind, query: Query, reader: TaskReader): TaskFilter {
  const inClock = kind === "drawing" ? asMilliseconds : asSeconds;
  return {
    userId: reader.admin ? undefined : reader.userId,
    channelId: reader.admin ? integer(query.channel_id) : 0,
    upstreamId: text(query[upstreamIdField[kind]]),
    from: inClock(integer(query.start_timestamp)),
    to: inClock(integer(query.end_timestamp)),
  };
}
