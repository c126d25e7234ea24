// Redemption codes and the wallet in a real browser: an admin creates five codes and copies
// them (all at once and by selection); a user redeems one in /topup and sees the balance change;
// online top-up asks for confirmation and posts the signed form to the payment gateway.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { rootSession, rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

// Browser steps take a few seconds each; bun's default of 5 s per test is too tight for them.
setDefaultTimeout(120_000);

let server: TestServer;
let browser: Browser;
let gateway: ReturnType<typeof Bun.serve>;
const gatewayPosts: URLSearchParams[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await rootSession(server.url);
  browser = await launchBrowser();
  // A stand-in for the Epay gateway's submit.php: records the posted form.
  gateway = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      // The browser also asks for a favicon; only the posted form counts.
      if (request.method === "POST") gatewayPosts.push(new URLSearchParams(await request.text()));
      return new Response("<html><body>payment page</body></html>", { headers: { "content-type": "text/html" } });
    },
  });
});
afterAll(async () => {
  await browser?.close();
  gateway?.stop(true);
  await server?.stop();
});

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function register(page: Page, username: string): Promise<void> {
  await page.goto("/register");
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill("password123");
  await page.locator('input[name="password2"]').fill("password123");
  await page.locator('form[data-api-form] button[type="submit"]').click();
  await page.waitForURL("**/login");
  await loginThroughForm(page, username, "password123");
  await page.waitForURL("**/token");
}

describe("redemption codes and the wallet", () => {
  let codes: string[] = [];

  test("an admin creates five codes, which are shown and copied, and copies a selection", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "admin-login", async () => {
      await loginThroughForm(page, "root", rootPassword);
      await page.waitForURL("**/token");
    });
    await step(page, "create-codes", async () => {
      await page.goto("/redemption");
      await page.getByRole("button", { name: "添加兑换码" }).click();
      const dialog = page.getByRole("dialog", { name: "添加兑换码" });
      await dialog.getByLabel("名称").fill("welcome");
      // In dollars, as the site displays them; the raw units show beside the field.
      await dialog.getByLabel("额度").fill("0.5");
      await dialog.getByText("原始额度: 250000").waitFor();
      await dialog.getByLabel("生成数量").fill("5");
      await dialog.getByRole("button", { name: "提交" }).click();
      await page.getByText("兑换码创建成功，已复制到剪贴板").first().waitFor();
      codes = (await page.locator("#created-codes").inputValue()).split("\n");
      expect(codes).toHaveLength(5);
      for (const code of codes) expect(code).toMatch(/^[0-9a-f]{32}$/);
      expect((await clipboard(page)).split("\n")).toEqual(codes);
      // The table refreshed by itself and lists the new codes.
      await page.locator("#redemption-table").getByText("welcome").first().waitFor();
      expect(await page.locator("#redemption-table tbody tr", { hasText: "welcome" }).count()).toBe(5);
      await saveScreenshot(page, "redemption-created");
    });
    await step(page, "copy-selected", async () => {
      await page.getByRole("button", { name: "复制所选兑换码" }).click();
      await page.getByText("请至少选择一个兑换码！").waitFor();
      const boxes = page.locator("#redemption-table input[data-row]");
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByRole("button", { name: "复制所选兑换码" }).click();
      const copied = (await clipboard(page)).split("\n");
      expect(copied).toHaveLength(2);
      for (const code of copied) expect(codes).toContain(code);
    });
    await step(page, "search", async () => {
      await page.getByRole("searchbox").fill("welcome");
      await page.getByRole("button", { name: "查询" }).click();
      await page.waitForURL("**/redemption?keyword=welcome");
      expect(await page.locator("#redemption-table tbody tr").count()).toBe(5);
    });
    await context.close();
  });

  test("a user redeems a code in /topup and the balance follows", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "register", () => register(page, "walletuser"));
    await step(page, "redeem", async () => {
      await page.goto("/topup");
      const balance = page.getByTestId("wallet-balance");
      expect(await balance.textContent()).toBe("$0.00");
      await page.getByRole("button", { name: "兑换", exact: true }).click();
      await page.getByText("请输入兑换码！").waitFor();
      await page.getByLabel("兑换码", { exact: true }).fill(codes[0]!);
      await page.getByRole("button", { name: "兑换", exact: true }).click();
      await page.getByText("成功兑换额度：$0.50").waitFor();
      expect(await balance.textContent()).toBe("$0.50");
      // One confirmation: the line under the form, no toast saying it again.
      expect(await page.locator("#toasts").getByText("兑换成功！").count()).toBe(0);
      await page.getByLabel("兑换码", { exact: true }).fill(codes[0]!);
      await page.getByRole("button", { name: "兑换", exact: true }).click();
      await page.getByText("兑换失败，该兑换码已被使用").waitFor();
      expect(await balance.textContent()).toBe("$0.50");
      await page.reload();
      expect(await page.getByTestId("wallet-balance").textContent()).toBe("$0.50");
      await saveScreenshot(page, "wallet-redeemed");
    });
    await step(page, "admin-sees-who-redeemed", async () => {
      // The redemption table names the user who redeemed, not only the id.
      const admin = await (await newContext(browser, { baseURL: server.url })).newPage();
      await loginThroughForm(admin, "root", rootPassword);
      await admin.waitForURL("**/token");
      await admin.goto("/redemption");
      const row = admin.locator("#redemption-table tbody tr", { hasText: "walletuser" });
      await row.getByText("walletuser", { exact: true }).waitFor();
      expect(await row.count()).toBe(1);
      const [user] = await server.store.query<{ id: number }>("select id from users where username = 'walletuser'");
      expect(await row.textContent()).toContain(`#${user!.id}`);
      await admin.context().close();
    });
    await step(page, "no-link-no-online", async () => {
      await page.getByRole("button", { name: "获取兑换码" }).click();
      await page.getByText("超级管理员未设置充值链接！").waitFor();
      // Online top-up is off: the card says so and offers no amount or payment buttons.
      await page.getByRole("alert").filter({ hasText: "管理员未开启在线充值！" }).first().waitFor();
      expect(await page.getByRole("button", { name: "支付宝" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "微信" }).count()).toBe(0);
    });
    await context.close();
  }, 120_000);

  test("online top-up: the payable amount, a confirm dialog, and the signed form posted to the gateway", async () => {
    const root = await rootSession(server.url);
    const configured = await root.put("/api/option/", [
      { key: "ServerAddress", value: server.url },
      { key: "PayAddress", value: `http://127.0.0.1:${gateway.port}` },
      { key: "EpayId", value: "2001" },
      { key: "EpayKey", value: "browser-test-key" },
      { key: "MinTopUp", value: "2" },
    ]);
    expect(configured.body.success).toBe(true);
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "login", async () => {
      await loginThroughForm(page, "walletuser", "password123");
      await page.waitForURL("**/token");
    });
    await step(page, "pay", async () => {
      await page.goto("/topup");
      const amount = page.getByLabel("充值数量（美元）");
      await amount.fill("1");
      await page.getByText("错误：充值数量不能小于2").waitFor();
      await amount.fill("3");
      await page.getByTestId("payable").getByText("21.90").waitFor();
      await page.getByRole("button", { name: "微信" }).click();
      const dialog = page.getByRole("dialog", { name: "充值确认" });
      await dialog.getByText("是否确认充值？").waitFor();
      const popup = context.waitForEvent("page");
      await dialog.getByRole("button", { name: "确定" }).click();
      const gatewayPage = await popup;
      await gatewayPage.waitForLoadState();
      expect(await gatewayPage.textContent("body")).toContain("payment page");
      expect(gatewayPosts).toHaveLength(1);
      const form = gatewayPosts[0]!;
      expect(form.get("type")).toBe("wxpay");
      expect(form.get("money")).toBe("21.90");
      expect(form.get("pid")).toBe("2001");
      expect(form.get("sign")).toMatch(/^[0-9a-f]{32}$/);
    });
    await step(page, "orders", async () => {
      await page.reload();
      await page.locator("#topup-orders").getByText("等待支付结果，请稍后刷新页面").waitFor();
      await saveScreenshot(page, "wallet-orders");
    });
    await context.close();
  });
});
