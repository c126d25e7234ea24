// DELETE /api/log/?target_timestamp=: removes entries older than a moment, in bounded batches
// so the relay's log writes are never held up behind one long delete.
import { inArray, lt } from "drizzle-orm";
import { invalid } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";

const batchSize = 5000;

export async function deleteLogsBefore(targetTimestamp: unknown): Promise<number> {
  const target = Number(targetTimestamp);
  if (targetTimestamp === undefined || targetTimestamp === "" || !Number.isInteger(target) || target <= 0) {
    throw invalid("请选择日志记录时间");
  }
  let deleted = 0;
  for (;;) {
    const batch = await db.select({ id: t.logs.id }).from(t.logs).where(lt(t.logs.created_at, target)).limit(batchSize);
    if (batch.length === 0) return deleted;
    await db.delete(t.logs).where(inArray(t.logs.id, batch.map((row) => row.id)));
    deleted += batch.length;
  }
}
