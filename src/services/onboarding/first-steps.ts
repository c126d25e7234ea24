// What the empty states of the console ask the store: is there any channel at all, does the
// user have a token and has one been used yet, has anything been logged. Each is one indexed
// "exists" query, cheap enough for the page that shows the hint.
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { LogType } from "../logs/log-types.ts";
import { TokenStatus } from "../tokens/token-queries.ts";

export async function hasAnyChannel(): Promise<boolean> {
  return (await db.select({ id: t.channels.id }).from(t.channels).limit(1)).length > 0;
}

export type FirstTokenState =
  /** No token yet: create one. */
  | { kind: "none" }
  /** Tokens exist and none was used for a call yet: the newest enabled one's key, to show how. */
  | { kind: "try"; key: string }
  /** A token was used (or none is usable): nothing to suggest. */
  | { kind: "done" };

export async function firstTokenState(userId: number): Promise<FirstTokenState> {
  const mine = and(eq(t.tokens.user_id, userId), isNull(t.tokens.deleted_at));
  const [any] = await db.select({ id: t.tokens.id }).from(t.tokens).where(mine).limit(1);
  if (!any) return { kind: "none" };
  const used = or(gt(t.tokens.used_quota, 0), sql`${t.tokens.accessed_time} > ${t.tokens.created_time}`);
  const [usedOne] = await db.select({ id: t.tokens.id }).from(t.tokens).where(and(mine, used)).limit(1);
  if (usedOne) return { kind: "done" };
  const [newest] = await db
    .select({ key: t.tokens.key })
    .from(t.tokens)
    .where(and(mine, eq(t.tokens.status, TokenStatus.enabled)))
    .orderBy(desc(t.tokens.id))
    .limit(1);
  return newest ? { kind: "try", key: newest.key } : { kind: "done" };
}

/** Whether /log has anything to show: the user's own usage, or anyone's for an admin. */
export async function hasUsageLogs(userId: number | "all"): Promise<boolean> {
  const usage = eq(t.logs.type, LogType.consume);
  const where = userId === "all" ? usage : and(eq(t.logs.user_id, userId), usage);
  return (await db.select({ id: t.logs.id }).from(t.logs).where(where).limit(1)).length > 0;
}
