// `npm run shots`: the console tour photographed for a person to look at. Starts its own gateway
// over a new store seeded like the browser suites' (tests/helpers/console-routes.ts), then visits
// every route signed out and as root on a desktop (1366 px) and a phone (390 px), in Chinese and
// English, light and dark, into artifacts/shots (git-ignored) with an index.html of them all.
// Arguments narrow it: routes (`/token /log`), and `desktop`, `phone`, `zh` or `en`.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { launchBrowser } from "./helpers/browser.ts";
import { rootRoutes, routeName, seedConsole, visitorRoutes } from "./helpers/console-routes.ts";
import { allCombos, comboName } from "./helpers/screens.ts";
import { startTestServer } from "./helpers/test-server.ts";
import { openTourPage, photographBothThemes } from "./helpers/tour-pages.ts";

const folder = join(import.meta.dir, "..", "artifacts", "shots");
const words = process.argv.slice(2);
const routeFilter = words.filter((word) => word.startsWith("/"));
const comboWords = words.filter((word) => !word.startsWith("/"));
const combos = allCombos.filter((combo) => comboWords.every((word) => word === combo.screen || word === combo.language));
const chosen = (routes: string[]) => (routeFilter.length ? routes.filter((route) => routeFilter.includes(route)) : routes);

rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
const server = await startTestServer();
const upstream = await seedConsole(server.url);
const browser = await launchBrowser();
const shots: { group: string; file: string }[] = [];
try {
  for (const combo of combos) {
    for (const [who, routes] of [
      ["visitor", chosen(visitorRoutes)],
      ["root", chosen(rootRoutes)],
    ] as const) {
      if (routes.length === 0) continue;
      const page = await openTourPage(browser, server.url, combo, who === "root");
      for (const path of routes) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        const files = await photographBothThemes(page, folder, (theme) => `${comboName(combo)}-${theme}-${who}-${routeName(path)}`);
        for (const file of files) shots.push({ group: `${comboName(combo)} ${who} ${path}`, file: basename(file) });
        console.log(`${comboName(combo)} ${who} ${path}`);
      }
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await upstream.stop();
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const figures = shots
  .map(
    ({ group, file }) =>
      `<figure><a href="${escapeHtml(file)}"><img loading="lazy" src="${escapeHtml(file)}" alt=""></a><figcaption>${escapeHtml(group)} · ${escapeHtml(file.includes("-dark-") ? "dark" : "light")}</figcaption></figure>`,
  )
  .join("\n");
writeFileSync(
  join(folder, "index.html"),
  `<!doctype html><meta charset="utf-8"><title>Console tour</title>
<style>body{font:14px sans-serif;margin:1rem}main{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:1rem}
figure{margin:0}img{width:100%;max-height:420px;object-fit:cover;object-position:top;border:1px solid #ccc}</style>
<h1>Console tour: ${shots.length} screenshots</h1><main>
${figures}
</main>`,
);
console.log(`${shots.length} screenshots in ${folder} (open index.html)`);
