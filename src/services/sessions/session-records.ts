// Session rows in the store (issue 28): written when someone signs in, read through the
// session cache on every signed-in request, listed and ended from the personal settings.
// Ending a session deletes its row and announces it, so every instance drops its copy.
import { and, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { announceChange } from "../change-notices.ts";
import { sha256Hex } from "../users/random-codes.ts";

export type SessionRecord = (typeof t.sessions)["$inferSelect"];

/** Where and how a sign-in happened, recorded with the session. */
export type SignInFacts = { method: string; address: string; userAgent: string };

export const sessionTokenHash = (sessionId: string) => sha256Hex(`session:${sessionId}`);

export async function createSessionRecord(
  sessionId: string,
  user: { id: number; session_version: number },
  facts: SignInFacts,
  lifetimeSeconds: number,
): Promise<SessionRecord> {
  const now = nowSeconds();
  const [row] = await db
    .insert(t.sessions)
    .values({
      token_hash: sessionTokenHash(sessionId),
      user_id: user.id,
      user_version: user.session_version,
      method: facts.method.slice(0, 48),
      address: facts.address.slice(0, 64),
      user_agent: facts.userAgent.slice(0, 512),
      created_at: now,
      last_seen_at: now,
      expires_at: now + lifetimeSeconds,
    })
    .returning();
  return row!;
}

export async function findSessionRecord(tokenHash: string): Promise<SessionRecord | undefined> {
  const [row] = await db.select().from(t.sessions).where(eq(t.sessions.token_hash, tokenHash)).limit(1);
  return row;
}

export async function findSessionRecords(tokenHashes: string[]): Promise<SessionRecord[]> {
  if (tokenHashes.length === 0) return [];
  return db.select().from(t.sessions).where(inArray(t.sessions.token_hash, tokenHashes));
}

/** The live sessions of a user, newest first (ended versions and expired rows left out). */
export async function listUserSessions(user: { id: number; session_version: number }): Promise<SessionRecord[]> {
  return db
    .select()
    .from(t.sessions)
    .where(and(eq(t.sessions.user_id, user.id), eq(t.sessions.user_version, user.session_version), gt(t.sessions.expires_at, nowSeconds())))
    .orderBy(sql`${t.sessions.last_seen_at} desc`, sql`${t.sessions.id} desc`);
}

/** Ends one session of a user; false when the user has no such session. */
export async function endUserSession(userId: number, recordId: number): Promise<boolean> {
  const ended = await db
    .delete(t.sessions)
    .where(and(eq(t.sessions.user_id, userId), eq(t.sessions.id, recordId)))
    .returning({ id: t.sessions.id });
  if (ended.length > 0) await announceChange("sessions", userId);
  return ended.length > 0;
}

/** Ends every session of a user, except the one named (the caller's own, when it stays). */
export async function endSessionsOfUser(userId: number, keepRecordId?: number): Promise<number> {
  const ended = await db
    .delete(t.sessions)
    .where(
      keepRecordId === undefined ? eq(t.sessions.user_id, userId) : and(eq(t.sessions.user_id, userId), ne(t.sessions.id, keepRecordId)),
    )
    .returning({ id: t.sessions.id });
  await announceChange("sessions", userId);
  return ended.length;
}

/** Ends the session a cookie belongs to (signing out). */
export async function endSessionByToken(sessionId: string): Promise<void> {
  const ended = await db
    .delete(t.sessions)
    .where(eq(t.sessions.token_hash, sessionTokenHash(sessionId)))
    .returning({ user_id: t.sessions.user_id });
  if (ended[0]) await announceChange("sessions", ended[0].user_id);
}

/**
 * After the user's session_version moved on (a password change), the session that made the
 * change follows it: it stays while every other one has ended.
 */
export async function carrySessionToVersion(recordId: number, userId: number, version: number): Promise<void> {
  await db
    .update(t.sessions)
    .set({ user_version: version })
    .where(and(eq(t.sessions.id, recordId), eq(t.sessions.user_id, userId)));
  await announceChange("sessions", userId);
}

/** Last seen: written at most once a minute per session and instance (session-cache.ts). */
export async function recordLastSeen(recordId: number, at: number): Promise<void> {
  await db.update(t.sessions).set({ last_seen_at: at }).where(eq(t.sessions.id, recordId));
}

/** Rows of expired sessions, and of sessions a newer session_version ended; run by a job. */
export async function deleteEndedSessions(): Promise<void> {
  await db.delete(t.sessions).where(lt(t.sessions.expires_at, nowSeconds()));
  await db
    .delete(t.sessions)
    .where(
      sql`${t.sessions.user_version} < (select ${t.users.session_version} from ${t.users} where ${t.users.id} = ${t.sessions.user_id})`,
    );
}
