// The /audit page in Chromium (issue 27 item 4): root finds it in the admin menu, sees the
// changes made through the API with who and what, narrows them by actor and by action, and
// exports the filtered entries as CSV, in which the channel's canary key never appears; a
// common user does not get the page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { type ApiSession, newUserSession, rootPassword, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let browser: Browser;
let root: ApiSession;
const canary = "sk-canary-audit-page-9d41";

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  await root.post("/api/channel/", { name: "audited-channel", type: 1, key: canary, models: "gpt-4o-mini", group: "default" });
  const dave = await newUserSession(server.url, "dave");
  await dave.post("/api/token/", { name: "dave-key" });
  await root.put("/api/option/", { key: "SystemName", value: "Audit Page" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function rootPage(): Promise<Page> {
  const context = await newContext(browser, { baseURL: server.url });
  const page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return page;
}

const rows = (page: Page) => page.locator("#audit-table tbody tr");

describe("/audit", () => {
  test("listed in the admin menu; filtered by actor and action; exported as CSV without secrets", async () => {
    const page = await rootPage();
    await step(page, "open-from-menu", async () => {
      await page.goto("/token");
      await page.locator('a[href="/audit"]').first().click();
      await page.waitForURL("**/audit");
      await rows(page).filter({ hasText: "channel.create" }).waitFor();
      expect(await rows(page).count()).toBe(3);
      const created = rows(page).filter({ hasText: "channel.create" });
      expect(await created.textContent()).toContain("root #1");
      expect(await created.textContent()).toContain("name:  → audited-channel");
      expect(await created.textContent()).toContain("key: 已更改");
      expect(await page.content()).not.toContain(canary);
    });
    await step(page, "filter-actor", async () => {
      await page.locator('#audit-filters input[name="actor"]').fill("dave");
      await page.locator("#audit-filters").getByRole("button", { name: "查询" }).click();
      await page.waitForURL(/actor=dave/);
      await page.waitForFunction(() => document.querySelectorAll("#audit-table tbody tr").length === 1);
      expect(await rows(page).first().textContent()).toContain("token.create");
      expect(await rows(page).first().textContent()).toContain("dave #");
    });
    await step(page, "filter-action", async () => {
      await page.locator('#audit-filters input[name="actor"]').fill("");
      await page.locator('#audit-filters input[name="action"]').fill("option");
      await page.locator("#audit-filters").getByRole("button", { name: "查询" }).click();
      await page.waitForURL(/action=option/);
      await page.waitForFunction(() => document.querySelectorAll("#audit-table tbody tr").length === 1);
      expect(await rows(page).first().textContent()).toContain("SystemName");
    });
    await step(page, "export-csv", async () => {
      await page.locator('#audit-filters input[name="action"]').fill("");
      await page.locator("#audit-filters").getByRole("button", { name: "查询" }).click();
      await page.waitForFunction(() => document.querySelectorAll("#audit-table tbody tr").length === 3);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "导出 CSV" }).click()]);
      const csv = readFileSync((await download.path())!, "utf8").replace(/^\ufeff/, "");
      const [header, ...lines] = csv.trim().split(/\r?\n(?=\d{4}-)/);
      expect(header).toBe("时间,操作人 ID,操作人,IP 地址,动作,对象类型,对象 ID,变更");
      expect(lines).toHaveLength(3);
      expect(lines.find((line) => line.includes("channel.create"))).toContain("key: 已更改");
      expect(lines.find((line) => line.includes("token.create"))).toContain(",dave,");
      expect(csv).not.toContain(canary);
    });
  }, 90_000);

  test("a common user gets no /audit page and no menu entry", async () => {
    await newUserSession(server.url, "erin");
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "erin", "password123");
    await page.waitForURL("**/token");
    expect(await page.locator('a[href="/audit"]').count()).toBe(0);
    const answer = await page.goto("/audit");
    expect(answer?.status()).toBe(403);
    expect(await page.content()).not.toContain("audit-table");
  }, 120_000);
});
