// The console shell in a real browser: sign-in, language and theme switches that persist,
// sign-out, the route guard and the not-found page. (Root's first sign-in with the default
// password is tests/console/first-run.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { rootSession, rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
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

describe("console shell", () => {
  test("root signs in, switches language and theme, signs out", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "login", async () => {
      await loginThroughForm(page, "root", rootPassword);
      await page.waitForURL("**/token");
    });
    await step(page, "shell-zh", async () => {
      await page.goto("/setting");
      await page.getByRole("heading", { name: "个人信息" }).waitFor();
      expect(await page.getByRole("link", { name: "渠道" }).count()).toBe(1);
      expect(await page.getByRole("link", { name: "用户管理" }).count()).toBe(1);
      await saveScreenshot(page, "shell-zh");
    });
    await step(page, "english", async () => {
      await page.getByRole("button", { name: "语言" }).click();
      await page.getByRole("button", { name: "English" }).click();
      await page.getByRole("heading", { name: "Profile" }).waitFor();
      expect(await page.getByRole("link", { name: "Channels" }).count()).toBe(1);
      await saveScreenshot(page, "shell-en");
      await page.reload();
      await page.getByRole("heading", { name: "Profile" }).waitFor();
    });
    await step(page, "dark", async () => {
      const before = await page.evaluate(() => document.documentElement.dataset.theme ?? "light");
      await page.getByRole("button", { name: "Toggle theme" }).click();
      const after = await page.evaluate(() => document.documentElement.dataset.theme);
      expect(after).not.toBe(before);
      await page.reload();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);
      // The server rendered the choice, so there is no flash of the other theme.
      const html = await (await page.request.get("/setting")).text();
      expect(html).toContain(`data-theme="${after}"`);
    });
    await step(page, "logout", async () => {
      await page.getByRole("button", { name: "Account" }).click();
      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL("**/login");
      await page.goto("/setting");
      await page.waitForURL("**/login");
    });
    await context.close();
  });

  test("a visitor is sent from a protected page to /login and sees the not-found text elsewhere", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "guard", async () => {
      const response = await page.goto("/setting");
      expect(page.url()).toEndWith("/login");
      expect(response?.status()).toBe(200);
    });
    await step(page, "not-found", async () => {
      const response = await page.goto("/no/such/page");
      expect(response?.status()).toBe(404);
      await page.getByText("页面不存在").waitFor();
      await page.getByText("请检查你的浏览器地址是否正确").waitFor();
    });
    await step(page, "expired", async () => {
      await page.goto("/login?expired=true");
      await page.getByText("未登录或登录已过期，请重新登录").waitFor();
    });
    await context.close();
  });

  test("a 401 from /api sends the console to /login?expired=true", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
    await page.goto("/setting");
    // The session ends elsewhere (e.g. a password change in another tab).
    await context.clearCookies();
    await page.getByRole("button", { name: "生成令牌" }).click();
    await page.waitForURL("**/login?expired=true");
    await page.getByText("未登录或登录已过期，请重新登录").waitFor();
    await context.close();
  });

  test("the New Year greeting appears on 1 January only, and sets off fireworks", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date(2031, 5, 15, 12, 0, 0));
    await page.goto("/about");
    expect(await page.getByRole("button", { name: "新年快乐" }).isVisible()).toBe(false);
    await page.clock.setFixedTime(new Date(2031, 0, 1, 9, 30, 0));
    await page.reload();
    const greeting = page.getByRole("button", { name: "新年快乐" });
    await greeting.waitFor();
    await greeting.click();
    await page.getByText("🎆").first().waitFor({ state: "attached" });
    await context.close();
  });

  test("a table refreshed after the session ended sends the console to /login?expired=true", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
    await context.clearCookies();
    await page.getByLabel("每页条数").selectOption("20");
    await page.waitForURL("**/login?expired=true");
    await page.getByText("未登录或登录已过期，请重新登录").waitFor();
    await context.close();
  });

  test("a table refresh answered by an error page shows the status in a toast, not the page's HTML", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
    await page.route(/\/token\?/, (route) =>
      route.request().headers()["hx-request"] === "true"
        ? route.fulfill({
            status: 404,
            contentType: "text/html; charset=utf-8",
            body: "<!doctype html><html><body><h1>页面不存在</h1></body></html>",
          })
        : route.continue(),
    );
    await page.getByLabel("每页条数").selectOption("50");
    await page.locator("#toasts").getByText("错误：404", { exact: true }).waitFor();
    expect(await page.locator("#toasts").textContent()).not.toContain("<");
    await context.close();
  });

  test("/api failures show the spec's texts; a refused clipboard shows the text in a dialog", async () => {
    const root = await rootSession(server.url);
    const key = (await root.post("/api/token/", { name: "errors-token" })).body.data[0].key as string;
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
    const row = page.locator("#token-table tr", { hasText: "errors-token" });
    const toast = (text: string) => page.locator("#toasts").getByText(text, { exact: true }).first().waitFor();
    const answers: [number, string, string][] = [
      [429, "{}", "错误：请求次数过多，请稍后再试！"],
      [500, "{}", "错误：服务器内部错误，请联系管理员！"],
      [405, "{}", "本站仅作演示之用，无服务端！"],
      [503, '{"success":false,"message":"upstream away"}', "错误：upstream away"],
      [200, '{"success":false,"message":"令牌已过期"}', "令牌已过期"],
    ];
    for (const [status, body, shown] of answers) {
      await step(page, `http-${status}`, async () => {
        await page.route("**/api/token/?status_only=true", (route) => route.fulfill({ status, contentType: "application/json", body }));
        await row.getByRole("button", { name: "禁用" }).click();
        await toast(shown);
        await page.unroute("**/api/token/?status_only=true");
      });
    }
    await step(page, "clipboard-fallback", async () => {
      await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"));
      });
      await row.getByRole("button", { name: "复制", exact: true }).click();
      const dialog = page.locator("#copy-fallback");
      await dialog.getByText("无法复制到剪贴板，请手动复制").waitFor();
      expect(await dialog.locator("textarea").inputValue()).toBe(`sk-${key}`);
      await saveScreenshot(page, "shell-copy-fallback");
    });
    await context.close();
  });

  test("the collapsed sidebar is remembered across pages and reloads", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
    await page.goto("/setting");
    const sidebar = page.locator("#sidebar");
    const wide = (await sidebar.boundingBox())!.width;
    await page.getByRole("button", { name: "收起侧边栏" }).click();
    const narrow = (await sidebar.boundingBox())!.width;
    expect(narrow).toBeLessThan(wide / 2);
    await page.reload();
    expect((await sidebar.boundingBox())!.width).toBe(narrow);
    expect(await page.evaluate(() => localStorage.getItem("default_collapse_sidebar"))).toBe("true");
    await context.close();
  });

  test("at 600 px the sidebar is a drawer opened from the top bar", async () => {
    const context = await newContext(browser, { baseURL: server.url, width: 600 });
    const page = await context.newPage();
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
    await page.goto("/setting");
    const sidebar = page.locator("#sidebar");
    const hiddenBox = await sidebar.boundingBox();
    expect(hiddenBox!.x + hiddenBox!.width).toBeLessThanOrEqual(1);
    await page.getByRole("button", { name: "菜单" }).click();
    await page.waitForTimeout(400);
    const shownBox = await sidebar.boundingBox();
    expect(shownBox!.x).toBeGreaterThanOrEqual(0);
    await saveScreenshot(page, "shell-mobile");
    await context.close();
  });
});
