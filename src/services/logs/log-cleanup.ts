// Removing log entries: DELETE /api/log/?target_timestamp= (every entry older than a moment) and
// the error entries' retention (ErrorLogRetentionDays), in bounded batches so the relay's log
// writes are never held up behind one long delete.
import { and, eq, inArray, lt } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { optionNumber } from "../options/options.ts";
import { LogType } from "./log-types.ts";

const batchSize = 5000;

async function deleteInBatches(before: number, type?: number): Promise<number> {
  const older = lt(t.logs.created_at, before);
  const where = type === undefined ? older : and(eq(t.logs.type, type), older);
  let deleted = 0;
  for (;;) {
    const batch = await db.select({ id: t.logs.id }).from(t.logs).where(where).limit(batchSize);
    if (batch.length === 0) return deleted;
    await db.delete(t.logs).where(
      inArray(
        t.logs.id,
        batch.map((row) => row.id),
      ),
    );
    deleted += batch.length;
  }
}

export async function deleteLogsBefore(targetTimestamp: unknown, actor: AuditActor): Promise<number> {
  const target = Number(targetTimestamp);
  if (targetTimestamp === undefined || targetTimestamp === "" || !Number.isInteger(target) || target <= 0) {
    throw invalid("请选择日志记录时间");
  }
  // Batches are separate statements (the relay keeps writing meanwhile); the entry follows them.
  const deleted = await deleteInBatches(target);
  await recordAudit(actor, {
    action: "log.delete",
    targetType: "log",
    changes: [
      { field: "before_timestamp", after: target },
      { field: "count", before: deleted },
    ],
  });
  return deleted;
}

/** Error entries older than ErrorLogRetentionDays (0 keeps them); the number removed. */
export function deleteExpiredErrorLogs(): Promise<number> {
  const days = optionNumber("ErrorLogRetentionDays");
  if (days <= 0) return Promise.resolve(0);
  return deleteInBatches(nowSeconds() - days * 86_400, LogType.error);
}
