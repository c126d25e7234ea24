// Registers console pages with their access rule: public pages render for anyone; the others
// send visitors without a session to /login (partial htmx requests get a 401, which the runtime
// turns into /login?expired=true) and refuse users without the role (spec §2 guard, §8).
import type { Cookie } from "elysia";
import type { SessionJwt } from "../http/session.ts";
import { sessionCookieName } from "../http/session.ts";
import { Role } from "../services/users/roles.ts";
import { usesDefaultPassword } from "../services/onboarding/default-password.ts";
import { createPageContext, type PageContext } from "./page-context.ts";
import { renderForbiddenPage } from "./pages/error-page.tsx";
import { renderPasswordGatePage } from "./pages/first-run/password-gate-page.tsx";

export type PageAccess = "public" | "user" | "admin" | "root";

const minimumRole: Record<Exclude<PageAccess, "public">, number> = {
  user: Role.common,
  admin: Role.admin,
  root: Role.root,
};

type PageHandlerArguments = {
  request: Request;
  cookie: Record<string, Cookie<unknown>>;
  sessionJwt: unknown;
  params?: Record<string, string | undefined>;
};

export type PageRenderer = (context: PageContext, params: Record<string, string | undefined>) => Response | Promise<Response>;

export function page(access: PageAccess, render: PageRenderer) {
  return async ({ request, cookie, sessionJwt, params }: PageHandlerArguments): Promise<Response> => {
    const token = cookie[sessionCookieName]?.value;
    const context = await createPageContext(request, sessionJwt as SessionJwt, typeof token === "string" ? token : undefined);
    if (access !== "public") {
      if (!context.user) {
        // htmx would follow a redirect and swap the login page into a table region; a 401
        // lets the runtime send the browser to /login?expired=true instead (spec §8).
        if (request.headers.get("hx-request") === "true") return new Response(null, { status: 401 });
        return Response.redirect(`/login`, 302);
      }
      if (context.user.role < minimumRole[access]) {
        // A partial update gets the reason as text for the runtime's toast, not a page to swap in.
        if (request.headers.get("hx-request") === "true") {
          return new Response(context.t("无权进行此操作，权限不足"), { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
        }
        return renderForbiddenPage(context);
      }
      // Root with the default password changes it before anything else (first run).
      if (await usesDefaultPassword(context.user)) {
        if (request.headers.get("hx-request") === "true") return new Response(null, { status: 403 });
        return renderPasswordGatePage(context);
      }
    }
    // Elysia gives a route without parameters no params object (/chat, spec /chat/{id?}).
    return render(context, params ?? {});
  };
}
