// XSS probes in Chromium (plan X1, X2): script payloads go into every name a user or an admin
// can give (user name, display name, token, channel, channel tag, redemption, model, group
// ratios' names, an upstream's error text kept in the log) and into the admin's HTML options
// (notice, about, home page, footer, system name). Then every console page is opened, as root
// and as the user, and on each: no dialog opened, no payload code ran (window.__pwned), no
// payload markup became an element ([data-pwn], an on* attribute carrying payload code), the
// beacon server was never called, and the browser reported no blocked inline code (a CSP
// violation means markup got through and only the policy stopped it).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { newUserSession, type ApiSession } from "../helpers/api-session.ts";
import { launchBrowser, newContext } from "../helpers/browser.ts";
import { addChannel, addToken, postRelay } from "../helpers/relay-world.ts";
import { reportFigures, startFaultWorld, type FaultWorld } from "../helpers/fault-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let world: FaultWorld;
let browser: Browser;
let beaconHits = 0;
const beacon = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (beaconHits++, new Response("")) });
const beaconUrl = `http://127.0.0.1:${beacon.port}/`;

beforeAll(async () => {
  world = await startFaultWorld();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await world?.stop();
  beacon.stop(true);
});

const full = [
  `<script>window.__pwned=1;fetch("${beaconUrl}s")</script>`,
  `<img src=x onerror="window.__pwned=1;fetch('${beaconUrl}i')">`,
  `<svg onload="window.__pwned=1"></svg><b data-pwn>`,
  `<a href="javascript:window.__pwned=1" data-pwn>x</a>`,
  `[x](javascript:window.__pwned=1)`,
  `<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>`,
  `"><style>*{background:url(${beaconUrl}c)}</style>`,
].join(" ");

const rootPages = [
  "/",
  "/about",
  "/pricing",
  "/token",
  "/log",
  "/channel",
  "/redemption",
  "/user",
  "/setting",
  "/topup",
  "/playground",
  "/detail",
  "/task",
  "/midjourney",
  "/api-reference",
];
const userPages = ["/", "/token", "/log", "/setting", "/topup", "/playground", "/detail", "/pricing"];

async function accepted(result: Promise<{ body: any }>): Promise<boolean> {
  return Boolean((await result).body.success);
}

test("script payloads in every name and admin HTML option never run on any page", async () => {
  const root = world.root;
  const stored: Record<string, boolean> = {};
  for (const key of ["Notice", "About", "HomePageContent", "Footer", "SystemName"])
    stored[key] = await accepted(root.put("/api/option/", { key, value: full }));
  // Names, each with the longest payload its limit takes.
  const user: ApiSession = await newUserSession(world.server.url, "<b data-pwn>");
  stored.username = true;
  stored.displayName = await accepted(user.put("/api/user/self", { display_name: "<svg/onload=alert()>" }));
  await world.server.store.query("update users set quota = 100000000 where id = ?", user.userId);
  const token = await addToken(user, { name: "<img src=x onerror=alert(1)>" });
  stored.tokenName = true;
  const channelId = await addChannel(world, { key: "sk-xss", name: full.slice(0, 250), models: "gpt-4o-mini", group: "default" });
  stored.channelName = true;
  stored.channelTag = await accepted(root.put("/api/channel/", { id: channelId, tag: "<svg/onload=alert()>" }));
  stored.modelName = await accepted(
    root.post("/api/channel/", {
      name: "models",
      type: ChannelType.OpenAI,
      key: "sk-xss-models",
      base_url: world.upstream.url,
      models: "<b data-pwn>m",
      group: "default",
    }),
  );
  stored.redemptionName = await accepted(root.post("/api/redemption/", { name: "<svg/onload=alert()>", quota: 1, count: 1 }));
  stored.modelRatio = await accepted(
    root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "gpt-4o-mini": 1, "<img src=x onerror=alert(1)>": 2 }) }),
  );
  // An upstream error text and a used token in the logs.
  world.upstream.behave("sk-xss", [
    { status: 400, errorBody: { error: { message: full, type: "invalid_request_error", code: null } } },
    {},
  ]);
  await postRelay(world, "/v1/chat/completions", token.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: full }] });
  expect(
    (await postRelay(world, "/v1/chat/completions", token.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: full }] }))
      .status,
  ).toBe(200);
  // The probes mean nothing if the payloads were not stored where pages show them.
  for (const name of ["Notice", "About", "HomePageContent", "Footer", "username", "tokenName", "channelName"])
    expect({ name, stored: stored[name] }).toEqual({ name, stored: true });

  const findings: string[] = [];
  let visited = 0;
  /** Pages where a payload is on screen as text: the probes reached the page. */
  let shownAsText = 0;
  const visit = async (page: Page, who: string, paths: string[]) => {
    for (const path of [...paths, `/channel/edit/${channelId}`, `/user/edit/${user.userId}`].filter(
      (path) => who === "root" || (!path.startsWith("/channel/edit") && !path.startsWith("/user/edit")),
    )) {
      await page.goto(path, { waitUntil: "load" });
      await page.waitForLoadState("networkidle").catch(() => undefined);
      visited++;
      const seen = await page.evaluate(() => ({
        pwned: (window as any).__pwned ?? null,
        markup: document.querySelectorAll("[data-pwn]").length,
        handlers: [...document.querySelectorAll("*")].filter((element) =>
          [...element.attributes].some((attribute) => attribute.name.startsWith("on") && /__pwned|alert\(/.test(attribute.value)),
        ).length,
        violations: (window as any).__cspViolations ?? [],
        // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees; textContent would add the escaped JSON of scripts and islands
        shown: /data-pwn|onerror=|onload=/.test(document.body.innerText),
      }));
      if (seen.shown) shownAsText++;
      if (seen.pwned !== null || seen.markup || seen.handlers || seen.violations.length)
        findings.push(`${who} ${path}: ${JSON.stringify(seen)}`);
    }
  };
  // Signed in with the sessions the API calls above used (the notice dialog covers the login form).
  for (const [who, session, paths] of [
    ["anonymous", undefined, ["/", "/login", "/register", "/about", "/pricing"]],
    ["root", root, rootPages],
    ["user", user, userPages],
  ] as const) {
    const context = await newContext(browser, { baseURL: world.server.url });
    await context.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) =>
        ((window as any).__cspViolations ??= []).push(`${event.violatedDirective} ${event.sample}`),
      );
    });
    const page = await context.newPage();
    page.on("dialog", (dialog) => {
      findings.push(`${who} ${page.url()}: dialog ${dialog.message()}`);
      void dialog.dismiss();
    });
    if (session) await context.addCookies([{ name: "session", value: session.cookie.slice("session=".length), url: world.server.url }]);
    await visit(page, who, [...paths]);
    await context.close();
  }
  expect(findings).toEqual([]);
  expect(beaconHits).toBe(0);
  expect(shownAsText).toBeGreaterThanOrEqual(10);
  await world.check();
  reportFigures("xss-probes", {
    pagesVisited: visited,
    payloadShownAsText: shownAsText,
    payloadPlaces: Object.entries(stored)
      .filter(([, value]) => value)
      .map(([name]) => name)
      .join(","),
    refusedAtInput:
      Object.entries(stored)
        .filter(([, value]) => !value)
        .map(([name]) => name)
        .join(",") || "none",
  });
}, 300_000);
