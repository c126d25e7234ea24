// Public site information: /api/status and the content endpoints new-api clients read.
import { Elysia } from "elysia";
import { shared } from "../cache/open-shared-state.ts";
import { optionalCaller } from "../http/auth-guard.ts";
import { sessionCookieName, type SessionJwt } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { isAdmin } from "../services/users/roles.ts";
import { optionText } from "../services/options/options.ts";
import { systemStatus } from "../services/status/system-status.ts";
import { ok } from "./envelope.ts";

export const statusRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api" })
    .use(auth)
    // Admins also see whether the state shared between instances is healthy (Redis reachable).
    .get("/status", async ({ request, cookie, sessionJwt }) => {
      const token = cookie[sessionCookieName]?.value;
      const caller = await optionalCaller(request, sessionJwt as unknown as SessionJwt, typeof token === "string" ? token : undefined);
      if (!caller || !isAdmin(caller.user.role)) return ok(systemStatus());
      return ok({ ...systemStatus(), shared_state: { kind: shared.kind, healthy: shared.healthy() } });
    })
    .get("/notice", () => ok(optionText("Notice")))
    .get("/about", () => ok(optionText("About")))
    .get("/home_page_content", () => ok(optionText("HomePageContent")));
