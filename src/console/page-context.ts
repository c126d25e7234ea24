// Everything a page needs to know about the request it renders for: who (if anyone) is signed
// in, in which language and theme, and the site's public settings.
import { translator, type Translate } from "../i18n/i18n.ts";
import type { Language } from "../i18n/languages.ts";
import { requestLanguage } from "../http/request-language.ts";
import { readSessionUser, sessionCookieName, type SessionJwt } from "../http/session.ts";
import { optionBool } from "../services/options/options.ts";
import { systemStatus, type SystemStatus } from "../services/status/system-status.ts";
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
  status: SystemStatus;
  /** Per-response nonce for the Content-Security-Policy of inline JSON and scripts. */
  nonce: string;
};

function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(header);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

export async function createPageContext(
  request: Request,
  sessionJwt: SessionJwt,
  sessionToken: string | undefined,
): Promise<PageContext> {
  const language = requestLanguage(request);
  const theme = cookieValue(request, "theme");
  const collapsed = cookieValue(request, "sidebar_collapsed");
  return {
    request,
    url: new URL(request.url),
    language,
    t: translator(language),
    theme: theme === "dark" || theme === "light" ? theme : undefined,
    sidebarCollapsed: collapsed === undefined ? optionBool("DefaultCollapseSidebar") : collapsed === "true",
    user: await readSessionUser(sessionJwt, sessionToken ?? cookieValue(request, sessionCookieName)),
    status: systemStatus(),
    nonce: crypto.randomUUID().replaceAll("-", ""),
  };
}
