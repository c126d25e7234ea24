// The last step of every sign-in (password, social accounts, OpenID Connect, passkeys, the
// second factor): either a session, or, when the account has two-factor on and the first step
// was not already strong, a pending sign-in that grants nothing until POST /api/user/login/2fa
// (issue 28). The first step's answer is then {require_2fa: true} and no session cookie.
import type { Server } from "bun";
import type { Cookie } from "elysia";
import { ok } from "../api/envelope.ts";
import type { Config } from "../config.ts";
import { pendingLoginCookie, pendingLoginSeconds, startPendingLogin } from "../services/two-factor/pending-logins.ts";
import { totpEnabled } from "../services/two-factor/totp-accounts.ts";
import { toSessionUser, type UserRow } from "../services/users/user-view.ts";
import { clientAddress } from "./client-address.ts";
import { isSecureRequest, startSession, type SessionJwt } from "./session.ts";

export type SignInRequest = {
  request: Request;
  server: Server<unknown> | null | undefined;
  cookie: Record<string, Cookie<unknown>>;
  sessionJwt: unknown;
  config: Config;
};

export const signedInMessage = "登录成功！";

/** Starts the session of a user whose sign-in is complete; `method` is recorded with it. */
export async function openSession(context: SignInRequest, user: UserRow, method: string): Promise<void> {
  const { request, server, cookie, sessionJwt, config } = context;
  await startSession(sessionJwt as SessionJwt, cookie, user, isSecureRequest(request, config.trustProxy), {
    method,
    address: clientAddress(request, server, config.trustProxy),
    userAgent: request.headers.get("user-agent") ?? "",
  });
}

/** The pending-sign-in cookie: HttpOnly, this site only, read by the second step's calls alone. */
export function setPendingLoginCookie(context: SignInRequest, value: string): void {
  context.cookie[pendingLoginCookie]!.set({
    value,
    httpOnly: true,
    sameSite: "strict",
    path: "/api/user/login",
    maxAge: value ? pendingLoginSeconds : 0,
    secure: isSecureRequest(context.request, context.config.trustProxy),
  });
}

/**
 * After a first step that proved the account (password, social, OIDC): a session, or the
 * second step's question when the account has two-factor on.
 */
export async function finishFirstStep(context: SignInRequest, user: UserRow, method: string) {
  if (await totpEnabled(user.id)) {
    setPendingLoginCookie(context, await startPendingLogin(user, method));
    return ok({ require_2fa: true });
  }
  await openSession(context, user, method);
  return ok(toSessionUser(user), signedInMessage);
}
