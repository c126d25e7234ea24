// Reading the audit trail: GET /api/audit/ and the /audit page (admins and root), filtered by
// actor (id or name), action (exact, or an area such as "channel" for every channel.*) and time.
import { and, desc, eq, gte, lte, or, sql, type SQL } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { countRows, escapeLike } from "../../store/dialect.ts";
import { pageResult, type Page, type Paging } from "../paging.ts";
import type { AuditChange } from "./audit-changes.ts";

export type AuditFilter = { actor?: string; action?: string; startTimestamp?: number; endTimestamp?: number };

export type AuditView = {
  id: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  address: string;
  action: string;
  target_type: string;
  target_id: string;
  changes: AuditChange[];
};

type AuditRow = typeof t.audit_logs.$inferSelect;

const wholeSeconds = (value: unknown): number | undefined => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(number) && number > 0 ? Math.trunc(number) : undefined;
};

export function auditFilterFromQuery(query: Record<string, unknown>): AuditFilter {
  const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);
  return {
    actor: text(query.actor),
    action: text(query.action),
    startTimestamp: wholeSeconds(query.start_timestamp),
    endTimestamp: wholeSeconds(query.end_timestamp),
  };
}

function whereOf(filter: AuditFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  const { audit_logs: a } = t;
  if (filter.actor !== undefined) {
    const id = /^\d+$/.test(filter.actor) ? Number(filter.actor) : undefined;
    parts.push(id === undefined ? eq(a.actor_name, filter.actor) : or(eq(a.actor_id, id), eq(a.actor_name, filter.actor)));
  }
  if (filter.action !== undefined) {
    const area = `${escapeLike(filter.action)}.%`;
    parts.push(filter.action.includes(".") ? eq(a.action, filter.action) : sql`${a.action} like ${area} escape '\\'`);
  }
  if (filter.startTimestamp !== undefined) parts.push(gte(a.created_at, filter.startTimestamp));
  if (filter.endTimestamp !== undefined) parts.push(lte(a.created_at, filter.endTimestamp));
  return and(...parts);
}

function toAuditView(row: AuditRow): AuditView {
  let changes: AuditChange[] = [];
  try {
    changes = JSON.parse(row.changes) as AuditChange[];
  } catch {
    // A row is only ever written by record-audit.ts; an unreadable one shows no fields.
  }
  return { ...row, changes };
}

export async function queryAudit(filter: AuditFilter, paging: Paging): Promise<Page<AuditView>> {
  const where = whereOf(filter);
  const [rows, [counted]] = await Promise.all([
    db.select().from(t.audit_logs).where(where).orderBy(desc(t.audit_logs.id)).limit(paging.pageSize).offset(paging.offset),
    db.select({ total: countRows() }).from(t.audit_logs).where(where),
  ]);
  return pageResult(rows.map(toAuditView), Number(counted?.total ?? 0), paging);
}
