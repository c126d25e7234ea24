// The dashboard island in a real browser: charts drawn from seeded consumption logs, totals that
// match them, granularity switches (the range follows: a day by hour, a week by day), the admin's
// user filter, and a user who sees only their own. Issue 26: a user's three calls through the
// relay show at once (on open and on 查询, no refresh of the rollups), the cards show balance,
// RPM and TPM with trend lines, the charts follow dark mode and switch with the theme toggle, and
// the pickers' button is an icon, not an emoji.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { newUserSession, rootSession, rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { addChannel, addToken, openai, type RelayWorld, startRelayWorld } from "../helpers/relay-world.ts";
import type { TestServer } from "../helpers/test-server.ts";

// Browser steps take a few seconds each; bun's default of 5 s per test is too tight for them.
setDefaultTimeout(90_000);

let world: RelayWorld;
let server: TestServer;
let browser: Browser;
const now = Math.floor(Date.now() / 1000);
const seeded: { userId: number; model: string; quota: number; tokens: number }[] = [];

async function seedLogs(userId: number, username: string, model: string, count: number, quota: number, hoursAgo = 0): Promise<void> {
  for (let index = 0; index < count; index++) {
    await server.store.query(
      `insert into logs (user_id, username, created_at, type, model_name, prompt_tokens, completion_tokens, quota, content, token_name, "group", other)
       values (?, ?, ?, 2, ?, 100, 50, ?, '', 't', 'default', '')`,
      userId,
      username,
      now - hoursAgo * 3600 - 600 - index * 1800,
      model,
      quota,
    );
    if (hoursAgo === 0) seeded.push({ userId, model, quota, tokens: 150 });
  }
}

beforeAll(async () => {
  world = await startRelayWorld();
  server = world.server;
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
  await world?.stop();
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
      await page
        .getByTestId("total-count")
        .getByText(String(seeded.length + 2), { exact: true })
        .waitFor();
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

/** The relative luminance (0 dark to 1 light) of a CSS colour "rgb(r, g, b)". */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? ["0", "0", "0"]).map(Number) as [number, number, number];
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** The fill of the chart's text (legend and axis labels) as the browser paints it. */
const chartTextFill = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator("svg text")
    .first()
    .evaluate((text) => getComputedStyle(text).fill);

describe("live dashboard", () => {
  test("a user's three calls show at once, with balance, RPM and TPM and their trend lines", async () => {
    const caller = await newUserSession(server.url, "caller3");
    await server.store.query("update users set quota = 5000000 where id = ?", caller.userId);
    await addChannel(world, { key: "sk-dashboard-live" });
    const { key } = await addToken(caller, { name: "live" });
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "before-calls", async () => {
      await loginThroughForm(page, "caller3", "password123");
      await page.waitForURL("**/token");
      await page.goto("/detail");
      await page.getByText("所选时间内没有数据").waitFor();
      expect(await page.getByTestId("balance").textContent()).toBe("$10.00");
      expect(await page.getByTestId("total-count").textContent()).toBe("0");
      // The pickers' buttons draw lucide's calendar, not an emoji that needs a font.
      const pick = page.getByRole("button", { name: "选择日期和时间" });
      expect(await pick.count()).toBe(2);
      for (const button of await pick.all()) {
        expect(await button.locator("svg").count()).toBe(1);
        expect((await button.textContent())?.trim()).toBe("");
      }
    });
    const client = openai(world, key);
    for (let index = 0; index < 3; index++)
      await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: `live ${index}` }] });
    const [logged] = await server.store.query<{ quota: number; tokens: number }>(
      "select sum(quota) as quota, sum(prompt_tokens + completion_tokens) as tokens from logs where type = 2 and user_id = ?",
      caller.userId,
    );
    const [account] = await server.store.query<{ quota: number }>("select quota from users where id = ?", caller.userId);
    const dollars = (quota: number) => `$${(quota / 500_000).toFixed(2)}`;
    await step(page, "query-after-calls", async () => {
      // No reload and no refresh of the rollups: 查询 reads the calls from the logs.
      await page.getByRole("button", { name: "查询" }).click();
      await page.getByTestId("total-count").getByText("3", { exact: true }).waitFor();
      expect(await page.getByTestId("total-tokens").textContent()).toBe(String(Number(logged!.tokens)));
      expect(await page.getByTestId("balance").textContent()).toBe(dollars(Number(account!.quota)));
      await chartDrawn(page, "chart-models");
    });
    await step(page, "open-after-calls", async () => {
      await page.reload();
      await chartDrawn(page, "chart-models");
      expect(await page.getByTestId("total-count").textContent()).toBe("3");
      expect(await page.getByTestId("balance").textContent()).toBe(dollars(Number(account!.quota)));
      // Three calls over the last day and its hour ahead: new-api's averages, per minute of the range up to now.
      const rpm = Number(await page.getByTestId("average-rpm").textContent());
      expect(rpm).toBeGreaterThan(0);
      expect(rpm).toBeCloseTo(3 / (24 * 60), 3);
      const tpm = Number(await page.getByTestId("average-tpm").textContent());
      expect(tpm).toBeCloseTo(Number(logged!.tokens) / (24 * 60), 2);
      for (const card of ["total-quota", "total-count", "total-tokens", "average-rpm", "average-tpm"]) {
        const trend = page.getByTestId(`${card}-trend`);
        expect(Number(await trend.getAttribute("data-points"))).toBeGreaterThan(0);
        expect(await trend.locator("polyline").count()).toBe(1);
      }
      await saveScreenshot(page, "dashboard-live");
    });
    await context.close();
  });

  test("charts follow dark mode and switch when the theme is toggled", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    await context.addCookies([{ name: "theme", value: "dark", url: server.url }]);
    const page = await context.newPage();
    await step(page, "dark", async () => {
      await loginThroughForm(page, "root", rootPassword);
      await page.waitForURL("**/token");
      await page.evaluate(() => localStorage.setItem("theme", "dark"));
      await page.goto("/detail");
      await page.locator('[data-testid="chart-models"][data-theme="dark"][data-drawn="true"] svg').waitFor();
      await page.locator('[data-testid="chart-calls"][data-theme="dark"][data-drawn="true"] svg').waitFor();
      expect(luminance(await chartTextFill(page, "chart-models"))).toBeGreaterThan(0.6);
      // The chart's own ground is clear: the card's dark colour shows through.
      const background = await page
        .getByTestId("chart-models")
        .locator("svg > rect")
        .first()
        .evaluate((rect) => getComputedStyle(rect).fill)
        .catch(() => "none");
      expect(["none", "transparent", "rgba(0, 0, 0, 0)"]).toContain(background);
      await saveScreenshot(page, "dashboard-dark");
    });
    await step(page, "toggle-to-light", async () => {
      await page.getByRole("button", { name: "切换主题" }).click();
      await page.locator('[data-testid="chart-models"][data-theme="light"][data-drawn="true"] svg').waitFor();
      expect(luminance(await chartTextFill(page, "chart-models"))).toBeLessThan(0.5);
      await page.getByRole("button", { name: "切换主题" }).click();
      await page.locator('[data-testid="chart-models"][data-theme="dark"][data-drawn="true"] svg').waitFor();
      expect(luminance(await chartTextFill(page, "chart-models"))).toBeGreaterThan(0.6);
    });
    await context.close();
  });
});
