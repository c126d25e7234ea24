// The login page of a fresh gateway reached from another address (issue 30): signing root in with
// the default password, the server asks for the setup code, and the page shows the field with
// where to find the code; a wrong code is refused, the right one signs in and the console asks
// for a new password first. From loopback the page stays as it always was. In both languages,
// at desktop and phone sizes. (The address comes from X-Forwarded-For, with TRUST_PROXY.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchBrowser, saveScreenshot, step } from "../helpers/browser.ts";
import { crossCombos, comboName, viewports } from "../helpers/screens.ts";
import { printedSetupCode } from "../helpers/setup-code.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "true" } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const words = {
  zh: {
    username: "用户名或邮箱",
    password: "密码",
    code: "安装码",
    login: "登录",
    asked: "从其他电脑用默认密码登录 root 需要安装码：请在服务器日志中查找含有 setup code 的一行",
    wrong: "安装码错误：请在服务器日志中查找含有 setup code 的一行",
    where: "首次启动时服务器把它写在日志里，在含有 setup code 的一行",
    gate: "设置新密码",
  },
  en: {
    username: "Username or email",
    password: "Password",
    code: "Setup code",
    login: "Log in",
    asked:
      "Signing in as root with the default password from another computer needs the setup code: look for the line containing “setup code” in the server's log",
    wrong: "Wrong setup code: look for the line containing “setup code” in the server's log",
    where: "The server writes it to its log when it first starts, on the line containing “setup code”",
    gate: "Set a new password",
  },
};

describe("the login page from another address", () => {
  for (const combo of crossCombos) {
    test(`asks for the setup code when the server says so (${comboName(combo)})`, async () => {
      const w = words[combo.language];
      const context = await browser.newContext({
        viewport: viewports[combo.screen],
        baseURL: server.url,
        locale: combo.language === "en" ? "en-US" : "zh-CN",
        extraHTTPHeaders: { "x-forwarded-for": "203.0.113.20" },
      });
      if (combo.language === "en") await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
      const page = await context.newPage();
      await step(page, `setup-code-${comboName(combo)}`, async () => {
        await page.goto("/login");
        const form = page.locator('form[data-api-form="POST /api/user/login"]');
        const code = form.getByLabel(w.code, { exact: true });
        // Nobody is asked for a code before the server says so.
        expect(await code.isVisible()).toBe(false);
        await form.getByLabel(w.username, { exact: true }).fill("root");
        await form.getByLabel(w.password, { exact: true }).fill("123456");
        await form.getByRole("button", { name: w.login }).click();
        await page.locator("#toasts").getByText(w.asked).waitFor();
        await code.waitFor();
        expect(await form.getByText(w.where).isVisible()).toBe(true);
        expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("setup_code");
        await saveScreenshot(page, `setup-code-asked-${comboName(combo)}`);
        await code.fill("AAAA-BBBB-CCCC");
        await form.getByRole("button", { name: w.login }).click();
        await page.locator("#toasts").getByText(w.wrong).waitFor();
        await code.fill(printedSetupCode(server.output())!);
        await form.getByRole("button", { name: w.login }).click();
        await page.waitForURL("**/token");
        await page.locator("[data-password-gate]").getByRole("heading", { name: w.gate }).waitFor();
      });
      await context.close();
    }, 90_000);
  }

  test("from loopback the page signs root in without asking", async () => {
    const context = await browser.newContext({ baseURL: server.url, locale: "zh-CN" });
    const page = await context.newPage();
    await step(page, "setup-code-loopback", async () => {
      await page.goto("/login");
      const form = page.locator('form[data-api-form="POST /api/user/login"]');
      await form.getByLabel(words.zh.username, { exact: true }).fill("root");
      await form.getByLabel(words.zh.password, { exact: true }).fill("123456");
      await form.getByRole("button", { name: words.zh.login }).click();
      await page.waitForURL("**/token");
      expect(await form.getByLabel(words.zh.code, { exact: true }).count()).toBe(0);
    });
    await context.close();
  }, 90_000);
});
