// The console tour's pages as a browser sees them: a screen size, a language (Accept-Language
// and the language cookie), signed out or as root; and each page photographed light and dark.
// Shared by tests/console/route-tour.test.ts and `npm run shots` (tests/console-shots.ts).
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { rootPassword } from "./api-session.ts";
import { loginThroughForm } from "./browser.ts";
import { viewports, type Combo } from "./screens.ts";

export async function openTourPage(browser: Browser, baseURL: string, combo: Combo, signedIn: boolean): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[combo.screen],
    baseURL,
    locale: combo.language === "en" ? "en-US" : "zh-CN",
  });
  await context.addCookies([{ name: "lang", value: combo.language, url: baseURL }]);
  const page = await context.newPage();
  if (signedIn) {
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
  }
  return page;
}

/** Full-page screenshots of the current page in the light and the dark theme: `<stem>` with -light/-dark inserted. */
export async function photographBothThemes(page: Page, folder: string, name: (theme: "light" | "dark") => string): Promise<string[]> {
  const files: string[] = [];
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((value) => document.documentElement.setAttribute("data-theme", value), theme);
    const path = join(folder, `${name(theme)}.png`);
    await page.screenshot({ path, fullPage: true });
    files.push(path);
  }
  return files;
}
