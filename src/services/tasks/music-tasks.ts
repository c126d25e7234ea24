// Music tasks (Suno): the tasks table (new-api's asynchronous tasks, platform "suno"), timed in
// unix seconds, the upstream's id in task_id. What a report changes besides the state: its times
// and its data (the clips, or the lyrics), within what a task keeps (task-keep.ts).
import { eq } from "drizzle-orm";
import { t } from "../../store/client.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { keptJson, keptText } from "./task-keep.ts";
import { createTaskStore } from "./task-store.ts";

export type MusicRow = Tables["tasks"]["$inferSelect"];
export type NewMusic = Tables["tasks"]["$inferInsert"];

/** The platform of Suno's rows in the tasks table. */
export const sunoPlatform = "suno";

/** A task as the Suno API proxies describe it (/suno/fetch). Times are unix seconds. */
export type UpstreamMusic = {
  task_id?: unknown;
  action?: unknown;
  status?: unknown;
  fail_reason?: unknown;
  submit_time?: unknown;
  start_time?: unknown;
  finish_time?: unknown;
  progress?: unknown;
  data?: unknown;
};

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const seconds = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;

export const music = createTaskStore<MusicRow, NewMusic, UpstreamMusic>({
  kind: "music",
  table: () => t.tasks,
  columns: () => ({
    id: t.tasks.id,
    upstreamId: t.tasks.task_id,
    userId: t.tasks.user_id,
    channelId: t.tasks.channel_id,
    status: t.tasks.status,
    progress: t.tasks.progress,
    failReason: t.tasks.fail_reason,
    submitTime: t.tasks.submit_time,
    refunded: t.tasks.refunded,
    requestId: t.tasks.request_id,
    quota: t.tasks.quota,
  }),
  clockMs: 1000,
  upstreamIdOf: (row) => row.task_id,
  ownRows: () => eq(t.tasks.platform, sunoPlatform),
  reportedState: (report) => ({
    status: text(report.status),
    progress: text(report.progress).slice(0, 20),
    failReason: keptText(report.fail_reason) ?? "",
  }),
  reportedDetails(row, report) {
    const changes: Partial<NewMusic> = {};
    const data = keptJson(report.data);
    if (data !== undefined && data !== row.data) changes.data = data;
    const start = seconds(report.start_time);
    if (start !== undefined && start !== row.start_time) changes.start_time = start;
    const finish = seconds(report.finish_time);
    if (finish !== undefined && finish !== row.finish_time) changes.finish_time = finish;
    return changes;
  },
  stamp: (now, inserted) => (inserted ? { created_at: now, updated_at: now } : { updated_at: now }),
});
