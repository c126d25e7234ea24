// Signed session cookies (@elysiajs/jwt, HS256). The cookie carries the user id, the user's
// session_version, its own session id and when its user signed in. Bumping the version in the
// store (password change, ban, sign out everywhere) invalidates every cookie issued before; a
// sign-out marks the one session id as revoked in SharedState until the cookie would have
// expired anyway. Both are seen by every instance at the next request.
import { jwt } from "@elysiajs/jwt";
import type { Cookie } from "elysia";
import { shared } from "../cache/open-shared-state.ts";
import { nowSeconds } from "../clock.ts";
import { randomAlphanumeric } from "../services/users/random-codes.ts";
import { findLiveUserById } from "../services/users/user-queries.ts";
import { UserStatus } from "../services/users/roles.ts";
import type { UserRow } from "../services/users/user-view.ts";

export const sessionCookieName = "session";
export const sessionLifetimeSeconds = 30 * 24 * 3600;

export function sessionJwtPlugin(secret: string) {
  return jwt({ name: "sessionJwt", secret, alg: "HS256", exp: `${sessionLifetimeSeconds}s` });
}

export type SessionJwt = {
  sign(payload: Record<string, string | number>): Promise<string>;
  verify(token?: string): Promise<false | Record<string, unknown>>;
};

type SessionClaims = { sub?: unknown; ver?: unknown; sid?: unknown; at?: unknown; exp?: unknown };

/** A live session: its user, its id, and when the user signed in (unix seconds). */
export type Session = { user: UserRow; id: string; signedInAt: number };

const revokedKey = (sessionId: string) => `session-revoked:${sessionId}`;

/** The session of a cookie, or undefined (bad signature, revoked, old version, banned...). */
export async function readSession(sessionJwt: SessionJwt, token: string | undefined): Promise<Session | undefined> {
  if (!token) return undefined;
  const claims = (await sessionJwt.verify(token)) as SessionClaims | false;
  if (!claims || typeof claims.sid !== "string" || claims.sid === "") return undefined;
  const id = Number(claims.sub);
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const [user, revoked] = await Promise.all([findLiveUserById(id), shared.get(revokedKey(claims.sid))]);
  if (revoked !== null) return undefined;
  if (!user || user.session_version !== Number(claims.ver) || user.status !== UserStatus.enabled) return undefined;
  return { user, id: claims.sid, signedInAt: Number(claims.at) || 0 };
}

/** The signed-in user of a session cookie, or undefined. */
export async function readSessionUser(sessionJwt: SessionJwt, token: string | undefined): Promise<UserRow | undefined> {
  return (await readSession(sessionJwt, token))?.user;
}

/** Ends one session on every instance: its id stays revoked until the cookie expires anyway. */
export async function revokeSession(sessionJwt: SessionJwt, token: string | undefined): Promise<void> {
  if (!token) return;
  const claims = (await sessionJwt.verify(token)) as SessionClaims | false;
  if (!claims || typeof claims.sid !== "string" || claims.sid === "") return;
  // The cookie's expiry is in real time (the signer's clock), not the core's shiftable clock.
  const now = Math.floor(Date.now() / 1000);
  const remaining = Math.max(1, Math.ceil((Number(claims.exp) || now + sessionLifetimeSeconds) - now));
  await shared.set(revokedKey(claims.sid), "1", remaining);
}

export async function startSession(
  sessionJwt: SessionJwt,
  cookie: Record<string, Cookie<unknown>>,
  user: UserRow,
  secure: boolean,
): Promise<void> {
  const token = await sessionJwt.sign({ sub: String(user.id), ver: user.session_version, sid: randomAlphanumeric(24), at: nowSeconds() });
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
