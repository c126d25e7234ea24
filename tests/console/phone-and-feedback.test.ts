// Issue 17's phone layout and feedback in a real browser: table rows are cards at 390 px with
// everything inside the screen, the log filters fold behind one button, drawers and dialogs fit
// a phone, confirmations are the themed dialog (never the browser's), "test all channels" shows
// its progress, toasts leave the header's controls free, one style for row actions, sidebar
// names end in "…", an expired token offers no Enable, and an empty search offers to clear it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { Upstream } from "../fixtures/openai-upstream.ts";
import { rootPassword, rootSession, type ApiSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, step } from "../helpers/browser.ts";
import { answerConfirmation } from "../helpers/confirm-dialog.ts";
import { seedConsole, tablePages } from "../helpers/console-routes.ts";
import { viewports, type Language, type Screen } from "../helpers/screens.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  server = await startTestServer();
  upstream = await seedConsole(server.url);
  root = await rootSession(server.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

async function rootPage(screen: Screen, language: Language = "zh"): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[screen],
    baseURL: server.url,
    locale: language === "en" ? "en-US" : "zh-CN",
  });
  await context.addCookies([{ name: "lang", value: language, url: server.url }]);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();
  // A browser confirm() would be a bug now: every question is the themed dialog.
  page.on("dialog", (dialog) => {
    throw new Error(`native dialog opened: ${dialog.message()}`);
  });
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  return page;
}

/** The parts of `selector` (visible ones) that reach past the window's right edge. */
async function outsideScreen(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.flatMap((element) => {
      const box = element.getBoundingClientRect();
      // Closed menus stay in the layout, hidden: only what can be seen counts.
      const visible = box.width > 0 && box.height > 0 && element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
      return visible && (box.left < -1 || box.right > window.innerWidth + 1)
        ? [`${element.tagName} ${element.textContent?.trim().slice(0, 30)}`]
        : [];
    }),
  );
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("phones", () => {
  for (const language of ["zh", "en"] as const) {
    test(`tables are cards at 390 px, with status, amount and actions on screen (${language})`, async () => {
      const page = await rootPage("phone", language);
      for (const { path, table } of tablePages) {
        await step(page, `cards-${language}${path}`, async () => {
          await page.goto(path);
          const row = page.locator(`${table} tbody tr`).first();
          await row.waitFor();
          expect(await page.locator(`${table} thead`).first().isVisible()).toBe(false);
          // The table's own scroller has nothing to scroll: the card fits.
          expect(
            await page
              .locator(`${table} .overflow-x-auto`)
              .first()
              .evaluate((box) => box.scrollWidth <= box.clientWidth + 1),
          ).toBe(true);
          expect(await outsideScreen(page, `${table} tbody tr:first-child *`)).toEqual([]);
          const rowBox = (await row.boundingBox())!;
          expect(rowBox.x).toBeGreaterThanOrEqual(0);
          expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(390);
          // Status (a badge) and the row's actions are visible in the card.
          expect(await row.locator(".badge").first().isVisible()).toBe(true);
          // The log and the audit trail are read only: their rows have no actions.
          if (path !== "/log" && path !== "/audit")
            expect(await row.locator("td").last().locator("button:visible, a.btn:visible").count()).toBeGreaterThan(0);
        });
      }
      await step(page, `amount-${language}`, async () => {
        await page.goto("/token");
        const used = page.locator("#token-table tbody tr").first().locator("td[data-label]").nth(4);
        expect(await used.getAttribute("data-label")).toBe(language === "en" ? "Used quota" : "已用额度");
        expect(await used.textContent()).toContain("$");
      });
      await step(page, `channel-labels-${language}`, async () => {
        await page.goto("/channel");
        // The channel table has its own markup; its cells name their column in the card too.
        const status = page.locator("#channel-table tbody tr").first().locator("td[data-label]").nth(4);
        expect(await status.getAttribute("data-label")).toBe(language === "en" ? "Status" : "状态");
        const label = await status.evaluate((cell) => getComputedStyle(cell, "::before").content);
        expect(label).toBe(language === "en" ? '"Status"' : '"状态"');
      });
      await page.context().close();
    }, 120_000);
  }

  test("the home page's curl line wraps on a phone instead of scrolling, and the title fits", async () => {
    const context = await browser.newContext({ viewport: viewports.phone, baseURL: server.url, locale: "en-US" });
    await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
    const page = await context.newPage();
    await page.goto("/");
    const block = page.locator(".mockup-code");
    expect(await block.evaluate((box) => box.scrollWidth <= box.clientWidth + 1)).toBe(true);
    expect(await block.textContent()).toContain(`${server.url}/v1/chat/completions`);
    expect(await page.locator("main h1").evaluate((title) => title.scrollWidth <= title.clientWidth + 1)).toBe(true);
    expect(await outsideScreen(page, "header *, main *")).toEqual([]);
    await context.close();
  }, 120_000);

  test("the log filters fold into one button on a phone and are open on a desktop", async () => {
    const phone = await rootPage("phone", "en");
    await step(phone, "fold", async () => {
      await phone.goto("/log");
      const toggle = phone.getByRole("button", { name: "Filters" });
      expect(await phone.locator("#log-filters").isVisible()).toBe(false);
      await toggle.click();
      await phone.locator("#log-filters").waitFor();
      expect(await toggle.getAttribute("aria-expanded")).toBe("true");
      expect(await outsideScreen(phone, "#log-filters *")).toEqual([]);
      await phone.locator("#log-filters").getByRole("button", { name: "Search" }).click();
      await phone.locator("#log-table tbody tr").first().waitFor();
    });
    await phone.context().close();
    const desktop = await rootPage("desktop");
    await desktop.goto("/log");
    expect(await desktop.locator("#log-filters").isVisible()).toBe(true);
    expect(await desktop.getByRole("button", { name: "筛选" }).isVisible()).toBe(false);
    await desktop.context().close();
  }, 120_000);

  test("drawers and dialogs fit a phone's screen", async () => {
    const page = await rootPage("phone");
    const fits = async (name: string) => {
      // Measured once the drawer has finished sliding in.
      await page.waitForFunction(() => document.querySelector("dialog[open] .modal-box")?.getAnimations({ subtree: true }).length === 0);
      const box = (await page.locator("dialog[open] .modal-box").first().boundingBox())!;
      expect({ name, left: box.x >= 0, right: box.x + box.width <= 390, bottom: box.y + box.height <= 844 }).toEqual({
        name,
        left: true,
        right: true,
        bottom: true,
      });
      expect(await outsideScreen(page, "dialog[open] .modal-box *")).toEqual([]);
    };
    await step(page, "channel-drawer", async () => {
      await page.goto("/channel/add");
      await page.getByRole("heading", { name: "创建新的渠道" }).waitFor();
      await fits("channel drawer");
    });
    await step(page, "token-drawer", async () => {
      await page.goto("/token");
      await page.getByRole("button", { name: "添加令牌" }).click();
      await page.locator("#token-drawer-slot dialog[open]").waitFor();
      await fits("token drawer");
    });
    await step(page, "redemption-dialog", async () => {
      await page.goto("/redemption");
      await page.getByRole("button", { name: "添加兑换码" }).click();
      await fits("redemption dialog");
    });
    await step(page, "confirm-dialog", async () => {
      await page.goto("/token");
      await page.locator("#token-table tbody tr").first().getByRole("button", { name: "删除" }).click();
      await page.locator("#confirm-dialog[open]").waitFor();
      await fits("confirm dialog");
      await answerConfirmation(page, false);
    });
    await page.context().close();
  }, 120_000);
});

describe("feedback", () => {
  test("a confirmation is the themed dialog: Cancel keeps the token, OK deletes it", async () => {
    await root.post("/api/token/", { name: "confirm-me" });
    const page = await rootPage("desktop");
    const row = page.locator("#token-table tr", { hasText: "confirm-me" });
    await step(page, "cancel", async () => {
      await page.goto("/token");
      await row.getByRole("button", { name: "删除" }).click();
      expect(await answerConfirmation(page, false)).toBe("确定要删除令牌 confirm-me 吗？");
      await page.waitForLoadState("networkidle");
      expect(await server.store.query("select id from tokens where name = 'confirm-me' and deleted_at is null")).toHaveLength(1);
    });
    await step(page, "escape", async () => {
      await row.getByRole("button", { name: "删除" }).click();
      await page.locator("#confirm-dialog[open]").waitFor();
      await page.keyboard.press("Escape");
      await page.locator("#confirm-dialog[open]").waitFor({ state: "detached" });
      await page.waitForLoadState("networkidle");
      expect(await server.store.query("select id from tokens where name = 'confirm-me' and deleted_at is null")).toHaveLength(1);
    });
    await step(page, "ok", async () => {
      await row.getByRole("button", { name: "删除" }).click();
      await answerConfirmation(page);
      await row.waitFor({ state: "detached" });
      expect(await server.store.query("select id from tokens where name = 'confirm-me' and deleted_at is null")).toEqual([]);
    });
    await page.context().close();
  }, 120_000);

  test("test all channels shows its progress as each result arrives", async () => {
    await root.post("/api/channel/", {
      name: "unreachable",
      type: 1,
      key: "sk-nowhere",
      base_url: "http://127.0.0.1:9",
      models: "gpt-4o-mini",
      group: "default",
    });
    const channels = await server.store.query<{ id: number }>("select id from channels");
    // Each answer takes a moment, so the page is seen part-way through.
    upstream.behave("sk-phone", { delayMs: 700 });
    upstream.behave("sk-phone-2", { delayMs: 700 });
    const page = await rootPage("desktop");
    await step(page, "test-all", async () => {
      await page.goto("/channel");
      await page.getByRole("button", { name: "测试所有渠道" }).click();
      expect(await answerConfirmation(page)).toBe("确定要测试所有渠道吗？");
      const progress = page.locator("#test-all-progress");
      await progress.getByText(new RegExp(`正在测试渠道：[12]/${channels.length}`)).waitFor();
      await progress.getByText(`测试完成：${channels.length - 1} 个成功，1 个失败`).waitFor();
      expect(await progress.locator("progress").evaluate((bar: HTMLProgressElement) => [bar.value, bar.max])).toEqual([
        channels.length,
        channels.length,
      ]);
      const tested = await server.store.query<{ test_time: number }>("select test_time from channels");
      expect(tested.every((channel) => Number(channel.test_time) > 0)).toBe(true);
    });
    upstream.behave("sk-phone", {});
    upstream.behave("sk-phone-2", {});
    await page.context().close();
  }, 120_000);

  for (const screen of ["desktop", "phone"] as const) {
    test(`toasts do not cover the header's theme, language and account buttons (${screen})`, async () => {
      const page = await rootPage(screen);
      await step(page, `toast-${screen}`, async () => {
        await page.goto("/token");
        await page.locator("#token-table tbody tr").first().getByRole("button", { name: "复制" }).click();
        const toast = page.locator("#toasts .alert").first();
        await toast.waitFor();
        const toastBox = (await toast.boundingBox())!;
        for (const name of ["切换主题", "语言", "账户"]) {
          const control = (await page.locator("header").getByRole("button", { name }).boundingBox())!;
          expect({ name, covered: overlaps(toastBox, control) }).toEqual({ name, covered: false });
        }
      });
      await page.context().close();
    }, 120_000);
  }

  test("every list's row actions share one style", async () => {
    const page = await rootPage("desktop");
    // The log and the audit trail are read only: their rows have no actions.
    for (const { path, table } of tablePages.filter((entry) => entry.path !== "/log" && entry.path !== "/audit")) {
      await page.goto(path);
      const classes = await page
        .locator(`${table} tbody tr`)
        .first()
        .locator("td")
        .last()
        .locator(".btn")
        .evaluateAll((buttons) => buttons.map((button) => button.className));
      expect(classes.length).toBeGreaterThan(0);
      for (const name of classes)
        expect({ path, ghost: name.includes("btn-ghost"), extraSmall: name.includes("btn-xs") }).toEqual({
          path,
          ghost: true,
          extraSmall: true,
        });
    }
    await page.context().close();
  }, 120_000);
});

describe("smaller items", () => {
  test("English column headers are singular; the navigation keeps its plurals", async () => {
    const page = await rootPage("desktop", "en");
    await page.goto("/log");
    const headers = await page.locator("#log-table thead th").allTextContents();
    expect(headers).toContain("Channel");
    expect(headers).toContain("Token");
    expect(headers).not.toContain("Channels");
    expect(await page.locator("#sidebar").getByRole("link", { name: "Channels" }).count()).toBe(1);
    expect(await page.locator("#sidebar").getByRole("link", { name: "Tokens" }).count()).toBe(1);
    await page.context().close();
  }, 120_000);

  test("a long sidebar name ends in … with a tooltip; only the current child is highlighted", async () => {
    const longName = "A chat client whose name is far too long for the sidebar";
    await root.put("/api/option/", {
      key: "Chats",
      value: JSON.stringify([{ [longName]: "https://chat.example.com/?k={key}" }, { Short: "https://short.example.com/?k={key}" }]),
    });
    const page = await rootPage("desktop");
    await step(page, "sidebar", async () => {
      await page.goto("/chat/0");
      const child = page.locator('#sidebar ul ul a[href="/chat/0"]');
      expect(await child.getAttribute("title")).toBe(longName);
      expect(await child.evaluate((link) => [link.scrollWidth > link.clientWidth, getComputedStyle(link).textOverflow])).toEqual([
        true,
        "ellipsis",
      ]);
      expect(await page.locator("#sidebar").evaluate((sidebar) => sidebar.scrollWidth <= sidebar.clientWidth)).toBe(true);
      // One highlighted entry, the child; its tint is light (mostly transparent).
      expect(await page.locator('#sidebar a[aria-current="page"]').count()).toBe(1);
      expect(await child.getAttribute("aria-current")).toBe("page");
      const alpha = await child.evaluate((link) => {
        const probe = document.createElement("canvas").getContext("2d")!;
        probe.fillStyle = getComputedStyle(link).backgroundColor;
        probe.fillRect(0, 0, 1, 1);
        return probe.getImageData(0, 0, 1, 1).data[3]! / 255;
      });
      expect(alpha).toBeGreaterThan(0);
      expect(alpha).toBeLessThan(0.3);
    });
    await root.put("/api/option/", { key: "Chats", value: "[]" });
    await page.context().close();
  }, 120_000);

  test("an expired or used-up token offers no Enable; an empty search offers to clear it", async () => {
    await root.post("/api/token/", { name: "stale-token" });
    await server.store.query("update tokens set expired_time = 1000, status = 3 where name = 'stale-token'");
    const page = await rootPage("desktop");
    await step(page, "expired", async () => {
      await page.goto("/token");
      const row = page.locator("#token-table tr", { hasText: "stale-token" });
      await row.getByText("已过期").waitFor();
      expect(await row.getByRole("button", { name: "启用" }).count()).toBe(0);
      expect(await row.getByRole("button", { name: "编辑" }).count()).toBe(1);
    });
    await step(page, "clear-filters", async () => {
      expect(await page.getByRole("link", { name: "清除筛选" }).count()).toBe(0);
      await page.goto("/token?keyword=nothing-matches-this");
      await page.getByText("暂无令牌").or(page.locator("#token-table td[colspan]")).first().waitFor();
      await page.getByRole("link", { name: "清除筛选" }).click();
      await page.waitForURL((url) => url.pathname === "/token" && url.search === "");
      await page.locator("#token-table tr", { hasText: "phone-token" }).waitFor();
    });
    await page.context().close();
  }, 120_000);
});
