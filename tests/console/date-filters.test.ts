// Issue 26 item 3: the time filters of /log, /midjourney and /task are the console's picker with
// quick ranges (today, 7 days, 30 days), every list starts on the same default range (today to an
// hour ahead), and both the pickers and the rendered times are in the browser's time zone, which
// here differs from the server's (Playwright's timezoneId). Entries just after and just before the
// browser's midnight tell its "today" from the server's; htmx swaps keep the browser's zone, and a
// stale zone cookie (a laptop that travelled) still shows the browser's times.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { rootPassword, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

setDefaultTimeout(120_000);

let server: TestServer;
let browser: Browser;
const now = Math.floor(Date.now() / 1000);

/** The current UTC offset of a zone, in minutes. */
function offsetMinutes(zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    })
      .formatToParts(now * 1000)
      .filter((part) => part.type !== "literal")
      .map((part) => [part.type, Number(part.value)]),
  );
  return (Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute) - Math.floor(now / 60) * 60_000) / 60_000;
}

// The server runs in this process's zone; the browser in one at least five hours away from it.
const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const browserZone =
  ["Asia/Kolkata", "America/St_Johns", "Pacific/Auckland"].find(
    (zone) => Math.abs(offsetMinutes(zone) - offsetMinutes(serverZone)) >= 300,
  ) ?? "Asia/Kolkata";

/** Wall-clock "yyyy-MM-dd HH:mm:ss" of unix seconds in the browser's zone. */
function browserText(seconds: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: browserZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(seconds * 1000)
      .filter((part) => part.type !== "literal")
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The browser's midnight that starts the day `daysBack` days before today (unix seconds). */
function browserMidnight(daysBack = 0): number {
  let guess = now - daysBack * 86_400;
  for (let round = 0; round < 3; round++) {
    const [hour, minute, second] = browserText(guess).slice(11).split(":").map(Number) as [number, number, number];
    const intoDay = hour * 3600 + minute * 60 + second;
    if (intoDay === 0) break;
    // Past noon after a daylight-saving step means the midnight ahead, not the one a day back.
    guess += round > 0 && hour >= 12 ? 86_400 - intoDay : -intoDay;
  }
  return guess;
}

const todayStart = browserMidnight();
// Logs by model name: where they fall against the browser's days.
const entries: [string, number][] = [
  ["model-now", now - 30],
  ["model-after-midnight", Math.min(todayStart + 60, now - 1)],
  ["model-before-midnight", todayStart - 60],
  ["model-three-days", todayStart - 3 * 86_400 + 3600],
  ["model-twenty-days", todayStart - 20 * 86_400 + 3600],
  ["model-forty-days", todayStart - 40 * 86_400 + 3600],
];

beforeAll(async () => {
  server = await startTestServer();
  await rootSession(server.url);
  browser = await launchBrowser();
  for (const [model, at] of entries) {
    await server.store.query(
      `insert into logs (user_id, username, created_at, type, model_name, prompt_tokens, completion_tokens, quota, content, token_name, "group", other)
       values (1, 'root', ?, 2, ?, 10, 5, 35, '', 't', 'default', '')`,
      at,
      model,
    );
  }
  // A drawing and a song today, and one of each twelve days ago.
  for (const [id, at] of [
    ["mj-today", now - 120],
    ["mj-older", todayStart - 12 * 86_400 + 3600],
  ] as const) {
    await server.store.query(
      "insert into midjourneys (user_id, action, mj_id, status, progress, submit_time, finish_time, code) values (1, 'IMAGINE', ?, 'SUCCESS', '100%', ?, ?, 1)",
      id,
      at * 1000,
      (at + 30) * 1000,
    );
  }
  for (const [id, at] of [
    ["song-today", now - 120],
    ["song-older", todayStart - 12 * 86_400 + 3600],
  ] as const) {
    await server.store.query(
      "insert into tasks (user_id, task_id, platform, action, status, progress, submit_time, finish_time, created_at, updated_at) values (1, ?, 'suno', 'MUSIC', 'SUCCESS', '100%', ?, ?, ?, ?)",
      id,
      at,
      at + 30,
      at,
      at,
    );
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function rootPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, { baseURL: server.url, width: 1366, timezoneId: browserZone });
  const page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  return { context, page };
}

const rows = (page: Page, table: string) => page.locator(`#${table} tbody tr`);
const quick = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function expectModels(page: Page, shown: string[], hidden: string[]): Promise<void> {
  for (const model of shown) await rows(page, "log-table").filter({ hasText: model }).first().waitFor();
  for (const model of hidden) expect(await rows(page, "log-table").filter({ hasText: model }).count()).toBe(0);
}

describe("date filters in the browser's time zone", () => {
  test(`/log: today by default, quick ranges, the picker, times in ${browserZone} (server in ${serverZone})`, async () => {
    const { context, page } = await rootPage();
    await step(page, "log-default-today", async () => {
      await page.goto("/log");
      const start = page.locator("#log-start_timestamp");
      const end = page.locator("#log-end_timestamp");
      expect(await start.inputValue()).toBe(browserText(todayStart));
      expect(await end.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(await quick(page, "今天").getAttribute("aria-pressed")).toBe("true");
      // The browser's midnight, not the server's, splits the two entries around it.
      await expectModels(page, ["model-now", "model-after-midnight"], ["model-before-midnight", "model-three-days"]);
      // Each row's time in the browser's zone, on a <time> element carrying the instant.
      const time = rows(page, "log-table").filter({ hasText: "model-after-midnight" }).locator("time").first();
      expect(await time.textContent()).toBe(browserText(entries[1]![1]));
      expect(await time.getAttribute("datetime")).toBe(new Date(entries[1]![1] * 1000).toISOString());
      // The picker's button is the calendar icon.
      expect(await page.locator("#log-filters [data-pick-time] svg").count()).toBe(2);
      await saveScreenshot(page, "date-filters-log-today");
    });
    await step(page, "log-seven-days", async () => {
      await quick(page, "近 7 天").click();
      await page.waitForURL(`**start_timestamp=${browserMidnight(6)}**`);
      await expectModels(page, ["model-now", "model-before-midnight", "model-three-days"], ["model-twenty-days"]);
      expect(await quick(page, "近 7 天").getAttribute("aria-pressed")).toBe("true");
      expect(await quick(page, "今天").getAttribute("aria-pressed")).toBe("false");
      expect(await page.locator("#log-start_timestamp").inputValue()).toBe(browserText(browserMidnight(6)));
      // Rows swapped in by htmx show the browser's zone as well.
      const time = rows(page, "log-table").filter({ hasText: "model-three-days" }).locator("time").first();
      expect(await time.textContent()).toBe(browserText(entries[3]![1]));
    });
    await step(page, "log-thirty-days", async () => {
      await quick(page, "近 30 天").click();
      await rows(page, "log-table").filter({ hasText: "model-twenty-days" }).first().waitFor();
      await expectModels(page, ["model-twenty-days"], ["model-forty-days"]);
    });
    await step(page, "log-picker", async () => {
      // What the browser's picker hands back: 45 days ago at midnight, in the browser's zone.
      const from = browserText(browserMidnight(45));
      await page.locator('#log-filters input[data-picker-for="#log-start_timestamp"]').fill(from.replace(" ", "T"));
      expect(await page.locator("#log-start_timestamp").inputValue()).toBe(from);
      // A picked time is not a quick range any more.
      expect(await quick(page, "近 30 天").getAttribute("aria-pressed")).toBe("false");
      await page.getByRole("button", { name: "查询" }).click();
      await page.waitForURL(`**start_timestamp=${browserMidnight(45)}**`);
      await expectModels(page, ["model-forty-days", "model-now"], []);
      await saveScreenshot(page, "date-filters-log-picked");
    });
    await step(page, "log-stale-zone-cookie", async () => {
      // The zone cookie says UTC (the laptop was elsewhere): the server renders in UTC, the
      // browser shows its own zone, and the cookie is put right for the next page.
      await context.addCookies([{ name: "tz", value: "UTC", url: server.url }]);
      await page.goto(`/log?start_timestamp=${browserMidnight(6)}`);
      const time = rows(page, "log-table").filter({ hasText: "model-three-days" }).locator("time").first();
      await time.waitFor();
      for (let tries = 0; tries < 50 && (await time.textContent()) !== browserText(entries[3]![1]); tries++) await page.waitForTimeout(100);
      expect(await time.textContent()).toBe(browserText(entries[3]![1]));
      const cookies = await context.cookies(server.url);
      // Chromium may name the zone by an older alias (Asia/Calcutta): the cookie holds the browser's name.
      const own = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(decodeURIComponent(cookies.find((cookie) => cookie.name === "tz")?.value ?? "")).toBe(own);
    });
    await context.close();
  });

  test("/midjourney and /task: the same default range, quick ranges and browser-zone times", async () => {
    const { context, page } = await rootPage();
    for (const [path, table, today, older, prefix] of [
      ["/midjourney", "mj-table", "mj-today", "mj-older", "mj-table"],
      ["/task", "task-table", "song-today", "song-older", "task-table"],
    ] as const) {
      await step(page, `${table}-ranges`, async () => {
        await page.goto(path);
        expect(await page.locator(`#${prefix}-start_timestamp`).inputValue()).toBe(browserText(todayStart));
        expect(await quick(page, "今天").getAttribute("aria-pressed")).toBe("true");
        await rows(page, table).filter({ hasText: today }).first().waitFor();
        expect(await rows(page, table).filter({ hasText: older }).count()).toBe(0);
        const time = rows(page, table).filter({ hasText: today }).locator("time").first();
        expect(await time.textContent()).toBe(browserText(now - 120));
        await quick(page, "近 7 天").click();
        await page.waitForURL(`**start_timestamp=${browserMidnight(6)}**`);
        expect(await rows(page, table).filter({ hasText: older }).count()).toBe(0);
        await quick(page, "近 30 天").click();
        await rows(page, table).filter({ hasText: older }).first().waitFor();
        const olderTime = rows(page, table).filter({ hasText: older }).locator("time").first();
        expect(await olderTime.textContent()).toBe(browserText(todayStart - 12 * 86_400 + 3600));
        await saveScreenshot(page, `date-filters-${table}`);
      });
    }
    await context.close();
  });
});
