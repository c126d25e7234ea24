// The audit trail's only deletion: entries older than AuditRetentionDays (0 keeps them), in
// bounded batches, by the retention job (jobs/audit-retention.ts). No route deletes entries.
import { inArray, lt } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { optionNumber } from "../options/options.ts";

const batchSize = 5000;

export async function deleteExpiredAuditEntries(): Promise<number> {
  const days = optionNumber("AuditRetentionDays");
  if (days <= 0) return 0;
  const older = lt(t.audit_logs.created_at, nowSeconds() - days * 86_400);
  let deleted = 0;
  for (;;) {
    const batch = await db.select({ id: t.audit_logs.id }).from(t.audit_logs).where(older).limit(batchSize);
    if (batch.length === 0) return deleted;
    await db.delete(t.audit_logs).where(
      inArray(
        t.audit_logs.id,
        batch.map((row) => row.id),
      ),
    );
    deleted += batch.length;
  }
}
