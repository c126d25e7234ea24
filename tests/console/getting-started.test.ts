// The admins' getting-started checklist in a real browser, at desktop and phone sizes, in both
// languages: ticked from what the store says as an operator goes channel -> test -> token ->
// first request -> prices, shown on the home page and on /token, not shown to users, and
// hidden for good once dismissed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { newUserSession, rootPassword, rootSession, type ApiSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { allCombos, comboName, viewports, type Combo } from "../helpers/screens.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  root = await rootSession(server.url);
  await newUserSession(server.url, "someone", "password123");
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

const steps = ["channel", "test", "token", "request", "prices"] as const;
const titles = { zh: "快速上手", en: "Getting started" };

async function browse(combo: Combo, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[combo.screen],
    baseURL: server.url,
    locale: combo.language === "en" ? "en-US" : "zh-CN",
  });
  if (combo.language === "en") await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
  const page = await context.newPage();
  await loginThroughForm(page, username, password);
  await page.waitForURL("**/token");
  return page;
}

/** Which steps the card on the page shows as done. */
async function ticked(page: Page): Promise<string[]> {
  const card = page.locator("[data-getting-started]");
  const done: string[] = [];
  for (const name of steps) if ((await card.locator(`[data-step="${name}"]`).getAttribute("data-done")) === "true") done.push(name);
  return done;
}

async function shownEverywhere(combo: Combo, expected: string[], shot: string): Promise<void> {
  const page = await browse(combo, "root", rootPassword);
  await step(page, `getting-started-${shot}-${comboName(combo)}`, async () => {
    for (const path of ["/", "/token"]) {
      await page.goto(path);
      await page.getByRole("heading", { name: titles[combo.language] }).waitFor();
      expect(await ticked(page)).toEqual(expected);
      if (expected.length === steps.length)
        await page.getByText(combo.language === "zh" ? "全部完成，站点已经可以使用了。" : "All done: the site is ready to use.").waitFor();
      // The card itself fits the screen (the rest of these pages is another suite's business).
      const card = page.locator("[data-getting-started]");
      const box = (await card.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      expect(await card.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    await page.goto("/");
    for (const theme of ["light", "dark"]) {
      await page.evaluate((value) => document.documentElement.setAttribute("data-theme", value), theme);
      await saveScreenshot(page, `getting-started-${shot}-${comboName(combo)}-${theme}`);
    }
  });
  await page.context().close();
}

describe("getting started", () => {
  test("a new site: nothing ticked, the next step is adding a channel", async () => {
    for (const combo of allCombos) await shownEverywhere(combo, [], "new");
    const page = await browse(allCombos[0]!, "root", rootPassword);
    // One next step: /token does not also ask for a first token while no channel could answer it.
    await page.goto("/token");
    await page.locator("[data-getting-started]").waitFor();
    expect(await page.locator("#first-token").getByRole("heading", { name: "还没有令牌" }).count()).toBe(0);
    await page.goto("/");
    const next = page.locator('[data-step="channel"]').getByRole("link");
    expect(await next.getAttribute("href")).toBe("/channel/add");
    await next.click();
    await page.getByRole("heading", { name: "创建新的渠道" }).waitFor();
    await page.context().close();
  }, 120_000);

  test("users never see it", async () => {
    const page = await browse(allCombos[1]!, "someone", "password123");
    for (const path of ["/", "/token"]) {
      await page.goto(path);
      expect(await page.locator("[data-getting-started]").count()).toBe(0);
    }
    await page.context().close();
  }, 120_000);

  test("ticked from the store as the operator goes on; the unpriced models are named", async () => {
    const created = await root.post("/api/channel/", {
      name: "main",
      type: 1,
      key: "sk-steps",
      base_url: upstream.url,
      models: "gpt-4o-mini,house-model",
      group: "default",
    });
    const channelId = created.body.data[0].id as number;
    for (const combo of allCombos.slice(0, 2)) await shownEverywhere(combo, ["channel"], "channel");
    const page = await browse(allCombos[0]!, "root", rootPassword);
    await page.goto("/");
    expect(await page.locator('[data-step="prices"]').textContent()).toContain("未定价：house-model");

    // A failing test does not tick "test"; a passing one does.
    upstream.behave("sk-steps", { status: 500 });
    expect((await root.get(`/api/channel/test/${channelId}`)).body.success).toBe(false);
    await page.reload();
    expect(await ticked(page)).toEqual(["channel"]);
    upstream.behave("sk-steps", {});
    expect((await root.get(`/api/channel/test/${channelId}`)).body.success).toBe(true);
    await page.reload();
    expect(await ticked(page)).toEqual(["channel", "test"]);

    // Once a channel works, the token is the next step and /token offers to create it.
    await page.goto("/token");
    await page.locator("#first-token").getByRole("heading", { name: "还没有令牌" }).waitFor();
    const token = await root.post("/api/token/", { name: "app", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    const key = token.body.data[0].key as string;
    await page.reload();
    expect(await ticked(page)).toEqual(["channel", "test", "token"]);

    const call = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(call.status).toBe(200);
    await page.reload();
    expect(await ticked(page)).toEqual(["channel", "test", "token", "request"]);
    await page.context().close();
    for (const combo of allCombos.slice(2)) await shownEverywhere(combo, ["channel", "test", "token", "request"], "request");

    await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "gpt-4o-mini": 0.075, "house-model": 1 }) });
    for (const combo of allCombos.slice(0, 2)) await shownEverywhere(combo, [...steps], "complete");
  }, 180_000);

  test("hidden once dismissed, on every page, after a reload", async () => {
    const page = await browse(allCombos[1]!, "root", rootPassword);
    await page.goto("/");
    const card = page.locator("[data-getting-started]");
    await card.waitFor();
    await card.getByText("Hide", { exact: true }).click();
    await card.waitFor({ state: "hidden" });
    await page.reload();
    expect(await card.count()).toBe(0);
    await page.goto("/token");
    expect(await card.count()).toBe(0);
    await page.context().close();
  }, 120_000);
});

describe("getting started on a site used before any channel test", () => {
  test('a client\'s successful call ticks "test a channel" as a passing test does', async () => {
    const other = await startTestServer();
    try {
      const admin = await rootSession(other.url);
      await admin.post("/api/channel/", {
        name: "used",
        type: 1,
        key: "sk-used",
        base_url: upstream.url,
        models: "gpt-4o-mini",
        group: "default",
      });
      const token = await admin.post("/api/token/", { name: "app", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
      const doneSteps = async () => {
        const html = await (await fetch(`${other.url}/token`, { headers: { cookie: admin.cookie } })).text();
        return steps.filter((name) => html.includes(`data-step="${name}" data-done="true"`));
      };
      expect(await doneSteps()).toEqual(["channel", "token", "prices"]);
      // A refused call (an unknown model) proves nothing about the channel.
      const refused = await fetch(`${other.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer sk-${token.body.data[0].key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "no-such-model", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(refused.status).not.toBe(200);
      expect(await doneSteps()).toEqual(["channel", "token", "prices"]);
      const call = await fetch(`${other.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer sk-${token.body.data[0].key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(call.status).toBe(200);
      expect(await doneSteps()).toEqual(["channel", "test", "token", "request", "prices"]);
    } finally {
      await other.stop();
    }
  });
});
