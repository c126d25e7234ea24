// Third-party sign-in in a real browser: the login page shows the methods the site enabled, the
// GitHub button opens the (imitated) authorize page in a new window whose callback signs the
// first window in, WeChat signs in through its code dialog, and a signed-in user binds GitHub
// from the personal settings.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { newUserSession, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startIdentityProviders, type IdentityProviders } from "../helpers/identity-providers.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let browser: Browser;
let providers: IdentityProviders;
beforeAll(async () => {
  providers = startIdentityProviders();
  server = await startTestServer({ env: providers.env });
  browser = await launchBrowser();
  const root = await rootSession(server.url);
  const enabled = await root.put("/api/option/", [
    ...providers.options,
    { key: "GitHubOAuthEnabled", value: "true" },
    { key: "WeChatAuthEnabled", value: "true" },
  ]);
  expect(enabled.body.success).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  providers?.stop();
});

describe("social sign-in", () => {
  test("GitHub: authorize in a new window, the callback signs the first window in", async () => {
    providers.authorizeGitHubAs({ id: 31337, login: "octopus", name: "Octo Pus" }, `${server.url}/oauth/github`);
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "login-page", async () => {
      await page.goto("/login");
      expect(await page.getByRole("button", { name: "使用 LinuxDO 继续" }).count()).toBe(0);
      await saveScreenshot(page, "accounts-login-social");
    });
    await step(page, "github", async () => {
      const popup = context.waitForEvent("page");
      await page.getByRole("button", { name: "使用 GitHub 继续" }).click();
      await popup;
      await page.waitForURL("**/token");
      const [row] = await server.store.query<{ username: string; display_name: string }>(
        "select username, display_name from users where github_id = '31337'",
      );
      expect(row!.display_name).toBe("Octo Pus");
      // The console knows who signed in.
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").username)).toBe(row!.username);
    });
    await context.close();
  }, 120_000);

  test("WeChat: the code from the official account signs in", async () => {
    const code = providers.wechatCode("openid-browser");
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "wechat", async () => {
      await page.goto("/login");
      await page.getByRole("button", { name: "使用微信继续" }).click();
      const dialog = page.getByRole("dialog", { name: "微信扫码登录" });
      await dialog.getByLabel("验证码").fill(code);
      await dialog.getByRole("button", { name: "确定" }).click();
      await page.waitForURL("**/token");
      expect(await server.store.query("select id from users where wechat_id = 'openid-browser'")).toHaveLength(1);
    });
    await context.close();
  }, 120_000);

  test("a signed-in user binds GitHub from the personal settings", async () => {
    await newUserSession(server.url, "quinn");
    providers.authorizeGitHubAs({ id: 4040, login: "quinn-gh" }, `${server.url}/oauth/github`);
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "bind", async () => {
      await loginThroughForm(page, "quinn", "password123");
      await page.waitForURL("**/token");
      await page.goto("/setting");
      const popup = context.waitForEvent("page");
      await page.getByRole("button", { name: "绑定 GitHub 账户" }).click();
      await popup;
      await page.locator("#toasts").getByText("绑定成功！").waitFor();
      await page.getByText("4040", { exact: true }).waitFor();
      expect(await page.getByRole("button", { name: "绑定 GitHub 账户" }).count()).toBe(0);
      await saveScreenshot(page, "accounts-bindings");
    });
    await context.close();
  }, 120_000);
});
