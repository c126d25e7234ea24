// The console's language in a real browser: a first visit follows the browser's Accept-Language
// (Simplified and Traditional Chinese, English, Japanese), a choice made in the language menu
// (the `lang` cookie) wins over it, and a text the Traditional Chinese or Japanese catalog lacks
// reads in English. The default chat links' names follow the language too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { rootPassword, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer();
  await rootSession(server.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A browser whose language (Accept-Language and navigator.language) is `locale`, with no cookies yet. */
async function visitor(locale: string, cookie?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url, locale });
  if (cookie) await context.addCookies([{ name: "lang", value: cookie, url: server.url }]);
  return { context, page: await context.newPage() };
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const loginButton = (page: Page) => page.locator('form[data-api-form="POST /api/user/login"] button[type="submit"]');

describe("language by browser", () => {
  const firstVisits = [
    { locale: "zh-CN", lang: "zh-CN", login: "登录", active: "简体中文" },
    { locale: "zh-TW", lang: "zh-TW", login: "Log in", active: "繁體中文" },
    { locale: "en-US", lang: "en", login: "Log in", active: "English" },
    { locale: "ja-JP", lang: "ja", login: "Log in", active: "日本語" },
  ];
  for (const visit of firstVisits) {
    test(`a first visit from a ${visit.locale} browser reads in its language (English where the catalog has no text)`, async () => {
      const { context, page } = await visitor(visit.locale);
      await step(page, `first-visit-${visit.locale}`, async () => {
        await page.goto("/login");
        expect(await htmlLang(page)).toBe(visit.lang);
        expect(((await loginButton(page).textContent()) ?? "").trim()).toBe(visit.login);
        // The language menu offers every language, each in its own words, and marks the current one.
        const menu = page.locator("[data-set-language]");
        expect(await menu.allInnerTexts()).toEqual(["简体中文", "繁體中文", "English", "日本語"]);
        expect(((await page.locator("[data-set-language].menu-active").textContent()) ?? "").trim()).toBe(visit.active);
        // No cookie was needed: the browser's language alone decided.
        expect((await context.cookies()).some((cookie) => cookie.name === "lang")).toBe(false);
      });
      await context.close();
    }, 120_000);
  }

  test("/api answers follow the browser's language as the pages do", async () => {
    const { context, page } = await visitor("ja-JP");
    await page.goto("/login");
    // The browser's own fetch, as the console's forms call /api.
    const japanese = await page.evaluate(async () => {
      const response = await fetch("/api/user/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "root", password: "wrong-password" }),
      });
      return (await response.json()) as { success: boolean; message: string };
    });
    const chinese = await fetch(`${server.url}/api/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "root", password: "wrong-password" }),
    }).then((response) => response.json() as Promise<{ message: string }>);
    expect(japanese.success).toBe(false);
    // A script sending no Accept-Language keeps new-api's Chinese; the Japanese browser reads English.
    expect(chinese.message).toMatch(/[\u4e00-\u9fff]/);
    expect(japanese.message).not.toMatch(/[\u4e00-\u9fff]/);
    expect(japanese.message.length).toBeGreaterThan(0);
    await context.close();
  }, 120_000);

  test("the language cookie wins over Accept-Language, and the menu sets it", async () => {
    const { context, page } = await visitor("ja-JP", "zh");
    await step(page, "cookie-wins", async () => {
      await page.goto("/login");
      expect(await htmlLang(page)).toBe("zh-CN");
      expect(((await loginButton(page).textContent()) ?? "").trim()).toBe("登录");
    });
    await step(page, "menu-english", async () => {
      await page.getByRole("button", { name: "语言" }).click();
      await page.getByRole("button", { name: "English" }).click();
      await page.waitForFunction(() => document.documentElement.lang === "en");
      expect(((await loginButton(page).textContent()) ?? "").trim()).toBe("Log in");
      expect((await context.cookies()).find((cookie) => cookie.name === "lang")?.value).toBe("en");
    });
    await step(page, "menu-traditional", async () => {
      await page.getByRole("button", { name: "Language" }).click();
      await page.getByRole("button", { name: "繁體中文" }).click();
      await page.waitForFunction(() => document.documentElement.lang === "zh-TW");
      expect((await context.cookies()).find((cookie) => cookie.name === "lang")?.value).toBe("zh-TW");
      await page.reload();
      expect(await htmlLang(page)).toBe("zh-TW");
    });
    await context.close();
  }, 120_000);

  test("the default chat links' names follow the language; names an admin wrote stay as written", async () => {
    const root = await rootSession(server.url);
    const chats = [
      { "ChatGPT Next Web 官方示例": "https://app.nextchat.dev/#/?settings={}" },
      { "我的聊天 {{x}}": "https://chat.example.com/" },
    ];
    expect((await root.put("/api/option/", { key: "Chats", value: JSON.stringify(chats) })).body.success).toBe(true);
    for (const { locale, names } of [
      { locale: "en-US", names: ["ChatGPT Next Web official demo", "我的聊天 {{x}}"] },
      { locale: "zh-CN", names: ["ChatGPT Next Web 官方示例", "我的聊天 {{x}}"] },
    ]) {
      const { context, page } = await visitor(locale);
      await step(page, `chat-names-${locale}`, async () => {
        await loginThroughForm(page, "root", rootPassword);
        await page.waitForURL("**/token");
        expect(await page.locator('#sidebar ul ul a[href^="/chat/"]').allInnerTexts()).toEqual(names);
        await page.goto("/chat/0");
        expect(await page.title()).toStartWith(names[0]!);
      });
      await context.close();
    }
  }, 90_000);

  test("the API reference's groups, callers, summaries and parameter places follow the language", async () => {
    for (const { locale, group, access, summary, note } of [
      { locale: "zh-CN", group: "渠道接口", access: "管理员", summary: "列出渠道（从不包含密钥）", note: 1 },
      { locale: "en-US", group: "Channels", access: "Admin", summary: "List channels (keys never included)", note: 0 },
    ]) {
      const { context, page } = await visitor(locale);
      await step(page, `api-reference-${locale}`, async () => {
        await loginThroughForm(page, "root", rootPassword);
        await page.waitForURL("**/token");
        await page.goto("/api-reference");
        expect(((await page.locator('h3[data-tag="Channels"]').textContent()) ?? "").trim()).toBe(group);
        const channelList = page.locator('details[data-operation="GET /api/channel/"]');
        expect(((await channelList.locator("summary .badge-outline").textContent()) ?? "").trim()).toBe(access);
        expect(((await channelList.locator("summary .text-base-content\\/70").textContent()) ?? "").trim()).toBe(summary);
        expect(await page.getByText("OpenAPI 文档原文").count()).toBe(note);
      });
      await context.close();
    }
  }, 90_000);
});
