// Two-factor and OpenID Connect in a real browser (issue 28): setting TOTP up from the personal
// settings (QR code, secret in text, first code, recovery codes shown once), the sign-in page's
// second step with a code and with a recovery code, the enrolment gate an admin meets when the
// site requires two-factor, and signing in through the OIDC button (a local provider).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { newUserSession, rootSession, type ApiSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startOidcIdentityProvider, type OidcIdentityProvider } from "../helpers/oidc-identity-provider.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { Authenticator, enableTwoFactor } from "../helpers/two-factor.ts";

let server: TestServer;
let browser: Browser;
let root: ApiSession;
let idp: OidcIdentityProvider;
beforeAll(async () => {
  idp = await startOidcIdentityProvider();
  server = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
  browser = await launchBrowser();
  root = await rootSession(server.url);
  // Root's own two-factor comes first: only then may he require it of admins.
  await enableTwoFactor(root);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  idp?.stop();
});

async function toast(page: Page, text: string): Promise<void> {
  await page.locator(".toast, [role=status], [role=alert]").filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
}

/** Sets two-factor up through the personal settings; returns the app and the codes shown. */
async function setUpInBrowser(page: Page): Promise<{ app: Authenticator; recoveryCodes: string[] }> {
  await page.getByRole("button", { name: "启用两步验证" }).click();
  const qr = page.locator("[data-totp-qr] svg");
  await qr.waitFor();
  const secret = ((await page.locator("[data-totp-secret]").textContent()) ?? "").replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const app = new Authenticator(secret);
  await page.locator('[data-totp-panel] input[name="code"]').fill(app.freshCode());
  await page.getByRole("button", { name: "确认启用" }).click();
  await page.locator("[data-recovery-codes] li").nth(9).waitFor();
  const recoveryCodes = await page.locator("[data-recovery-codes] li").allTextContents();
  return { app, recoveryCodes };
}

describe("two-factor in the console", () => {
  test("set up from the personal settings, then asked for at sign-in (code, then recovery code)", async () => {
    await newUserSession(server.url, "tfbrowser");
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    let app!: Authenticator;
    let recoveryCodes: string[] = [];
    await step(page, "totp-setup", async () => {
      await loginThroughForm(page, "tfbrowser", "password123");
      await page.waitForURL("**/token");
      await page.goto("/setting");
      ({ app, recoveryCodes } = await setUpInBrowser(page));
      expect(recoveryCodes).toHaveLength(10);
      await saveScreenshot(page, "two-factor-recovery-codes");
      await page.getByRole("button", { name: "我已保存" }).click();
      await page.locator("#two-factor .badge").filter({ hasText: "已启用" }).waitFor();
      await page.getByText("剩余恢复码：10 个").waitFor();
    });
    await page.evaluate(() => fetch("/api/user/logout"));
    await step(page, "totp-second-step", async () => {
      await loginThroughForm(page, "tfbrowser", "password123");
      await page.waitForURL("**/login?step=2fa");
      await page.locator('form[data-second-step="code"] input[name="code"]').fill("000000");
      await page.locator('form[data-second-step="code"] button[type="submit"]').click();
      await toast(page, "验证码错误或已被使用");
      await page.locator('form[data-second-step="code"] input[name="code"]').fill(app.freshCode());
      await page.locator('form[data-second-step="code"] button[type="submit"]').click();
      await page.waitForURL("**/token");
    });
    await page.evaluate(() => fetch("/api/user/logout"));
    await step(page, "recovery-second-step", async () => {
      await loginThroughForm(page, "tfbrowser", "password123");
      await page.waitForURL("**/login?step=2fa");
      await page.getByText("使用恢复码", { exact: true }).click();
      await page.locator('input[name="recovery_code"]').fill(recoveryCodes[0]!);
      await page.getByRole("button", { name: "使用恢复码登录" }).click();
      await page.waitForURL("**/token");
    });
    await context.close();
  }, 90_000);

  test("an admin the site requires two-factor of meets the enrolment gate until it is on", async () => {
    const admin = await newUserSession(server.url, "tfgated");
    await root.post("/api/user/manage", { id: admin.userId, action: "promote" });
    expect((await root.put("/api/option/", { key: "AdminTwoFactorRequired", value: "true" })).body.success).toBe(true);
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    try {
      await step(page, "two-factor-gate", async () => {
        await loginThroughForm(page, "tfgated", "password123");
        await page.waitForURL("**/token");
        await page.locator("[data-two-factor-gate]").waitFor();
        await page.getByText("管理员要求启用两步验证，请先在个人设置中启用").waitFor();
        await page.goto("/channel");
        await page.locator("[data-two-factor-gate]").waitFor();
        await saveScreenshot(page, "two-factor-gate");
        await setUpInBrowser(page);
        await page.getByRole("button", { name: "我已保存" }).click();
        await page.waitForLoadState("load");
        expect(await page.locator("[data-two-factor-gate]").count()).toBe(0);
        await page.getByRole("heading", { name: "渠道" }).first().waitFor();
      });
    } finally {
      await root.put("/api/option/", { key: "AdminTwoFactorRequired", value: "false" });
      await context.close();
    }
  }, 90_000);
});

describe("OpenID Connect in the console", () => {
  test("the sign-in page's button opens the provider, whose callback signs the first window in", async () => {
    const enabled = await root.put("/api/option/", [...idp.options, { key: "OidcEnabled", value: "true" }]);
    expect(enabled.body.success).toBe(true);
    idp.signInAs({ sub: "browser-sub", preferred_username: "ssouser", name: "SSO User" });
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "oidc-login", async () => {
      await page.goto("/login");
      const popup = context.waitForEvent("page");
      await page.getByRole("button", { name: "使用 Acme SSO 继续" }).click();
      await popup;
      await page.waitForURL("**/token");
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").username)).toBe("ssouser");
    });
    await step(page, "oidc-binding-shown", async () => {
      await page.goto("/setting");
      await page.getByText("browser-sub").waitFor();
    });
    await context.close();
  }, 120_000);
});
