// Issue 17's tables, numbers and time at desktop size (1366 px), in Chinese and English: the
// shared pagination, compact channel rows, small amounts that do not read as $0.00, quota fields
// in dollars with the raw units beside them, the token expiry picker with its never switch, one
// date format in the dashboard's pickers, and a dashboard that rolls up stale data on open.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { type ApiSession, newUserSession, rootSession, rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

setDefaultTimeout(90_000);

let server: TestServer;
let browser: Browser;
let root: ApiSession;
const now = Math.floor(Date.now() / 1000);
const dateTimeFormat = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  browser = await launchBrowser();
  // 60 calls of 35 units each: 2100 units in all, $0.0042 at 500000 units to the dollar.
  for (let index = 0; index < 60; index++) {
    await server.store.query(
      `insert into logs (user_id, username, created_at, type, model_name, prompt_tokens, completion_tokens, quota, content, token_name, "group", other)
       values (1, 'root', ?, 2, 'gpt-4o-mini', 10, 5, 35, '', 't', 'default', '')`,
      now - 60 - index * 30,
    );
  }
  for (const [name, groups] of [
    ["compact-a", ["default"]],
    ["a-channel-with-a-rather-long-descriptive-name", ["default", "vip"]],
    ["compact-c", ["default"]],
  ] as const) {
    expect(
      (await root.post("/api/channel/", { name, type: 1, key: `sk-${name}`, models: "gpt-4o-mini,gpt-4o", groups })).body.success,
    ).toBe(true);
  }
  await server.store.query("update channels set used_quota = 2100, balance = 0.0042");
  const otherInfo = JSON.stringify({ status_reason: "Incorrect API key provided: sk-abc…", status_time: now - 100 });
  await server.store.query("update channels set status = 3, other_info = ? where name = 'compact-c'", otherInfo);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function rootPage(language: "zh" | "en" = "zh"): Promise<Page> {
  const context = await newContext(browser, { baseURL: server.url, width: 1366, language });
  await context.addCookies([{ name: "lang", value: language, url: server.url }]);
  const page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  return page;
}

const pageNumbers = (page: Page) =>
  page
    .locator("#log-table [data-pagination] .join")
    .first()
    .locator(".join-item")
    .evaluateAll((items) => items.map((item) => item.textContent?.trim()));

describe("tables, numbers and time", () => {
  test("pagination: previous and next, numbers with ellipses, jump, totals", async () => {
    for (const language of ["zh", "en"] as const) {
      const page = await rootPage(language);
      await step(page, `pagination-${language}`, async () => {
        await page.goto("/log?page_size=10");
        // A full page's pager is counted after the rows show (log-table.tsx).
        const totals = page.locator("#log-table [data-page-totals]");
        await totals.waitFor();
        expect(await totals.textContent()).toBe(language === "zh" ? "共 6 页，60 条" : "Pages: 6 · rows: 60");
        expect(await pageNumbers(page)).toEqual(["‹", "1", "2", "3", "…", "6", "›"]);
        const previous = page.locator("#log-table").getByLabel(language === "zh" ? "上一页" : "Previous page");
        expect(await previous.isDisabled()).toBe(true);
        await page
          .locator("#log-table")
          .getByLabel(language === "zh" ? "下一页" : "Next page")
          .click();
        await page.locator('#log-table [aria-current="page"]', { hasText: "2" }).waitFor();
        await page
          .locator("#log-table")
          .getByLabel(language === "zh" ? "跳转到页" : "Page to go to")
          .fill("5");
        await page
          .locator("#log-table")
          .getByRole("button", { name: language === "zh" ? "跳转" : "Go", exact: true })
          .click();
        await page.locator('#log-table [aria-current="page"]', { hasText: "5" }).waitFor();
        expect(page.url()).toContain("p=5");
        // 3 to 6 around page 5; page 2 alone would hide behind an ellipsis, so it is shown.
        expect(await pageNumbers(page)).toEqual(["‹", "1", "2", "3", "4", "5", "6", "›"]);
        await page.locator("#log-table").getByRole("button", { name: "1", exact: true }).click();
        await page.locator('#log-table [aria-current="page"]', { hasText: "1" }).waitFor();
        await saveScreenshot(page, `lists-pagination-${language}`);
      });
      await page.context().close();
    }
  });

  test("channel rows: one line, test and edit visible, the rest in a menu, no clipping at 1366 px", async () => {
    for (const language of ["zh", "en"] as const) {
      const page = await rootPage(language);
      await step(page, `channel-rows-${language}`, async () => {
        await page.goto("/channel");
        const rows = page.locator("#channel-table tr[data-channel-row]");
        await rows.first().waitFor();
        const heights = await rows.evaluateAll((elements) => elements.map((row) => row.getBoundingClientRect().height));
        for (const height of heights) expect(height).toBeLessThan(56);
        const fits = await page.locator("#channel-table table").evaluate((table) => {
          const box = table.getBoundingClientRect();
          const wrapper = table.parentElement!;
          return {
            right: box.right,
            viewport: window.innerWidth,
            scroll: wrapper.scrollWidth,
            client: wrapper.clientWidth,
            documentScroll: document.documentElement.scrollWidth,
          };
        });
        expect(fits.right).toBeLessThanOrEqual(fits.viewport);
        expect(fits.scroll).toBeLessThanOrEqual(fits.client + 1);
        expect(fits.documentScroll).toBeLessThanOrEqual(fits.viewport);
        const header = page.locator("#channel-table th").last();
        expect(await header.textContent()).toBe(language === "zh" ? "操作" : "Actions");
        const row = rows.filter({ hasText: "compact-a" });
        const visibleButtons = await row
          .locator("td")
          .last()
          // Named buttons (the test menu's toggle has its own label) are not part of the row's words.
          .locator("button:visible:not([aria-label])")
          .evaluateAll((buttons) => buttons.map((button) => button.textContent?.trim()).filter(Boolean));
        expect(visibleButtons).toEqual(language === "zh" ? ["测试", "编辑"] : ["Test", "Edit"]);
        await row.getByLabel(language === "zh" ? "选择测试模型" : "Choose the test model").waitFor();
        await row.getByLabel(language === "zh" ? "更多操作" : "More actions").click();
        for (const action of language === "zh" ? ["禁用", "复制", "删除"] : ["Disable", "Copy", "Delete"]) {
          await row.getByRole("button", { name: action, exact: true }).waitFor();
        }
        await saveScreenshot(page, `lists-channel-rows-${language}`);
        await page.keyboard.press("Escape");
      });
      await step(page, `channel-tag-rows-${language}`, async () => {
        await server.store.query("update channels set tag = 'team-blue' where name in ('compact-a', 'compact-c')");
        await page.goto("/channel?tag_mode=true");
        await page.locator('#channel-table tr[data-tag-row="team-blue"]').waitFor();
        const fits = await page.locator("#channel-table table").evaluate((table) => ({
          right: table.getBoundingClientRect().right,
          scroll: table.parentElement!.scrollWidth,
          client: table.parentElement!.clientWidth,
          documentScroll: document.documentElement.scrollWidth,
          viewport: window.innerWidth,
        }));
        expect(fits.scroll).toBeLessThanOrEqual(fits.client + 1);
        expect(fits.documentScroll).toBeLessThanOrEqual(fits.viewport);
        const heights = await page
          .locator("#channel-table tbody tr")
          .evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
        for (const height of heights) expect(height).toBeLessThan(56);
        await saveScreenshot(page, `lists-channel-tag-rows-${language}`);
        await server.store.query("update channels set tag = null");
      });
      if (language === "zh") {
        await step(page, "priority-in-place", async () => {
          const row = page.locator("#channel-table tr[data-channel-row]").first();
          const id = Number(await row.getAttribute("data-channel-row"));
          const priority = row.locator('input[name="priority"]');
          expect(await priority.getAttribute("class")).toContain("input-ghost");
          await priority.fill("9");
          await priority.press("Tab");
          const stored = async () =>
            Number((await server.store.query<{ priority: number }>("select priority from channels where id = ?", id))[0]!.priority);
          for (let tries = 0; tries < 50 && (await stored()) !== 9; tries++) await page.waitForTimeout(100);
          expect(await stored()).toBe(9);
        });
      }
      await page.context().close();
    }
  });

  test("small amounts keep their significant digits on every page", async () => {
    const spender = await newUserSession(server.url, "spender");
    await server.store.query("update users set quota = 2100, used_quota = 2100 where username = 'spender'");
    expect((await spender.post("/api/token/", { name: "tiny", remain_quota: 2100, expired_time: -1 })).body.success).toBe(true);
    await server.store.query("update tokens set used_quota = 2100 where name = 'tiny'");
    const page = await rootPage();
    await step(page, "channels", async () => {
      await page.goto("/channel");
      const row = page.locator("#channel-table tr[data-channel-row]").first();
      expect(await row.locator("[data-used]").textContent()).toBe("$0.0042");
      expect(await row.locator("[data-used]").getAttribute("title")).toBe("已用：$0.0042");
      expect(await row.locator("[data-remaining]").textContent()).toBe("$0.0042");
    });
    await step(page, "log-summary", async () => {
      await page.goto("/log");
      await page.locator("#log-stat").getByText("$0.0042", { exact: true }).waitFor();
    });
    await step(page, "users", async () => {
      await page.goto("/user");
      const row = page.locator("#users-table tbody tr").filter({ has: page.getByText("spender", { exact: true }) });
      expect(await row.textContent()).toContain("$0.0042");
      expect(await row.textContent()).not.toContain("$0.00 ");
    });
    await step(page, "dashboard", async () => {
      await page.goto("/detail");
      expect(await page.getByTestId("total-quota").textContent()).toBe("$0.0042");
    });
    await page.context().close();
    const own = await newContext(browser, { baseURL: server.url, width: 1366 });
    const ownPage = await own.newPage();
    await step(ownPage, "tokens", async () => {
      await loginThroughForm(ownPage, "spender", "password123");
      await ownPage.waitForURL("**/token");
      const row = ownPage.locator("#token-table tr", { hasText: "tiny" });
      expect(await row.textContent()).toContain("$0.0042");
    });
    // An order imported from new-api keeps the money it was paid, to its last real decimal.
    await server.store.query(
      "insert into top_ups (user_id, amount, money, quota, trade_no, payment_method, create_time, status) " +
        "select id, 1, 0.125, 500000, 'imported-order', 'alipay', 1700000000, 'success' from users where username = 'spender'",
    );
    await step(ownPage, "top-ups", async () => {
      await ownPage.goto("/topup");
      const row = ownPage.locator("#topup-orders tr", { hasText: "imported-order" });
      expect(await row.locator("td").nth(2).textContent()).toBe("0.125");
    });
    await own.close();
  });

  test("quota fields take dollars and show raw units; token expiry is a picker with a never switch", async () => {
    const page = await rootPage();
    const drawer = page.locator("#token-drawer");
    await step(page, "token-never", async () => {
      await page.getByRole("button", { name: "添加令牌" }).click();
      await drawer.getByPlaceholder("请输入名称").fill("forever");
      expect(await drawer.getByLabel("永不过期").isChecked()).toBe(true);
      expect(await drawer.locator("#token-expired-time").inputValue()).toBe("");
      await drawer.locator("#token-remain-quota-money").fill("2.5");
      await drawer.getByText("原始额度: 1250000").waitFor();
      await saveScreenshot(page, "lists-token-drawer-zh");
      await drawer.getByRole("button", { name: "提交" }).click();
      await page.locator("#token-table").getByText("forever", { exact: true }).waitFor();
      const [stored] = await server.store.query<{ remain_quota: number; expired_time: number }>(
        "select remain_quota, expired_time from tokens where name = 'forever'",
      );
      expect([Number(stored!.remain_quota), Number(stored!.expired_time)]).toEqual([1250000, -1]);
    });
    await step(page, "token-picker", async () => {
      await page.goto("/token");
      await page.getByRole("button", { name: "添加令牌" }).click();
      await drawer.getByPlaceholder("请输入名称").fill("dated");
      // What the browser's picker hands back, written in the console's format.
      await drawer.locator('input[data-picker-for="#token-expired-time"]').fill("2031-02-03T04:05:06");
      expect(await drawer.locator("#token-expired-time").inputValue()).toBe("2031-02-03 04:05:06");
      expect(await drawer.getByLabel("永不过期").isChecked()).toBe(false);
      await drawer.getByRole("button", { name: "$10", exact: true }).click();
      expect(await drawer.locator("#token-remain-quota-money").inputValue()).toBe("10");
      await drawer.getByText("原始额度: 5000000").waitFor();
      await drawer.getByRole("button", { name: "提交" }).click();
      await page.locator("#token-table").getByText("dated", { exact: true }).waitFor();
      const [stored] = await server.store.query<{ remain_quota: number; expired_time: number }>(
        "select remain_quota, expired_time from tokens where name = 'dated'",
      );
      const expected = await page.evaluate(() => Math.floor(new Date(2031, 1, 3, 4, 5, 6).getTime() / 1000));
      expect([Number(stored!.remain_quota), Number(stored!.expired_time)]).toEqual([5000000, expected]);
    });
    await step(page, "redemption-dollars", async () => {
      await page.goto("/redemption");
      await page.getByRole("button", { name: "添加兑换码" }).click();
      const dialog = page.locator("#create-redemption");
      expect(await dialog.locator("#create-redemption-quota-money").inputValue()).toBe("0.20");
      await dialog.locator("#create-redemption-quota-money").fill("0.5");
      await dialog.getByText("原始额度: 250000").waitFor();
      await dialog.getByRole("button", { name: "提交" }).click();
      for (let tries = 0; tries < 50 && (await server.store.query("select id from redemptions where quota = 250000")).length === 0; tries++)
        await page.waitForTimeout(100);
      expect((await server.store.query("select id from redemptions where quota = 250000")).length).toBe(1);
    });
    await page.context().close();
  });

  test("the dashboard's pickers use the console's date format and a stale rollup is refreshed on open", async () => {
    for (const language of ["zh", "en"] as const) {
      const page = await rootPage(language);
      await step(page, `dashboard-${language}`, async () => {
        await page.goto("/detail");
        const note = page.getByTestId("rollup-note");
        const pattern =
          language === "zh"
            ? /^最近的调用即时计入；更早的数据汇总于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}，每 \d+ 分钟汇总一次$/
            : /^Recent calls count at once; older data rolled up at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}, every \d+ minutes$/;
        for (let tries = 0; tries < 50 && !pattern.test((await note.textContent()) ?? ""); tries++) await page.waitForTimeout(100);
        expect(await note.textContent()).toMatch(pattern);
        const fields = page.locator("form input[placeholder='yyyy-MM-dd HH:mm:ss']");
        expect(await fields.count()).toBe(2);
        for (const value of await fields.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)))
          expect(value).toMatch(dateTimeFormat);
        await saveScreenshot(page, `lists-dashboard-${language}`);
      });
      await page.context().close();
    }
  });
});
