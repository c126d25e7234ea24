// Signed session cookies (@elysiajs/jwt, HS256). The cookie carries the user id and the user's
// session_version; bumping the version in the store (password change, ban, logout everywhere)
// invalidates every cookie issued before, on every instance, at the next request.
import { jwt } from "@elysiajs/jwt";
import type { Cookie } from "elysia";
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

type SessionClaims = { sub?: unknown; ver?: unknown };

/** The signed-in user of a session cookie, or undefined (bad signature, old version, banned...). */
export async function readSessionUser(sessionJwt: SessionJwt, token: string | undefined): Promise<UserRow | undefined> {
  if (!token) return undefined;
  const claims = (await sessionJwt.verify(token)) as SessionClaims | false;
  if (!claims) return undefined;
  const id = Number(claims.sub);
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const user = await findLiveUserById(id);
  if (!user || user.session_version !== Number(claims.ver) || user.status !== UserStatus.enabled) return undefined;
  return user;
}

export async function startSession(
  sessionJwt: SessionJwt,
  cookie: Record<string, Cookie<unknown>>,
  user: UserRow,
  secure: boolean,
): Promise<void> {
  const token = await sessionJwt.sign({ sub: String(user.id), ver: user.session_version });
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
