// The list filters of spec §7 (/api/mj, /api/task) and of the /midjourney and /task pages, read
// from query values: the upstream task id and the time range for everyone, the channel for
// admins; a user's lists are always their own. Drawings are timed in milliseconds (as
// midjourney-proxy does), other tasks in seconds; a bound given in the other unit is converted,
// so clients of either convention get what they meant.
import type { AsyncTaskFilter } from "./async-task-store.ts";
import type { DrawingFilter } from "./drawing-store.ts";

type Query = Record<string, string | undefined>;

function integer(value: string | undefined): number {
  const number = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isSafeInteger(number) && number > 0 ? number : 0;
}

/** Milliseconds are 13 digits today; anything below 10^11 is read as seconds. */
const asMilliseconds = (value: number) => (value > 0 && value < 1e11 ? value * 1000 : value);
const asSeconds = (value: number) => (value >= 1e11 ? Math.floor(value / 1000) : value);

const text = (value: string | undefined) => value?.trim() || undefined;

export function drawingFilterFromQuery(query: Query, reader: { userId: number; admin: boolean }): DrawingFilter {
  return {
    userId: reader.admin ? undefined : reader.userId,
    channelId: reader.admin ? integer(query.channel_id) : 0,
    mjId: text(query.mj_id),
    startMs: asMilliseconds(integer(query.start_timestamp)),
    endMs: asMilliseconds(integer(query.end_timestamp)),
  };
}

export function asyncTaskFilterFromQuery(query: Query, reader: { userId: number; admin: boolean }): AsyncTaskFilter {
  return {
    userId: reader.admin ? undefined : reader.userId,
    channelId: reader.admin ? integer(query.channel_id) : 0,
    taskId: text(query.task_id),
    startSeconds: asSeconds(integer(query.start_timestamp)),
    endSeconds: asSeconds(integer(query.end_timestamp)),
  };
}
