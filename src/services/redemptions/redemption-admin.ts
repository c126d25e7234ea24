// Managing redemption codes (admin): batch creation, listing and search, editing while unused,
// enabling and disabling, deletion, with new-api's rules and messages.
// Redeeming a code is in redeem-code.ts.
import { and, desc, eq, isNull, or, type SQL } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid, notFound } from "../../errors/app-error.ts";
import { containsText, countRows } from "../../store/dialect.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { rowChanges } from "../audit/audit-changes.ts";
import { auditEntry } from "../audit/record-audit.ts";
import { parseInput } from "../parse-input.ts";
import { quotaLabel } from "../pricing/quota-format.ts";
import { createRedemptionInput, redemptionNameMessage, redemptionStatusInput, updateRedemptionInput } from "./redemption-schemas.ts";
import { RedemptionStatus } from "./redemption-status.ts";

export type RedemptionRow = (typeof t.redemptions)["$inferSelect"];
export type RedemptionView = Omit<RedemptionRow, "deleted_at">;

function toView(row: RedemptionRow): RedemptionView {
  const { deleted_at: _deleted, ...view } = row;
  return view;
}

/** 1 to 20 characters (counted as people count them, not UTF-16 units). */
function checkName(name: string): void {
  const length = [...name].length;
  if (length < 1 || length > 20) throw invalid(redemptionNameMessage);
}

/** A code is a random UUIDv4 without dashes: 32 hex characters, 122 random bits. */
function newRedemptionKey(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** POST /api/redemption/: creates `count` codes in one transaction and returns their keys. */
export async function createRedemptions(actor: AuditActor, body: unknown): Promise<string[]> {
  const input = parseInput(createRedemptionInput, body);
  const name = input.name || quotaLabel(input.quota);
  checkName(name);
  const now = nowSeconds();
  const rows = Array.from({ length: input.count }, () => ({
    user_id: actor.id,
    key: newRedemptionKey(),
    name,
    quota: input.quota,
    status: RedemptionStatus.unused,
    created_time: now,
  }));
  const created = await transact(function* (tx) {
    const inserted = yield* run(tx.insert(t.redemptions).values(rows).returning({ id: t.redemptions.id, key: t.redemptions.key }));
    yield* auditEntry(tx, actor, {
      action: "redemption.create",
      targetType: "redemption",
      targetId: inserted.map((row) => row.id),
      changes: rowChanges(undefined, { name, quota: input.quota, count: input.count }),
    });
    return inserted;
  });
  return created.map((row) => row.key);
}

/** Not deleted (t is bound when the store opens, hence a function). */
const live = () => isNull(t.redemptions.deleted_at);

export type Paging = { page: number; pageSize: number };
export type RedemptionPage = { items: RedemptionView[]; total: number };

async function pageOf(where: SQL | undefined, paging: Paging): Promise<RedemptionPage> {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(t.redemptions)
      .where(where)
      .orderBy(desc(t.redemptions.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    db.select({ count: countRows() }).from(t.redemptions).where(where),
  ]);
  return { items: rows.map(toView), total: counted?.count ?? 0 };
}

/** GET /api/redemption/?p&page_size: newest first. */
export function listRedemptions(paging: Paging): Promise<RedemptionPage> {
  return pageOf(live(), paging);
}

/** GET /api/redemption/search?keyword: the id when the keyword is a number, or a name containing it. */
export function searchRedemptions(keyword: string, paging: Paging): Promise<RedemptionPage> {
  const text = keyword.trim();
  if (!text) return listRedemptions(paging);
  const byName = containsText(t.redemptions.name, text);
  const matches = /^\d{1,9}$/.test(text) ? or(eq(t.redemptions.id, Number(text)), byName) : byName;
  return pageOf(and(live(), matches), paging);
}

async function findLive(id: number): Promise<RedemptionRow> {
  if (!Number.isSafeInteger(id) || id <= 0) throw invalid("无效的参数");
  const [row] = await db
    .select()
    .from(t.redemptions)
    .where(and(eq(t.redemptions.id, id), live()))
    .limit(1);
  if (!row) throw notFound("兑换码不存在");
  return row;
}

/** GET /api/redemption/{id}. */
export async function getRedemption(id: number): Promise<RedemptionView> {
  return toView(await findLive(id));
}

/** One write of a code and its audit entry, in one transaction; undefined when the condition failed. */
function writeAudited(actor: AuditActor, action: string, before: RedemptionRow, changes: Partial<RedemptionRow>, where: SQL | undefined) {
  return transact(function* (tx) {
    const [row] = yield* run(tx.update(t.redemptions).set(changes).where(where).returning());
    if (row) yield* auditEntry(tx, actor, { action, targetType: "redemption", targetId: row.id, changes: rowChanges(before, row) });
    return row;
  });
}

/** PUT /api/redemption/: name and quota (kept when left out), only while the code is unused. */
export async function updateRedemption(actor: AuditActor, body: unknown): Promise<RedemptionView> {
  const input = parseInput(updateRedemptionInput, body);
  const current = await findLive(input.id);
  const quota = input.quota ?? current.quota;
  const name = input.name || quotaLabel(quota);
  checkName(name);
  const row = await writeAudited(
    actor,
    "redemption.update",
    current,
    { name, quota },
    and(eq(t.redemptions.id, input.id), eq(t.redemptions.status, RedemptionStatus.unused), live()),
  );
  if (!row) throw invalid("只能编辑未使用的兑换码");
  return toView(row);
}

/** PUT /api/redemption/?status_only=true: enable or disable; a used code stays used. */
export async function setRedemptionStatus(actor: AuditActor, body: unknown): Promise<RedemptionView> {
  const input = parseInput(redemptionStatusInput, body);
  const current = await findLive(input.id);
  // The condition is part of the write, so a code redeemed a moment ago cannot be re-enabled.
  const row = await writeAudited(
    actor,
    "redemption.status",
    current,
    { status: input.status },
    and(
      eq(t.redemptions.id, input.id),
      live(),
      or(eq(t.redemptions.status, RedemptionStatus.unused), eq(t.redemptions.status, RedemptionStatus.disabled)),
    ),
  );
  if (!row) throw invalid("兑换码已被使用，无法启用或禁用");
  return toView(row);
}

/** DELETE /api/redemption/{id}/: a soft delete, so used codes keep their history. */
export async function deleteRedemption(actor: AuditActor, id: number): Promise<void> {
  const current = await findLive(id);
  await writeAudited(actor, "redemption.delete", current, { deleted_at: nowSeconds() }, eq(t.redemptions.id, id));
}
