// Signed-in sessions (issue 28): the caller's list and ending one of them; an admin ends every
// session of a user they manage. Signing out everywhere is DELETE /api/user/self/sessions.
import { Elysia } from "elysia";
import { endSession } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { endOwnSession, endSessionsByAdmin, listSessions } from "../services/sessions/session-views.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

export const accountSessionRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    .get("/sessions", async ({ caller }) => ok(await listSessions(caller.user, caller.sessionRecordId)), { role: Role.common })
    .delete(
      "/sessions/:id",
      async ({ caller, params, cookie }) => {
        const id = Number(params.id);
        await endOwnSession(caller.user, id);
        // Ending the session this request came with signs this browser out too.
        if (id === caller.sessionRecordId) endSession(cookie);
        return ok(undefined, "会话已结束");
      },
      { role: Role.common },
    )
    .delete(
      "/:id/sessions",
      async ({ caller, actor, params }) =>
        ok({ ended: await endSessionsByAdmin(caller.user, Number(params.id), actor) }, "已结束该用户的所有会话"),
      { role: Role.admin },
    );
