// Everything a page needs to know about the request it renders for: who (if anyone) is signed
// in, in which language and theme, and the site's public settings.
import { translator, type Translate } from "../i18n/i18n.ts";
import type { Language } from "../i18n/languages.ts";
import { requestLanguage } from "../http/request-language.ts";
import { readSession, sessionCookieName, type SessionJwt } from "../http/session.ts";
import { optionBool } from "../services/options/options.ts";
import { systemStatus, type SystemStatus } from "../services/status/system-status.ts";
import { knownTimeZone, timeZoneCookie } from "./time-zone.ts";
import type { UserRow } from "../services/users/user-view.ts";

export type Theme = "light" | "dark";

export type PageContext = {
  request: Request;
  url: URL;
  language: Language;
  t: Translate;
  /** Undefined when the visitor chose nothing: daisyUI then follows the system preference. */
  theme: Theme | undefined;
  sidebarCollapsed: boolean;
  user: UserRow | undefined;
  /** The public id of the signed-in session's row (the sessions list marks it as this one). */
  sessionRecordId: number | undefined;
  status: SystemStatus;
  /** Per-response nonce for the Content-Security-Policy of inline JSON and scripts. */
  nonce: string;
  /** The browser's time zone (the "tz" cookie, time-zone.ts), undefined before it is known. */
  timeZone: string | undefined;
};

/** What a route's guard checked before the page renders (page-route.ts). */
export type PageAccess = "public" | "user" | "admin" | "root";

/**
 * The context of a page behind a sign-in guard: the guard found the user, so the page never
 * checks again. `access` says which guard let the request through.
 */
export type SignedInPageContext = PageContext & { user: UserRow; access: Exclude<PageAccess, "public"> };

/** The context of a page behind the admin (or root) guard: the user is an admin at least. */
export type AdminPageContext = SignedInPageContext & { access: "admin" | "root" };

function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(header);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

export async function createPageContext(request: Request, sessionJwt: SessionJwt, sessionToken: string | undefined): Promise<PageContext> {
  const language = requestLanguage(request);
  const theme = cookieValue(request, "theme");
  const collapsed = cookieValue(request, "sidebar_collapsed");
  const session = await readSession(sessionJwt, sessionToken ?? cookieValue(request, sessionCookieName));
  return {
    request,
    url: new URL(request.url),
    language,
    t: translator(language),
    theme: theme === "dark" || theme === "light" ? theme : undefined,
    sidebarCollapsed: collapsed === undefined ? optionBool("DefaultCollapseSidebar") : collapsed === "true",
    user: session?.user,
    sessionRecordId: session?.recordId,
    status: systemStatus(),
    nonce: crypto.randomUUID().replaceAll("-", ""),
    timeZone: knownTimeZone(cookieValue(request, timeZoneCookie)),
  };
}
