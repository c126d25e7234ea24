// Signed session cookies (@elysiajs/jwt, HS256) backed by a row per session in the store
// (services/sessions/). The cookie carries the user id, a random session id and when its user
// signed in; the row (read through the session cache, not the store) says the session still
// exists, for which session_version of its user, and how the user signed in. Ending a session
// deletes its row (every instance drops its copy on the notice); bumping the user's
// session_version (ban, role change, password change) ends every session of the older version.
import { jwt } from "@elysiajs/jwt";
import type { Cookie } from "elysia";
import { nowSeconds } from "../clock.ts";
import { cachedSessionRecord, touchSession } from "../services/sessions/session-cache.ts";
import { createSessionRecord, endSessionByToken, type SignInFacts, sessionTokenHash } from "../services/sessions/session-records.ts";
import { randomAlphanumeric } from "../services/users/random-codes.ts";
import { UserStatus } from "../services/users/roles.ts";
import { findLiveUserById } from "../services/users/user-queries.ts";
import type { UserRow } from "../services/users/user-view.ts";

export const sessionCookieName = "session";
const sessionLifetimeSeconds = 30 * 24 * 3600;

export function sessionJwtPlugin(secret: string) {
  return jwt({ name: "sessionJwt", secret, alg: "HS256", exp: `${sessionLifetimeSeconds}s` });
}

export type SessionJwt = {
  sign(payload: Record<string, string | number>): Promise<string>;
  verify(token?: string): Promise<false | Record<string, unknown>>;
};

type SessionClaims = { sub?: unknown; sid?: unknown; at?: unknown; exp?: unknown };

/** A live session: its user, its cookie's id, its row's public id, and when and how the user signed in. */
export type Session = { user: UserRow; id: string; recordId: number; signedInAt: number; method: string };

export type { SignInFacts };

/** The session of a cookie, or undefined (bad signature, ended, old version, banned...). */
export async function readSession(sessionJwt: SessionJwt, token: string | undefined): Promise<Session | undefined> {
  if (!token) return undefined;
  const claims = (await sessionJwt.verify(token)) as SessionClaims | false;
  if (!claims || typeof claims.sid !== "string" || claims.sid === "") return undefined;
  const id = Number(claims.sub);
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const [record, user] = await Promise.all([cachedSessionRecord(sessionTokenHash(claims.sid)), findLiveUserById(id)]);
  if (!record || record.user_id !== id || record.expires_at <= nowSeconds()) return undefined;
  if (!user || user.session_version !== record.user_version || user.status !== UserStatus.enabled) return undefined;
  touchSession(record);
  return { user, id: claims.sid, recordId: record.id, signedInAt: record.created_at, method: record.method };
}

/** The signed-in user of a session cookie, or undefined. */
export async function readSessionUser(sessionJwt: SessionJwt, token: string | undefined): Promise<UserRow | undefined> {
  return (await readSession(sessionJwt, token))?.user;
}

/** Ends the session of a cookie on every instance (its row goes; the cookie is cleared by the caller). */
export async function revokeSession(sessionJwt: SessionJwt, token: string | undefined): Promise<void> {
  if (!token) return;
  const claims = (await sessionJwt.verify(token)) as SessionClaims | false;
  if (!claims || typeof claims.sid !== "string" || claims.sid === "") return;
  await endSessionByToken(claims.sid);
}

/** Signs the user in: a new session row and a cookie naming it. */
export async function startSession(
  sessionJwt: SessionJwt,
  cookie: Record<string, Cookie<unknown>>,
  user: UserRow,
  secure: boolean,
  facts: SignInFacts,
): Promise<void> {
  const sessionId = randomAlphanumeric(32);
  const record = await createSessionRecord(sessionId, user, facts, sessionLifetimeSeconds);
  const token = await sessionJwt.sign({ sub: String(user.id), sid: sessionId, at: record.created_at });
  cookie[sessionCookieName]!.set({
    value: token,
    httpOnly: true,
    sameSite: "strict",
    path: "/",
    maxAge: sessionLifetimeSeconds,
    secure,
  });
}

export function endSession(cookie: Record<string, Cookie<unknown>>): void {
  cookie[sessionCookieName]!.set({ value: "", httpOnly: true, sameSite: "strict", path: "/", maxAge: 0 });
}

/** Whether the client reached us over HTTPS (directly, or through a trusted proxy). */
export function isSecureRequest(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return trustProxy && request.headers.get("x-forwarded-proto") === "https";
}
