// Refunding a failed task (failed upstream, or unfinished past TASK_TIMEOUT): exactly once, to
// the user and the token that paid, in one transaction with its log entry.
//
// The task is marked refunded only if it was not yet (a conditional update), so two instances,
// the poller and a callback, or a retry after a crash refund at most once. The amount is the
// task's consumption log (found by the request id of its charge), not the row's own quota: a
// task whose charge never settled (its hold was released) refunds nothing.
//
// The submission records the task row before its charge settles (so a crash in between costs
// the user nothing). A task can fail upstream in that moment; its refund then finds no charge
// yet. It is left unrefunded while the row still says it was charged and the settlement can
// still be under way (settlementGrace after submission); the sweep of unrefunded failures
// (relay/tasks/task-poller.ts) comes back to it once the charge is there. A failed settlement sets
// the row's quota to 0, and a settlement lost in a crash never comes: both end as refunded with
// nothing to give back.
//
// Balances and the reservation book (services/billing): a refund lowers used quota, the
// version a balance snapshot carries. Once committed, the book is told (refunded), and lowers
// the versions of the charges it remembers by as much, so the refunded quota can be reserved at
// once; a snapshot read before the refund can miss at most the refund's worth of charges, which
// it also lacks, so the book never admits more than the store holds.
//
// The refund reverses the charge: the user's quota comes back and their used quota goes down by
// the same amount (so quota + used quota is unchanged, and used quota = consumption logs minus
// refund logs), likewise the token's remaining and used quota and the channel's used quota. The
// request count stays: the request was made. A token with a period budget also gets the charge
// back in its period's sum, when the charge fell in the current period and the sum still counts
// that period (a period since started over never counted it). The log entry is a system entry (type 4) carrying
// the amount, with other.refund = true and the charge's request id.
import { and, eq, sql } from "drizzle-orm";
import { nowMs, nowSeconds } from "../../clock.ts";
import { t, transact, type Db } from "../../store/client.ts";
import { run, type Query } from "../../store/transact.ts";
import { announceChange } from "../change-notices.ts";
import { logger } from "../../logger.ts";
import { reservationBook } from "../billing/reservation-book.ts";
import { LogType } from "../logs/log-types.ts";
import { formatQuota } from "../pricing/quota-format.ts";
import { periodStartOf } from "../tokens/quota-period.ts";
import { TaskStatus } from "./task-states.ts";
import type { TaskKind, TaskRowBase, TaskStore } from "./task-store.ts";

type Refunded = { quota: number; tokenKey?: string; userId?: number; tokenId?: number };

function* refundCharge(tx: Db, requestId: string, content: string, taskId: string): Generator<Query, Refunded, unknown> {
  if (!requestId) return { quota: 0 };
  const [charge] = yield* run(
    tx
      .select()
      .from(t.logs)
      .where(and(eq(t.logs.request_id, requestId), eq(t.logs.type, LogType.consume)))
      .limit(1),
  );
  const quota = Number(charge?.quota ?? 0);
  if (!charge || !(quota > 0)) return { quota: 0 };
  yield* run(
    tx
      .update(t.users)
      .set({ quota: sql`${t.users.quota} + ${quota}`, used_quota: sql`${t.users.used_quota} - ${quota}` })
      .where(eq(t.users.id, charge.user_id)),
  );
  let tokenKey: string | undefined;
  if (charge.token_id) {
    const chargePeriod = yield* currentPeriodOfCharge(tx, charge.token_id, Number(charge.created_at));
    const [token] = yield* run(
      tx
        .update(t.tokens)
        .set({
          remain_quota: sql`case when ${t.tokens.unlimited_quota} then ${t.tokens.remain_quota} else ${t.tokens.remain_quota} + ${quota} end`,
          used_quota: sql`${t.tokens.used_quota} - ${quota}`,
          // An exhausted token that has quota again is usable again (status 4 -> 1).
          status: sql`case when ${t.tokens.status} = 4 and ${t.tokens.remain_quota} + ${quota} > 0 then 1 else ${t.tokens.status} end`,
          ...(chargePeriod ? { period_used_quota: periodSumLess(quota, chargePeriod) } : {}),
        })
        .where(eq(t.tokens.id, charge.token_id))
        .returning({ key: t.tokens.key }),
    );
    tokenKey = token?.key;
  }
  if (charge.channel_id) {
    yield* run(
      tx
        .update(t.channels)
        .set({ used_quota: sql`${t.channels.used_quota} - ${quota}` })
        .where(eq(t.channels.id, charge.channel_id)),
    );
  }
  yield* run(
    tx.insert(t.logs).values({
      user_id: charge.user_id,
      username: charge.username,
      created_at: nowSeconds(),
      type: LogType.system,
      content: `${content}，补偿 ${formatQuota(quota)}`, // i18n-exempt: stored log text
      token_id: charge.token_id,
      token_name: charge.token_name,
      model_name: charge.model_name,
      quota,
      channel_id: charge.channel_id,
      channel_name: charge.channel_name,
      group: charge.group,
      other: JSON.stringify({ refund: true, refund_of: requestId, task_id: taskId }),
      // Unique like every request id: a second refund of the same charge could not commit.
      request_id: `refund:${requestId}`,
    }),
  );
  return { quota, tokenKey, userId: charge.user_id, tokenId: charge.token_id ?? 0 };
}

/**
 * The start of the token's current period when the charge made at `chargedAt` (unix seconds)
 * fell in it; 0 when the token has no period budget or the charge belongs to an earlier period.
 */
function* currentPeriodOfCharge(tx: Db, tokenId: number, chargedAt: number): Generator<Query, number, unknown> {
  const [token] = yield* run(tx.select({ period: t.tokens.quota_period }).from(t.tokens).where(eq(t.tokens.id, tokenId)));
  if (!token?.period) return 0;
  const current = periodStartOf(token.period);
  return current && periodStartOf(token.period, chargedAt * 1000) === current ? current : 0;
}

/** The period's sum less the refund while it counts the period starting at `periodStart` (never below zero). */
const periodSumLess = (quota: number, periodStart: number) =>
  sql`case when ${t.tokens.period_start} <> ${periodStart} then ${t.tokens.period_used_quota} when ${t.tokens.period_used_quota} >= ${quota} then ${t.tokens.period_used_quota} - ${quota} else 0 end`;

const shortReason = (reason: string) => (reason.length > 200 ? `${reason.slice(0, 200)}…` : reason);

async function finish(refunded: Refunded): Promise<number> {
  if (refunded.quota > 0 && refunded.userId !== undefined) {
    // After the commit, never before: a refund rolled back must not move the book's versions.
    await reservationBook()
      .refunded({ userId: refunded.userId, tokenId: refunded.tokenId ?? 0, amount: refunded.quota })
      .catch((error) =>
        logger.warn("reservation book not told of a refund", { error: error instanceof Error ? error.message : String(error) }),
      );
  }
  if (refunded.tokenKey) await announceChange("tokens", refunded.tokenKey);
  return refunded.quota;
}

/** How long after its submission a task's charge may still be settling (a batch commit). */
export const settlementGraceMs = 10 * 60 * 1000;

/** The refundable facts of a failed task row; undefined when it is refunded already or not failed. */
type FailedTask = { requestId: string; quota: number; submittedAtMs: number; taskId: string; reason: string };

function* chargeSettled(tx: Db, requestId: string): Generator<Query, boolean, unknown> {
  const [charge] = yield* run(
    tx
      .select({ id: t.logs.id })
      .from(t.logs)
      .where(and(eq(t.logs.request_id, requestId), eq(t.logs.type, LogType.consume)))
      .limit(1),
  );
  return charge !== undefined;
}

/** True while the task's charge may still be on its way to the store: try again later. */
function* settlementPending(tx: Db, task: FailedTask): Generator<Query, boolean, unknown> {
  if (!task.requestId || !(task.quota > 0)) return false;
  if (nowMs() - task.submittedAtMs >= settlementGraceMs) return false;
  return !(yield* chargeSettled(tx, task.requestId));
}

/** The words of a refund's log entry, per kind. */
const failedWords: Record<TaskKind, string> = {
  drawing: "构图失败", // i18n-exempt: stored log text
  music: "异步任务执行失败", // i18n-exempt: stored log text
};

/** A task store, as far as a refund needs it. */
type RefundableTasks = Pick<TaskStore<TaskRowBase, unknown, unknown>, "kind" | "table" | "columns" | "clockMs">;

/** Refunds a failed task once; the amount refunded (0 when already done or nothing was charged). */
export async function refundTask(tasks: RefundableTasks, id: number): Promise<number> {
  const table = tasks.table();
  const c = tasks.columns();
  const refunded = await transact(function* (tx) {
    const open = and(eq(c.id, id), eq(c.refunded, false), eq(c.status, TaskStatus.failure));
    const [found] = yield* run(
      tx
        .select({ requestId: c.requestId, quota: c.quota, submitted: c.submitTime, taskId: c.upstreamId, reason: c.failReason })
        .from(table)
        .where(open),
    );
    if (!found) return { quota: 0 };
    const task: FailedTask = {
      requestId: String(found.requestId),
      quota: Number(found.quota),
      submittedAtMs: Number(found.submitted) * tasks.clockMs,
      taskId: String(found.taskId),
      reason: String(found.reason),
    };
    if (yield* settlementPending(tx, task)) return { quota: 0 };
    const [marked] = yield* run(
      tx
        .update(table)
        .set({ refunded: true } as never)
        .where(open)
        .returning({ id: c.id }),
    );
    if (!marked) return { quota: 0 };
    const content = `${failedWords[tasks.kind]} ${task.taskId}（${shortReason(task.reason)}）`; // i18n-exempt: stored log text
    return yield* refundCharge(tx, task.requestId, content, task.taskId);
  });
  return finish(refunded);
}
