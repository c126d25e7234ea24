// Drawing tasks (the midjourneys table): recording a submission, reading a caller's tasks, and
// applying what the upstream reports. Every change of state is a conditional update on the state
// that was read, so two instances (or the poller and a callback) can never move a task
// backwards or apply the same change twice.
import { and, desc, eq, gt, gte, inArray, lte, ne, type SQL } from "drizzle-orm";
import { nowMs } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { countRows } from "../../store/dialect.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { finishedProgress, isEarlierState, isFinished, mergeState, noFailReason, TaskStatus } from "./task-states.ts";

export type DrawingRow = Tables["midjourneys"]["$inferSelect"];
export type NewDrawing = Tables["midjourneys"]["$inferInsert"];

/** A task as midjourney-proxy describes it (fetch, list-by-condition, notify callbacks). */
export type UpstreamDrawing = {
  id?: unknown;
  action?: unknown;
  prompt?: unknown;
  promptEn?: unknown;
  description?: unknown;
  state?: unknown;
  submitTime?: unknown;
  startTime?: unknown;
  finishTime?: unknown;
  imageUrl?: unknown;
  status?: unknown;
  progress?: unknown;
  failReason?: unknown;
  properties?: unknown;
  buttons?: unknown;
};

/** Who reads: a user sees their own tasks, an admin every task. */
export type TaskReader = { userId: number; admin: boolean };

export async function insertDrawing(values: NewDrawing): Promise<DrawingRow> {
  const [row] = await db.insert(t.midjourneys).values(values).returning();
  return row!;
}

export async function setDrawingQuota(id: number, quota: number): Promise<void> {
  await db.update(t.midjourneys).set({ quota }).where(eq(t.midjourneys.id, id));
}

const readable = (reader: TaskReader): SQL | undefined => (reader.admin ? undefined : eq(t.midjourneys.user_id, reader.userId));

/** The caller's newest task with this upstream id. */
export async function findDrawing(mjId: string, reader: TaskReader): Promise<DrawingRow | undefined> {
  if (!mjId) return undefined;
  const [row] = await db
    .select()
    .from(t.midjourneys)
    .where(and(eq(t.midjourneys.mj_id, mjId), readable(reader)))
    .orderBy(desc(t.midjourneys.id))
    .limit(1);
  return row;
}

export async function findDrawings(mjIds: string[], reader: TaskReader): Promise<DrawingRow[]> {
  const ids = [...new Set(mjIds.filter((id) => typeof id === "string" && id !== ""))].slice(0, 100);
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(t.midjourneys)
    .where(and(inArray(t.midjourneys.mj_id, ids), readable(reader)))
    .orderBy(desc(t.midjourneys.id));
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.mj_id) && seen.add(row.mj_id));
}

export async function findDrawingById(id: number): Promise<DrawingRow | undefined> {
  const [row] = await db.select().from(t.midjourneys).where(eq(t.midjourneys.id, id)).limit(1);
  return row;
}

/** Every stored task with this upstream id on one channel (callbacks may only touch those). */
export function findDrawingsOfChannel(mjId: string, channelId: number): Promise<DrawingRow[]> {
  if (!mjId) return Promise.resolve([]);
  return db.select().from(t.midjourneys).where(and(eq(t.midjourneys.mj_id, mjId), eq(t.midjourneys.channel_id, channelId)));
}

/** The stored image address of a task (any user's: /mj/image serves it to whoever has the id). */
export async function findDrawingImageUrl(mjId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ image_url: t.midjourneys.image_url })
    .from(t.midjourneys)
    .where(and(eq(t.midjourneys.mj_id, mjId), ne(t.midjourneys.image_url, "")))
    .orderBy(desc(t.midjourneys.id))
    .limit(1);
  return row?.image_url;
}

/** Tasks the poller still has to follow, oldest first. */
export function unfinishedDrawings(limit: number): Promise<DrawingRow[]> {
  return db.select().from(t.midjourneys).where(ne(t.midjourneys.progress, finishedProgress)).orderBy(t.midjourneys.id).limit(limit);
}

/** Failed tasks whose charge was not refunded yet (a crash between failing and refunding). */
export function unrefundedDrawingFailures(limit: number): Promise<DrawingRow[]> {
  return db
    .select()
    .from(t.midjourneys)
    .where(
      and(eq(t.midjourneys.status, TaskStatus.failure), eq(t.midjourneys.refunded, false), ne(t.midjourneys.request_id, ""), gt(t.midjourneys.quota, 0)),
    )
    .limit(limit);
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const millis = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;
const json = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : JSON.stringify(value));

/** The columns an upstream report changes, without the state (see applyDrawingReport). */
function reportedDetails(row: DrawingRow, report: UpstreamDrawing): Partial<NewDrawing> {
  const candidates: Partial<NewDrawing> = {
    prompt_en: text(report.promptEn),
    description: text(report.description),
    start_time: millis(report.startTime),
    finish_time: millis(report.finishTime),
    image_url: text(report.imageUrl),
    buttons: json(report.buttons),
    properties: json(report.properties),
  };
  const changes: Partial<NewDrawing> = {};
  for (const [key, value] of Object.entries(candidates) as [keyof NewDrawing, unknown][]) {
    if (value !== undefined && value !== row[key as keyof DrawingRow]) (changes as Record<string, unknown>)[key] = value;
  }
  return changes;
}

/**
 * Applies an upstream report to a stored task. Returns the updated row, or undefined when the
 * report changes nothing, would move the task backwards, or lost a race with another writer.
 */
export async function applyDrawingReport(row: DrawingRow, report: UpstreamDrawing): Promise<DrawingRow | undefined> {
  if (isEarlierState(row.status, text(report.status) ?? "")) return undefined;
  const state = mergeState(
    { status: row.status, progress: row.progress, failReason: row.fail_reason },
    { status: text(report.status) ?? "", progress: text(report.progress) ?? "", failReason: text(report.failReason) ?? "" },
    noFailReason,
  );
  const details = reportedDetails(row, report);
  if (!state && Object.keys(details).length === 0) return undefined;
  const changes: Partial<NewDrawing> = { ...details, ...(state ? { status: state.status, progress: state.progress, fail_reason: state.failReason } : {}) };
  if (state && isFinished(state.status) && !changes.finish_time && !row.finish_time) changes.finish_time = nowMs();
  return conditionalUpdate(row, changes);
}

/** Ends a task as failed (no upstream id, timed out, channel gone); undefined if it already ended. */
export function failDrawing(row: DrawingRow, reason: string): Promise<DrawingRow | undefined> {
  if (isFinished(row.status)) return Promise.resolve(undefined);
  return conditionalUpdate(row, { status: TaskStatus.failure, progress: finishedProgress, fail_reason: reason, finish_time: nowMs() });
}

async function conditionalUpdate(row: DrawingRow, changes: Partial<NewDrawing>): Promise<DrawingRow | undefined> {
  const [updated] = await db
    .update(t.midjourneys)
    .set(changes)
    .where(and(eq(t.midjourneys.id, row.id), eq(t.midjourneys.status, row.status), eq(t.midjourneys.progress, row.progress)))
    .returning();
  return updated;
}

export type DrawingFilter = { userId?: number; channelId?: number; mjId?: string; startMs?: number; endMs?: number };

function conditions(filter: DrawingFilter): SQL | undefined {
  return and(
    filter.userId !== undefined ? eq(t.midjourneys.user_id, filter.userId) : undefined,
    filter.channelId ? eq(t.midjourneys.channel_id, filter.channelId) : undefined,
    filter.mjId ? eq(t.midjourneys.mj_id, filter.mjId) : undefined,
    filter.startMs ? gte(t.midjourneys.submit_time, filter.startMs) : undefined,
    filter.endMs ? lte(t.midjourneys.submit_time, filter.endMs) : undefined,
  );
}

/** One page of tasks, newest first, with the total. */
export async function listDrawings(filter: DrawingFilter, paging: { offset: number; limit: number }): Promise<{ items: DrawingRow[]; total: number }> {
  const where = conditions(filter);
  const [items, [counted]] = await Promise.all([
    db.select().from(t.midjourneys).where(where).orderBy(desc(t.midjourneys.id)).limit(paging.limit).offset(paging.offset),
    db.select({ count: countRows() }).from(t.midjourneys).where(where),
  ]);
  return { items, total: Number(counted?.count ?? 0) };
}
