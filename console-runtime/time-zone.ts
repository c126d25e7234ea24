// The browser's time zone for the server (the "tz" cookie: src/console/time-zone.ts renders
// times and "today" in it), and the server's <time data-local-time> elements re-rendered here in
// the browser's zone, on load and after every htmx swap: right even before the cookie exists.
import { formatLocalTime } from "./local-time.ts";

const year = 365 * 24 * 3600;

function rememberTimeZone(): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  const current = /(?:^|;\s*)tz=([^;]*)/.exec(document.cookie)?.[1];
  if (current !== undefined && decodeURIComponent(current) === zone) return;
  document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=${year}; samesite=lax`;
}

function localizeTimes(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>("time[data-local-time]:not([data-localized])").forEach((element) => {
    const seconds = Number(element.dataset.localTime);
    if (seconds > 0) element.textContent = formatLocalTime(seconds);
    element.dataset.localized = "";
  });
}

export function installTimeZone(): void {
  rememberTimeZone();
  localizeTimes(document);
  document.addEventListener("htmx:afterSettle", () => localizeTimes(document));
}
