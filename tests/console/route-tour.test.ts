// Every route in a real browser at a phone's width (390 px) and a desktop's (1366 px), in
// Chinese and English, signed out and as root: no page scrolls sideways, each has an <h1>, the
// English pages have no Chinese left, and each is photographed light and dark into
// tests/artifacts/screenshots (git-ignored) for review.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import type { Upstream } from "../fixtures/openai-upstream.ts";
import { artifactsDirectory, launchBrowser, step } from "../helpers/browser.ts";
import { rootRoutes, routeName, seedConsole, visitorRoutes } from "../helpers/console-routes.ts";
import { sidewaysOverflow } from "../helpers/page-overflow.ts";
import { allCombos, comboName, type Combo } from "../helpers/screens.ts";
import { openTourPage, photographBothThemes } from "../helpers/tour-pages.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { languageNames } from "../../src/i18n/languages.ts";

/** The language menu names each language in its own words. */
const dataNames = Object.values(languageNames);

const screenshots = join(artifactsDirectory, "screenshots");
let server: TestServer;
let upstream: Upstream;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  upstream = await seedConsole(server.url);
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

const openPage = (combo: Combo, signedIn: boolean) => openTourPage(browser, server.url, combo, signedIn);

/** Visits each route: checks it does not scroll sideways, then photographs it light and dark. */
async function tour(page: Page, combo: Combo, who: string, routes: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const path of routes) {
    await step(page, `tour-${comboName(combo)}-${who}-${routeName(path)}`, async () => {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      const overflow = await sidewaysOverflow(page);
      if (overflow) failures.push(`${path}: ${overflow.scrollWidth}px > ${overflow.viewport}px; ${overflow.culprits.join(", ")}`);
      // Every page is named by a heading of the first level.
      if ((await page.locator("main h1").count()) === 0) failures.push(`${path}: no <h1>`);
      if (combo.language === "en") {
        // Nothing left untranslated (the language menu names each language in its own words).
        const untranslated = await page.evaluate(
          (names) =>
            // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees; textContent would add scripts' and islands' JSON
            names.reduce((text, name) => text.replaceAll(name, ""), document.body.innerText).match(/[\u3400-\u9fff\uff00-\uffef]+/g),
          dataNames,
        );
        if (untranslated) failures.push(`${path}: untranslated ${untranslated.slice(0, 5).join(" ")}`);
      }
      await photographBothThemes(page, screenshots, (theme) => `${comboName(combo)}-${theme}-${who}-${routeName(path)}`);
    });
  }
  return failures;
}

describe("every route", () => {
  for (const combo of allCombos) {
    test(`${comboName(combo)}: nothing scrolls sideways, every page has a title; light and dark screenshots`, async () => {
      const visitor = await openPage(combo, false);
      const failures = await tour(visitor, combo, "visitor", visitorRoutes);
      await visitor.context().close();
      const root = await openPage(combo, true);
      failures.push(...(await tour(root, combo, "root", rootRoutes)));
      await root.context().close();
      expect(failures).toEqual([]);
    }, 600_000);
  }
});
