// Signing in, out and up with a password. With two-factor on, the
// password is the first step only (http/sign-in.ts; the second is two-factor-routes.ts).
import { Elysia, type Cookie } from "elysia";
import { isLoopbackClient } from "../http/client-address.ts";
import { guardTurnstile } from "../http/critical-guard.ts";
import { namedAccount, recordCredentialFailure, refuseLockedAccount } from "../http/credential-guard.ts";
import { endSession, revokeSession, sessionCookieName, type SessionJwt } from "../http/session.ts";
import { finishFirstStep } from "../http/sign-in.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { loginWithPassword } from "../services/users/login.ts";
import { registerWithPassword } from "../services/users/registration.ts";
import { ok } from "./envelope.ts";

async function signOut(sessionJwt: SessionJwt, cookie: Record<string, Cookie<unknown>>): Promise<void> {
  const token = cookie[sessionCookieName]?.value;
  await revokeSession(sessionJwt, typeof token === "string" ? token : undefined);
  endSession(cookie);
}

export const sessionRoutes = ({ config, auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    // JSON only, from this site, the address within its failure limit: checked before the body
    // is read (api-app.ts, credential-guard.ts); the account's failure limit once it is named.
    .post("/login", async ({ request, server, query, body, cookie, sessionJwt }) => {
      await guardTurnstile(config, { request, server }, query.turnstile);
      const account = namedAccount(body, "username");
      await refuseLockedAccount("login", account, config);
      const origin = { loopback: isLoopbackClient(request, server, config.trustProxy) };
      const user = await loginWithPassword(body, origin).catch(async (error: unknown) => {
        await recordCredentialFailure("login", { request, server }, account, config);
        throw error;
      });
      // The password was right; an account with two-factor on is asked for its second step.
      return finishFirstStep({ request, server, cookie, sessionJwt, config }, user, "password");
    })
    // Signing out ends the session on the server (every instance), not only the cookie.
    .get("/logout", async ({ cookie, sessionJwt }) => {
      await signOut(sessionJwt as unknown as SessionJwt, cookie);
      return ok();
    })
    .post("/logout", async ({ cookie, sessionJwt }) => {
      await signOut(sessionJwt as unknown as SessionJwt, cookie);
      return ok();
    })
    .post("/register", async ({ request, server, query, body }) => {
      await guardTurnstile(config, { request, server }, query.turnstile);
      await registerWithPassword(body);
      return ok(undefined, "注册成功！");
    });
