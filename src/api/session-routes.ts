// Signing in, out and up with a password (spec §7 Users and sessions).
import { Elysia } from "elysia";
import { guardHuman } from "../http/critical-guard.ts";
import { endSession, isSecureRequest, startSession, type SessionJwt } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { loginWithPassword } from "../services/users/login.ts";
import { registerWithPassword } from "../services/users/registration.ts";
import { toSessionUser } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

export const sessionRoutes = ({ config, auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    .post("/login", async ({ request, server, query, body, cookie, sessionJwt }) => {
      await guardHuman(config, { request, server }, query.turnstile);
      const user = await loginWithPassword(body);
      await startSession(sessionJwt as unknown as SessionJwt, cookie, user, isSecureRequest(request, config.trustProxy));
      return ok(toSessionUser(user), "登录成功！");
    })
    .get("/logout", ({ cookie }) => {
      endSession(cookie);
      return ok();
    })
    .post("/register", async ({ request, server, query, body }) => {
      await guardHuman(config, { request, server }, query.turnstile);
      await registerWithPassword(body);
      return ok(undefined, "注册成功！");
    });
