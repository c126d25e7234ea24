// Passkeys in a real browser (issue 28), with Chromium's DevTools virtual authenticator (CDP
// WebAuthn.enable / addVirtualAuthenticator) standing in for a phone or a security key: register
// a passkey from the personal settings, sign in with it alone, use it as the second step of a
// password sign-in, rename and remove it; and the pages at 390 px, light and dark. WebAuthn needs a host name
// (not an address) for its relying party: the browser reaches the server as localhost.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { type ApiSession, newUserSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { answerConfirmation } from "../helpers/confirm-dialog.ts";
import { sidewaysOverflow } from "../helpers/page-overflow.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { enableTwoFactor } from "../helpers/two-factor.ts";

let server: TestServer;
let browser: Browser;
let siteUrl: string;
beforeAll(async () => {
  server = await startTestServer();
  siteUrl = `http://localhost:${server.port}`;
  browser = await launchBrowser(["--host-resolver-rules=MAP localhost 127.0.0.1"]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A platform authenticator that holds discoverable credentials and verifies the user. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function toast(page: Page, text: string): Promise<void> {
  await page.locator(".toast, [role=status], [role=alert]").filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
}

const sessionMethods = async (username: string) =>
  (
    await server.store.query<{ method: string }>(
      "select s.method from sessions s join users u on u.id = s.user_id where u.username = ? order by s.id",
      username,
    )
  ).map((row) => row.method);

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => fetch("/api/user/logout", { credentials: "same-origin" }));
  await page.context().clearCookies();
}

describe("passkeys", () => {
  let context: BrowserContext;
  let page: Page;
  let api: ApiSession;
  beforeAll(async () => {
    api = await newUserSession(siteUrl, "keyholder");
    context = await newContext(browser, { baseURL: siteUrl });
    page = await context.newPage();
    await addVirtualAuthenticator(page);
  });
  afterAll(() => context?.close());

  test("registered from the personal settings, named, listed, renamed", async () => {
    await step(page, "passkey-register", async () => {
      await loginThroughForm(page, "keyholder", "password123");
      await page.waitForURL("**/token");
      await page.goto("/setting");
      await page.getByRole("heading", { name: "通行密钥" }).waitFor();
      await page.getByLabel("通行密钥名称").fill("Work laptop");
      await page.getByRole("button", { name: "添加通行密钥" }).click();
      await toast(page, "通行密钥已添加");
      await page.locator("#passkeys-region").getByText("Work laptop").waitFor();
      await page.locator("#passkeys-region").getByText("从未使用").waitFor();
      // Renamed in place.
      await page.locator("#passkeys-region").getByText("重命名").click();
      await page.locator('#passkeys-region input[name="name"]').fill("Office laptop");
      await page.locator("#passkeys-region").getByRole("button", { name: "保存" }).click();
      await page.locator("#passkeys-region").getByText("Office laptop").waitFor();
      await saveScreenshot(page, "passkeys-settings");
    });
    const rows = await server.store.query<{ name: string; user_handle: string; public_key: string }>(
      "select name, user_handle, public_key from passkeys",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe("Office laptop");
    expect(rows[0]!.public_key.length).toBeGreaterThan(40);
  }, 120_000);

  test("signs in alone: no password, no second step", async () => {
    await signOut(page);
    await step(page, "passkey-login", async () => {
      await page.goto("/login");
      await page.getByRole("button", { name: "使用通行密钥登录" }).click();
      await page.waitForURL("**/token");
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").username)).toBe("keyholder");
    });
    expect((await sessionMethods("keyholder")).at(-1)).toBe("passkey");
    const [passkey] = await server.store.query<{ last_used_at: number }>("select last_used_at from passkeys");
    expect(passkey!.last_used_at).toBeGreaterThan(0);
  }, 120_000);

  test("is the second step of a password sign-in when two-factor is on", async () => {
    await enableTwoFactor(api);
    await signOut(page);
    await step(page, "passkey-second-step", async () => {
      await loginThroughForm(page, "keyholder", "password123");
      await page.waitForURL("**/login?step=2fa");
      await page.getByRole("heading", { name: "两步验证" }).waitFor();
      await page.getByRole("button", { name: "使用通行密钥验证" }).click();
      await page.waitForURL("**/token");
    });
    expect((await sessionMethods("keyholder")).at(-1)).toBe("password+passkey");
  }, 120_000);

  test("removed from the personal settings, it signs nobody in any more", async () => {
    await step(page, "passkey-remove", async () => {
      await page.goto("/setting");
      await page.locator("#passkeys-region").getByRole("button", { name: "删除" }).click();
      expect(await answerConfirmation(page)).toBe("确定要删除通行密钥「Office laptop」吗？");
      await toast(page, "通行密钥已删除");
      await page.locator("#passkeys-region").getByText("还没有通行密钥").waitFor();
    });
    expect(await server.store.query("select id from passkeys")).toHaveLength(0);
    await signOut(page);
    await step(page, "passkey-removed-login", async () => {
      await page.goto("/login");
      await page.getByRole("button", { name: "使用通行密钥登录" }).click();
      await toast(page, "通行密钥验证失败");
      expect(new URL(page.url()).pathname).toBe("/login");
    });
  }, 120_000);
});

describe("the security pages on a phone", () => {
  test("login second step and personal settings fit 390 px, light and dark, in both languages", async () => {
    const owner = await newUserSession(siteUrl, "phoneuser");
    await enableTwoFactor(owner);
    for (const language of ["zh", "en"] as const) {
      const context = await newContext(browser, { baseURL: siteUrl, width: 390, language });
      await context.addCookies([{ name: "lang", value: language, url: siteUrl }]);
      const page = await context.newPage();
      await step(page, `phone-${language}`, async () => {
        await page.goto("/login");
        await page.locator('input[name="username"]').fill("phoneuser");
        await page.locator('input[name="password"]').fill("password123");
        await page.locator('form[data-api-form="POST /api/user/login"] button[type="submit"]').click();
        await page.waitForURL("**/login?step=2fa");
        for (const theme of ["light", "dark"] as const) {
          await page.evaluate((value) => document.documentElement.setAttribute("data-theme", value), theme);
          expect(await sidewaysOverflow(page)).toBeNull();
          await saveScreenshot(page, `security-second-step-${language}-${theme}-390`);
        }
        // Signed in with a recovery-free path: the API session's cookie for the settings page.
        await context.addCookies([{ name: "session", value: owner.cookie.replace(/^session=/, ""), url: siteUrl }]);
        await page.evaluate((id) => localStorage.setItem("user", JSON.stringify({ id, username: "phoneuser" })), owner.userId);
        await page.goto("/setting");
        await page.getByRole("heading", { name: language === "zh" ? "两步验证" : "Two-factor authentication" }).waitFor();
        for (const theme of ["light", "dark"] as const) {
          await page.evaluate((value) => document.documentElement.setAttribute("data-theme", value), theme);
          expect(await sidewaysOverflow(page)).toBeNull();
          await saveScreenshot(page, `security-settings-${language}-${theme}-390`);
        }
      });
      await context.close();
    }
  }, 90_000);
});
