// Signing in, out and up with a password (spec §7 Users and sessions).
import { Elysia } from "elysia";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { endSession, isSecureRequest, startSession, type SessionJwt } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { loginWithPassword } from "../services/users/login.ts";
import { registerWithPassword } from "../services/users/registration.ts";
import { toSessionUser } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

export const sessionRoutes = ({ config, auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    .post("/login", async ({ request, server, body, cookie, sessionJwt }) => {
      await enforceRateLimit("critical", clientAddress(request, server, config.trustProxy), config.criticalRateLimit);
      const user = await loginWithPassword(body);
      await startSession(sessionJwt as unknown as SessionJwt, cookie, user, isSecureRequest(request, config.trustProxy));
      return ok(toSessionUser(user), "登录成功！");
    })
    .get("/logout", ({ cookie }) => {
      endSession(cookie);
      return ok();
    })
    .post("/register", async ({ request, server, body }) => {
      await enforceRateLimit("critical", clientAddress(request, server, config.trustProxy), config.criticalRateLimit);
      await registerWithPassword(body);
      return ok(undefined, "注册成功！");
    });
