// The other pages in a real browser: a user chats in the playground and sees the streamed
// answer (and a stream error appended), a visitor reads /pricing, an admin opens a user from
// /log, and every page of this area is photographed in both languages (and dark, and 600 px).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { type ApiSession, newUserSession, rootSession, rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  root = await rootSession(server.url);
  await root.post("/api/channel/", {
    name: "main",
    type: 1,
    key: "sk-tour",
    base_url: upstream.url,
    models: "gpt-4o-mini,gpt-4o,dall-e-3",
    group: "default,vip",
    tag: "tour",
  });
  await root.post("/api/channel/", {
    name: "broken",
    type: 1,
    key: "sk-tour-broken",
    base_url: upstream.url,
    models: "broken-model",
    group: "default",
  });
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "gpt-4o-mini": 0.075, "gpt-4o": 1.25, "broken-model": 1 }) });
  await root.post("/api/token/", { name: "tour-token" });
  await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer sk-${(await root.get("/api/token/")).body.data[0].key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], stream: true }),
  }).then((response) => response.text());
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

async function signedIn(username: string, password: string, options: { language?: "zh" | "en"; width?: number } = {}): Promise<Page> {
  const context = await newContext(browser, { baseURL: server.url, language: options.language, width: options.width });
  if (options.language === "en") await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
  const page = await context.newPage();
  await loginThroughForm(page, username, password);
  await page.waitForURL("**/token");
  return page;
}

describe("pages", () => {
  test("a user chats in the playground: the answer streams in; a failing model's error is appended", async () => {
    await newUserSession(server.url, "chatuser", "password123");
    await server.store.query("update users set quota = 10000000 where username = 'chatuser'");
    const page = await signedIn("chatuser", "password123");
    await step(page, "playground", async () => {
      await page.goto("/playground");
      upstream.behave("sk-tour", { content: "Streaming works fine today", chunks: 4, chunkDelayMs: 40 });
      await page.getByLabel("消息").fill("Hello?");
      await page.getByRole("button", { name: "发送" }).click();
      await page.locator('.chat-start[data-state="complete"]', { hasText: "Streaming works fine today" }).waitFor();
      expect(await page.locator(".chat-end .chat-bubble").textContent()).toBe("Hello?");
      await saveScreenshot(page, "manage-playground-zh");
      upstream.behave("sk-tour-broken", { errorInStream: true });
      await page.locator("[data-model-picker]").click();
      await page.locator('[data-model="broken-model"]').click();
      await page.getByLabel("消息").fill("Break, please");
      await page.keyboard.press("Enter");
      await page.locator('.chat-start[data-state="error"]', { hasText: "mock stream error" }).waitFor();
      await page.getByRole("button", { name: "清除上下文" }).click();
      expect(await page.locator(".chat").count()).toBe(0);
    });
    await step(page, "playground-clear-while-waiting", async () => {
      // Clearing while the answer is still on its way drops it; the next question works.
      await page.locator("[data-model-picker]").click();
      await page.locator('[data-model="gpt-4o-mini"]').click();
      upstream.behave("sk-tour", { delayMs: 1500, content: "Too late" });
      await page.getByLabel("消息").fill("Slow one");
      await page.keyboard.press("Enter");
      await page.locator('.chat-start[data-state="loading"]').waitFor();
      await page.getByRole("button", { name: "清除上下文" }).click();
      await page.waitForTimeout(2500);
      expect(await page.locator(".chat").count()).toBe(0);
      upstream.behave("sk-tour", { content: "Back again", chunks: 2 });
      await page.getByLabel("消息").fill("Again?");
      await page.keyboard.press("Enter");
      await page.locator('.chat-start[data-state="complete"]', { hasText: "Back again" }).waitFor();
      expect(await page.locator(".chat").count()).toBe(2);
    });
    const [logged] = await server.store.query<{ token_name: string; user_id: number }>(
      "select token_name, user_id from logs where username = 'chatuser' and model_name = 'gpt-4o-mini'",
    );
    expect(logged!.token_name).toBe("playground-default");
  }, 120_000);

  test("a visitor reads /pricing with the default-group notice", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "visitor-pricing", async () => {
      await page.goto("/pricing");
      await page.getByText("您还未登陆，显示的价格为默认分组倍率").waitFor();
      const row = page.locator("#pricing-table tr", { hasText: "gpt-4o-mini" });
      expect(await row.textContent()).toContain("输入 $0.15 / 1M tokens");
      await page.getByPlaceholder("搜索模型名称").fill("dall");
      await page.locator("#pricing-table tr", { hasText: "gpt-4o-mini" }).waitFor({ state: "detached" });
      expect(await page.locator("#pricing-table").textContent()).toContain("dall-e-3");
      await saveScreenshot(page, "manage-pricing-visitor-zh");
    });
    await context.close();
  }, 120_000);

  test("an admin opens a user's info from /log", async () => {
    const page = await signedIn("root", rootPassword);
    await step(page, "log-user", async () => {
      await page.goto("/log");
      await page.locator("#log-table").getByRole("button", { name: "root" }).first().click();
      const dialog = page.locator("#log-user-info");
      await dialog.getByText("Root User").waitFor();
      expect(await dialog.textContent()).toContain("请求次数");
    });
  }, 120_000);

  for (const language of ["zh", "en"] as const) {
    test(`every page of the area in ${language}, light and dark, and at 600 px`, async () => {
      const page = await signedIn("root", rootPassword, { language });
      for (const path of ["/channel", "/channel?tag_mode=true", "/token", "/log", "/pricing", "/playground", "/chat/0"]) {
        await step(page, `tour-${language}-${path}`, async () => {
          await page.goto(path);
          await page.waitForLoadState("networkidle");
          const name = path.replace(/[^a-z]+/g, "-").replace(/^-|-$/g, "");
          await saveScreenshot(page, `manage-${name}-${language}`);
        });
      }
      await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
      await page.goto("/channel");
      await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
      await saveScreenshot(page, `manage-channel-dark-${language}`);
      const narrow = await signedIn("root", rootPassword, { language, width: 600 });
      for (const path of ["/channel", "/log", "/playground"]) {
        await narrow.goto(path);
        await narrow.waitForLoadState("networkidle");
        // The sidebar is a toggled drawer at this width; the page itself stays usable.
        const sidebar = await narrow.locator("#sidebar").boundingBox();
        expect(sidebar!.x + sidebar!.width).toBeLessThanOrEqual(0);
        expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
        await saveScreenshot(narrow, `manage-narrow-${path.slice(1)}-${language}`);
      }
    }, 120_000);
  }
});
