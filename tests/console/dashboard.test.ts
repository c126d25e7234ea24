// The dashboard island in a real browser: charts drawn from seeded consumption logs, totals that
// match them, granularity switches (the range follows: a day by hour, a week by day), the admin's
// user filter, and a user who sees only their own.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { newUserSession, rootSession, rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

// Browser steps take a few seconds each; bun's default of 5 s per test is too tight for them.
setDefaultTimeout(30_000);

let server: TestServer;
let browser: Browser;
const now = Math.floor(Date.now() / 1000);
const seeded: { userId: number; model: string; quota: number; tokens: number }[] = [];

async function seedLogs(userId: number, username: string, model: string, count: number, quota: number, hoursAgo = 0): Promise<void> {
  for (let index = 0; index < count; index++) {
    await server.store.query(
      `insert into logs (user_id, username, created_at, type, model_name, prompt_tokens, completion_tokens, quota, content, token_name, "group", other)
       values (?, ?, ?, 2, ?, 100, 50, ?, '', 't', 'default', '')`,
      userId, username, now - hoursAgo * 3600 - 600 - index * 1800, model, quota,
    );
    if (hoursAgo === 0) seeded.push({ userId, model, quota, tokens: 150 });
  }
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const analyst = await newUserSession(server.url, "analyst");
  await seedLogs(1, "root", "gpt-4o", 6, 50_000);
  await seedLogs(1, "root", "claude-3-5-sonnet", 4, 20_000);
  await seedLogs(analyst.userId!, "analyst", "deepseek-chat", 5, 10_000);
  // Three days old: outside the default day-by-hour range, inside the week shown by day.
  await seedLogs(1, "root", "gemini-1.5-pro", 2, 30_000, 72);
  const root = await rootSession(server.url);
  expect((await root.post("/api/data/refresh")).body.success).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function chartDrawn(page: Page, testId: string): Promise<void> {
  await page.locator(`[data-testid="${testId}"][data-drawn="true"] svg`).first().waitFor();
}

describe("dashboard", () => {
  test("an admin sees model and user charts drawn from the logs, by hour and by day, and filters by user", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "login", async () => {
      await loginThroughForm(page, "root", rootPassword);
      await page.waitForURL("**/token");
    });
    await step(page, "charts", async () => {
      await page.goto("/detail");
      for (const chart of ["chart-models", "chart-calls", "chart-users"]) await chartDrawn(page, chart);
      expect(await page.getByTestId("total-count").textContent()).toBe(String(seeded.length));
      expect(await page.getByTestId("total-tokens").textContent()).toBe(String(seeded.length * 150));
      const quota = seeded.reduce((sum, log) => sum + log.quota, 0);
      expect(await page.getByTestId("total-quota").textContent()).toBe(`$${(quota / 500_000).toFixed(2)}`);
      for (const model of ["gpt-4o", "claude-3-5-sonnet", "deepseek-chat"]) {
        await page.getByTestId("chart-models").locator("text", { hasText: model }).first().waitFor();
      }
      await page.getByTestId("chart-users").locator("text", { hasText: "analyst" }).first().waitFor();
      await saveScreenshot(page, "dashboard-admin");
    });
    await step(page, "by-day", async () => {
      expect(await page.getByTestId("chart-models").locator("text", { hasText: "gemini-1.5-pro" }).count()).toBe(0);
      // By day the range becomes the last week, which holds the three-day-old calls too.
      await page.getByLabel("时间粒度").selectOption("day");
      await page.getByTestId("total-count").getByText(String(seeded.length + 2), { exact: true }).waitFor();
      await chartDrawn(page, "chart-models");
      await page.getByTestId("chart-models").locator("text", { hasText: "gemini-1.5-pro" }).first().waitFor();
      const today = new Date();
      const label = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
      await page.getByTestId("chart-models").locator("text", { hasText: label }).first().waitFor();
    });
    await step(page, "filter", async () => {
      await page.getByLabel("用户名称").fill("analyst");
      await page.getByRole("button", { name: "查询" }).click();
      await page.getByTestId("total-count").getByText("5", { exact: true }).waitFor();
      await chartDrawn(page, "chart-users");
      expect(await page.getByTestId("chart-models").locator("text", { hasText: "gpt-4o" }).count()).toBe(0);
    });
    await context.close();
  });

  test("a user sees only their own consumption and no user chart", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "user", async () => {
      await loginThroughForm(page, "analyst", "password123");
      await page.waitForURL("**/token");
      await page.goto("/detail");
      await chartDrawn(page, "chart-models");
      expect(await page.getByTestId("total-count").textContent()).toBe("5");
      expect(await page.getByTestId("chart-users").count()).toBe(0);
      expect(await page.getByLabel("用户名称").count()).toBe(0);
      await saveScreenshot(page, "dashboard-user");
    });
    await context.close();
  });
});
