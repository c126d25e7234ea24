// Asynchronous tasks (the tasks table; Suno music and lyrics today): recording a submission,
// reading a caller's tasks, and applying what the upstream reports, with the same conditional
// updates as drawings (drawing-store.ts) so a task never moves backwards or changes twice.
import { and, desc, eq, gt, gte, inArray, lte, ne, type SQL } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { countRows } from "../../store/dialect.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import type { TaskReader } from "./drawing-store.ts";
import { finishedProgress, isEarlierState, isFinished, mergeState, noFailReason, TaskStatus } from "./task-states.ts";

export type AsyncTaskRow = Tables["tasks"]["$inferSelect"];
export type NewAsyncTask = Tables["tasks"]["$inferInsert"];

/** A task as the Suno API proxies describe it (/suno/fetch). Times are unix seconds. */
export type UpstreamTask = {
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

export async function insertAsyncTask(values: NewAsyncTask): Promise<AsyncTaskRow> {
  const now = nowSeconds();
  const [row] = await db.insert(t.tasks).values({ created_at: now, updated_at: now, ...values }).returning();
  return row!;
}

export async function setAsyncTaskQuota(id: number, quota: number): Promise<void> {
  await db.update(t.tasks).set({ quota }).where(eq(t.tasks.id, id));
}

const readable = (reader: TaskReader): SQL | undefined => (reader.admin ? undefined : eq(t.tasks.user_id, reader.userId));

export async function findAsyncTask(taskId: string, reader: TaskReader, platform?: string): Promise<AsyncTaskRow | undefined> {
  if (!taskId) return undefined;
  const [row] = await db
    .select()
    .from(t.tasks)
    .where(and(eq(t.tasks.task_id, taskId), readable(reader), platform ? eq(t.tasks.platform, platform) : undefined))
    .orderBy(desc(t.tasks.id))
    .limit(1);
  return row;
}

export async function findAsyncTasks(taskIds: string[], reader: TaskReader, platform?: string): Promise<AsyncTaskRow[]> {
  const ids = [...new Set(taskIds.filter((id) => typeof id === "string" && id !== ""))].slice(0, 100);
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(t.tasks)
    .where(and(inArray(t.tasks.task_id, ids), readable(reader), platform ? eq(t.tasks.platform, platform) : undefined))
    .orderBy(desc(t.tasks.id));
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.task_id) && seen.add(row.task_id));
}

export async function findAsyncTaskById(id: number): Promise<AsyncTaskRow | undefined> {
  const [row] = await db.select().from(t.tasks).where(eq(t.tasks.id, id)).limit(1);
  return row;
}

export function unfinishedAsyncTasks(platform: string, limit: number): Promise<AsyncTaskRow[]> {
  return db
    .select()
    .from(t.tasks)
    .where(and(eq(t.tasks.platform, platform), ne(t.tasks.progress, finishedProgress)))
    .orderBy(t.tasks.id)
    .limit(limit);
}

export function unrefundedAsyncTaskFailures(limit: number): Promise<AsyncTaskRow[]> {
  return db
    .select()
    .from(t.tasks)
    .where(and(eq(t.tasks.status, TaskStatus.failure), eq(t.tasks.refunded, false), ne(t.tasks.request_id, ""), gt(t.tasks.quota, 0)))
    .limit(limit);
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const seconds = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;

/** Applies an upstream report; undefined when it changes nothing, is stale, or lost a race. */
export async function applyAsyncTaskReport(row: AsyncTaskRow, report: UpstreamTask): Promise<AsyncTaskRow | undefined> {
  const reportedStatus = text(report.status) ?? "";
  if (isEarlierState(row.status, reportedStatus)) return undefined;
  const state = mergeState(
    { status: row.status, progress: row.progress, failReason: row.fail_reason },
    { status: reportedStatus, progress: text(report.progress) ?? "", failReason: text(report.fail_reason) ?? "" },
    noFailReason,
  );
  const changes: Partial<NewAsyncTask> = {};
  const data = report.data === undefined || report.data === null ? undefined : JSON.stringify(report.data);
  if (data !== undefined && data !== row.data) changes.data = data;
  const start = seconds(report.start_time);
  if (start !== undefined && start !== row.start_time) changes.start_time = start;
  const finish = seconds(report.finish_time);
  if (finish !== undefined && finish !== row.finish_time) changes.finish_time = finish;
  if (state) Object.assign(changes, { status: state.status, progress: state.progress, fail_reason: state.failReason });
  if (Object.keys(changes).length === 0) return undefined;
  if (state && isFinished(state.status) && !changes.finish_time && !row.finish_time) changes.finish_time = nowSeconds();
  return conditionalUpdate(row, changes);
}

export function failAsyncTask(row: AsyncTaskRow, reason: string): Promise<AsyncTaskRow | undefined> {
  if (isFinished(row.status)) return Promise.resolve(undefined);
  return conditionalUpdate(row, { status: TaskStatus.failure, progress: finishedProgress, fail_reason: reason, finish_time: nowSeconds() });
}

async function conditionalUpdate(row: AsyncTaskRow, changes: Partial<NewAsyncTask>): Promise<AsyncTaskRow | undefined> {
  const [updated] = await db
    .update(t.tasks)
    .set({ ...changes, updated_at: nowSeconds() })
    .where(and(eq(t.tasks.id, row.id), eq(t.tasks.status, row.status), eq(t.tasks.progress, row.progress)))
    .returning();
  return updated;
}

export type AsyncTaskFilter = { userId?: number; channelId?: number; taskId?: string; startSeconds?: number; endSeconds?: number };

function conditions(filter: AsyncTaskFilter): SQL | undefined {
  return and(
    filter.userId !== undefined ? eq(t.tasks.user_id, filter.userId) : undefined,
    filter.channelId ? eq(t.tasks.channel_id, filter.channelId) : undefined,
    filter.taskId ? eq(t.tasks.task_id, filter.taskId) : undefined,
    filter.startSeconds ? gte(t.tasks.submit_time, filter.startSeconds) : undefined,
    filter.endSeconds ? lte(t.tasks.submit_time, filter.endSeconds) : undefined,
  );
}

export async function listAsyncTasks(filter: AsyncTaskFilter, paging: { offset: number; limit: number }): Promise<{ items: AsyncTaskRow[]; total: number }> {
  const where = conditions(filter);
  const [items, [counted]] = await Promise.all([
    db.select().from(t.tasks).where(where).orderBy(desc(t.tasks.id)).limit(paging.limit).offset(paging.offset),
    db.select({ count: countRows() }).from(t.tasks).where(where),
  ]);
  return { items, total: Number(counted?.count ?? 0) };
}
