// Registers console pages with their access rule: public pages render for anyone; the others
// send visitors without a session to /login (partial htmx requests get a 401, which the runtime
// turns into /login?expired=true) and refuse users without the role (docs/COMPATIBILITY.md, Sessions).
// The guard hands a guarded page a context whose user is known (SignedInPageContext,
// AdminPageContext), so pages never check for a user the guard already found.
import type { Cookie } from "elysia";
import type { SessionJwt } from "../http/session.ts";
import { sessionCookieName } from "../http/session.ts";
import { Role } from "../services/users/roles.ts";
import { usesDefaultPassword } from "../services/onboarding/default-password.ts";
import { mustEnrolTwoFactor } from "../services/two-factor/two-factor-state.ts";
import { createPageContext, type PageAccess, type PageContext, type SignedInPageContext } from "./page-context.ts";
import { collectingIslands } from "./rendered-islands.ts";
import { renderForbiddenPage } from "./pages/error-page.tsx";
import { renderPasswordGatePage } from "./pages/first-run/password-gate-page.tsx";

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

type PageHandler = (handler: PageHandlerArguments) => Promise<Response>;

type GuardedAccess = Exclude<PageAccess, "public">;

export type PageRenderer<Context extends PageContext = PageContext> = (
  context: Context,
  params: Record<string, string | undefined>,
) => Response | Promise<Response>;

/** A public page renders for anyone; a guarded one gets the context its guard derived. */
export function page(access: "public", render: PageRenderer): PageHandler;
export function page<Access extends GuardedAccess>(
  access: Access,
  render: PageRenderer<SignedInPageContext & { access: Access }>,
): PageHandler;
export function page(access: PageAccess, render: PageRenderer | PageRenderer<SignedInPageContext>): PageHandler {
  return async ({ request, cookie, sessionJwt, params }: PageHandlerArguments): Promise<Response> => {
    const token = cookie[sessionCookieName]?.value;
    const context = await createPageContext(request, sessionJwt as SessionJwt, typeof token === "string" ? token : undefined);
    // Elysia gives a route without parameters no params object (/chat, spec /chat/{id?}). The
    // islands the page renders are collected for its document (rendered-islands.ts).
    // The overloads pair "public" with a renderer that takes any page's context.
    if (access === "public") return collectingIslands(() => (render as PageRenderer)(context, params ?? {}));
    const guarded = await guard(context, access);
    return guarded instanceof Response ? guarded : collectingIslands(() => render(guarded, params ?? {}));
  };
}

/** The guarded context, or what answers instead: the login, a refusal, a first-run gate. */
async function guard<Access extends GuardedAccess>(
  context: PageContext,
  access: Access,
): Promise<(SignedInPageContext & { access: Access }) | Response> {
  const { request, user } = context;
  if (!user) {
    // htmx would follow a redirect and swap the login page into a table region; a 401
    // lets the runtime send the browser to /login?expired=true instead.
    if (request.headers.get("hx-request") === "true") return new Response(null, { status: 401 });
    return Response.redirect(`/login`, 302);
  }
  if (user.role < minimumRole[access]) {
    // A partial update gets the reason as text for the runtime's toast, not a page to swap in.
    if (request.headers.get("hx-request") === "true") {
      return new Response(context.t("无权进行此操作，权限不足"), {
        status: 403,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    return renderForbiddenPage(context);
  }
  const signedIn = { ...context, user, access };
  // Root with the default password changes it before anything else (first run).
  if (await usesDefaultPassword(user)) {
    if (request.headers.get("hx-request") === "true") return new Response(null, { status: 403 });
    return renderPasswordGatePage(signedIn);
  }
  // An admin the site requires two-factor of sets it up before anything else (issue 28).
  if (await mustEnrolTwoFactor(user)) {
    if (request.headers.get("hx-request") === "true") return new Response(null, { status: 403 });
    const { renderTwoFactorGatePage } = await import("./pages/first-run/two-factor-gate-page.tsx");
    return collectingIslands(() => renderTwoFactorGatePage(signedIn));
  }
  return signedIn;
}
