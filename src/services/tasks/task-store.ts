// One store helper for both kinds of task the gateway follows (tasks: drawing or music). Each
// kind describes its table once (drawing-tasks.ts, music-tasks.ts): which table, which column
// holds the upstream's id, its clock, and what an upstream report changes. Recording a
// submission, reading a caller's tasks, listing them, and applying reports are written here once.
//
// Every change of state is a conditional update on the state that was read, so two instances
// (or the poller and a callback) can never move a task backwards or apply the same change twice.
// Unfinished means a status that is not final, whatever the progress says: an upstream may
// report 100% long before it reports the end, or never report the end at all.
import { and, desc, eq, gt, gte, inArray, lt, lte, ne, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { nowMs } from "../../clock.ts";
import { db } from "../../store/client.ts";
import { countRows } from "../../store/dialect.ts";
import { finishedProgress, isEarlierState, isFinished, mergeState, noFailReason, TaskStatus, type TaskState } from "./task-states.ts";

export type TaskKind = "drawing" | "music";

/** The columns both task tables have, read alike. */
export type TaskRowBase = {
  id: number;
  user_id: number;
  channel_id: number;
  /** The key of a multi-key channel that took the task; -1: the channel's own. */
  key_index: number;
  token_id: number;
  status: string;
  progress: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  quota: number;
  request_id: string;
  refunded: boolean;
};

/** Who reads: a user sees their own tasks, an admin every task. */
export type TaskReader = { userId: number; admin: boolean };

/** A list's filter; times in the kind's own clock (see TaskSpec.clockMs). */
export type TaskFilter = { userId?: number; channelId: number; upstreamId?: string; from: number; to: number };

export type TaskColumns = Record<
  "id" | "upstreamId" | "userId" | "channelId" | "status" | "progress" | "failReason" | "submitTime" | "refunded" | "requestId" | "quota",
  SQLiteColumn
>;

export type TaskSpec<Row extends TaskRowBase, New, Report> = {
  kind: TaskKind;
  /** The table (a function: the store's tables exist once it is open). */
  table(): SQLiteTable;
  columns(): TaskColumns;
  /** Milliseconds per unit of the table's times: 1 for drawings, 1000 for music. */
  clockMs: number;
  upstreamIdOf(row: Row): string;
  /** The state a report describes, as text (anything missing reads as ""). */
  reportedState(report: Report): TaskState;
  /** The columns a report changes besides the state, each within what a task keeps. */
  reportedDetails(row: Row, report: Report): Partial<New>;
  /** Written with every insert and change (music keeps created_at and updated_at). */
  stamp?(now: number, inserted: boolean): Partial<New>;
  /**
   * The rows of the table this kind's upstream knows (music: Suno's platform), which the poller
   * follows and the relay's reads answer; lists, timeouts and refunds take every row.
   */
  ownRows?(): SQL | undefined;
};

export type TaskStore<Row extends TaskRowBase, New, Report> = ReturnType<typeof createTaskStore<Row, New, Report>>;

const finalStatuses = sql.raw(`('${TaskStatus.success}', '${TaskStatus.failure}')`);

export function createTaskStore<Row extends TaskRowBase, New, Report>(spec: TaskSpec<Row, New, Report>) {
  // drizzle's builders are typed per table; the two tables share the columns used here, so the
  // queries are written once against the spec's table and their rows typed as the kind's.
  const table = () => spec.table();
  const c = spec.columns;
  const now = () => Math.floor(nowMs() / spec.clockMs);
  const select = () => db.select().from(table());
  const readable = (reader: TaskReader): SQL | undefined => (reader.admin ? undefined : eq(c().userId, reader.userId));
  /** Not final: picked by status, never by progress (a literal list, which the partial index matches). */
  const unfinished = () => sql`${c().status} not in ${finalStatuses}`;

  async function conditionalUpdate(row: Row, changes: Partial<New>): Promise<Row | undefined> {
    const [updated] = await db
      .update(table())
      .set({ ...changes, ...spec.stamp?.(now(), false) } as never)
      .where(and(eq(c().id, row.id), eq(c().status, row.status), eq(c().progress, row.progress)))
      .returning();
    return updated as Row | undefined;
  }

  return {
    kind: spec.kind,
    table,
    columns: spec.columns,
    clockMs: spec.clockMs,
    now,
    upstreamIdOf: spec.upstreamIdOf,

    async insert(values: New): Promise<Row> {
      const [row] = await db
        .insert(table())
        .values({ ...spec.stamp?.(now(), true), ...values } as never)
        .returning();
      return row as Row;
    },

    async setQuota(id: number, quota: number): Promise<void> {
      await db
        .update(table())
        .set({ quota } as never)
        .where(eq(c().id, id));
    },

    /** The reader's newest task with this upstream id. */
    async find(upstreamId: string, reader: TaskReader): Promise<Row | undefined> {
      if (!upstreamId) return undefined;
      const [row] = await select()
        .where(and(eq(c().upstreamId, upstreamId), readable(reader), spec.ownRows?.()))
        .orderBy(desc(c().id))
        .limit(1);
      return row as Row | undefined;
    },

    /** The reader's newest task of each upstream id (at most 100 ids). */
    async findMany(upstreamIds: string[], reader: TaskReader): Promise<Row[]> {
      const ids = [...new Set(upstreamIds.filter((id) => typeof id === "string" && id !== ""))].slice(0, 100);
      if (ids.length === 0) return [];
      const rows = (await select()
        .where(and(inArray(c().upstreamId, ids), readable(reader), spec.ownRows?.()))
        .orderBy(desc(c().id))) as Row[];
      const seen = new Set<string>();
      return rows.filter((row) => !seen.has(spec.upstreamIdOf(row)) && seen.add(spec.upstreamIdOf(row)));
    },

    async findById(id: number): Promise<Row | undefined> {
      const [row] = await select().where(eq(c().id, id)).limit(1);
      return row as Row | undefined;
    },

    /** Tasks the poller still has to follow, oldest first. */
    unfinished(limit: number): Promise<Row[]> {
      return select().where(and(unfinished(), spec.ownRows?.())).orderBy(c().id).limit(limit) as Promise<Row[]>;
    },

    /** Unfinished tasks submitted before `deadline` (the kind's clock): every row, followed or not. */
    unfinishedBefore(deadline: number, limit: number): Promise<Row[]> {
      return select()
        .where(and(unfinished(), lt(c().submitTime, deadline)))
        .orderBy(c().id)
        .limit(limit) as Promise<Row[]>;
    },

    /** Failed tasks whose charge was not refunded yet (a crash between failing and refunding). */
    unrefundedFailures(limit: number): Promise<Row[]> {
      return select()
        .where(and(eq(c().status, TaskStatus.failure), eq(c().refunded, false), ne(c().requestId, ""), gt(c().quota, 0)))
        .limit(limit) as Promise<Row[]>;
    },

    /**
     * Applies an upstream report. Returns the updated row, or undefined when the report changes
     * nothing, would move the task backwards, or lost a race with another writer.
     */
    async applyReport(row: Row, report: Report): Promise<Row | undefined> {
      const reported = spec.reportedState(report);
      if (isEarlierState(row.status, reported.status)) return undefined;
      const state = mergeState({ status: row.status, progress: row.progress, failReason: row.fail_reason }, reported, noFailReason);
      const changes: Partial<TaskRowBase> & Partial<New> = { ...spec.reportedDetails(row, report) };
      if (state) Object.assign(changes, { status: state.status, progress: state.progress, fail_reason: state.failReason });
      if (Object.keys(changes).length === 0) return undefined;
      if (state && isFinished(state.status) && !changes.finish_time && !row.finish_time) changes.finish_time = now();
      return conditionalUpdate(row, changes as Partial<New>);
    },

    /** Ends a task as failed (no upstream id, timed out, channel gone); undefined if it already ended. */
    fail(row: Row, reason: string): Promise<Row | undefined> {
      if (isFinished(row.status)) return Promise.resolve(undefined);
      const changes = { status: TaskStatus.failure, progress: finishedProgress, fail_reason: reason, finish_time: now() };
      return conditionalUpdate(row, changes as unknown as Partial<New>);
    },

    /** One page of tasks, newest first, with the total. */
    async list(filter: TaskFilter, paging: { offset: number; limit: number }): Promise<{ items: Row[]; total: number }> {
      const where = and(
        filter.userId !== undefined ? eq(c().userId, filter.userId) : undefined,
        filter.channelId ? eq(c().channelId, filter.channelId) : undefined,
        filter.upstreamId ? eq(c().upstreamId, filter.upstreamId) : undefined,
        filter.from ? gte(c().submitTime, filter.from) : undefined,
        filter.to ? lte(c().submitTime, filter.to) : undefined,
      );
      const [items, [counted]] = await Promise.all([
        select().where(where).orderBy(desc(c().id)).limit(paging.limit).offset(paging.offset),
        db.select({ count: countRows() }).from(table()).where(where),
      ]);
      return { items: items as Row[], total: Number(counted?.count ?? 0) };
    },
  };
}
