// Issue 26 in Chromium, on /log and /token: a refused relay call appears in /log under the error
// type's filter with the status and message the client got and (for admins) the caller's
// address; the log's column chooser hides the address column and remembers it; several tokens
// are deleted at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { answerConfirmation } from "../helpers/confirm-dialog.ts";
import { addChannel, addToken, n, one, postRelay, type RelayWorld, startRelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let browser: Browser;

beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, { key: "sk-logs-tools", models: "gpt-4o-mini" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await world?.stop();
});

async function signedIn(path: string): Promise<Page> {
  const context = await newContext(browser, { baseURL: world.server.url });
  const page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  await page.goto(path);
  return page;
}

describe("/log", () => {
  test("a refused call is listed under the error type with its status, message and address", async () => {
    const token = await addToken(world.root, { name: "error-maker" });
    const refused = await postRelay(world, "/v1/chat/completions", token.key, {
      model: "gpt-missing",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(refused.status).toBe(404);
    const served = await postRelay(world, "/v1/chat/completions", token.key, {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(served.status).toBe(200);
    for (let attempt = 0; attempt < 50 && n((await one(world, "select count(*) as c from logs where type = 5")).c) === 0; attempt++) {
      await Bun.sleep(100);
    }
    const page = await signedIn("/log");
    await step(page, "filter-errors", async () => {
      await page.locator('#log-filters select[name="type"]').selectOption({ label: "错误" });
      await page.locator("#log-filters").getByRole("button", { name: "查询" }).click();
      await page.waitForURL(/type=5/);
      const rows = page.locator("#log-table tbody tr");
      await rows.first().getByText("错误", { exact: true }).waitFor();
      expect(await rows.count()).toBe(1);
      const row = rows.first();
      expect(await row.locator("[data-status]").textContent()).toBe("404");
      expect(await row.textContent()).toContain("gpt-missing");
      expect(await row.textContent()).toContain("error-maker");
      expect(await row.textContent()).toContain("127.0.0.1");
      await row.getByText("展开").click();
      expect(await row.textContent()).toContain(refused.json.error.message);
      await saveScreenshot(page, "log-error-entry");
    });
    await step(page, "all-types", async () => {
      await page.locator('#log-filters select[name="type"]').selectOption({ label: "全部" });
      await page.locator("#log-filters").getByRole("button", { name: "查询" }).click();
      await page.waitForFunction(() => document.querySelectorAll("#log-table tbody tr").length === 2);
    });
  });

  test("the column chooser hides the address column, remembered after a reload", async () => {
    const page = await signedIn("/log");
    const headers = () => page.locator("#log-table thead th").allTextContents();
    await step(page, "hide-ip", async () => {
      expect(await headers()).toContain("IP 地址");
      await page.locator('[data-column-chooser="log-table"] summary').click();
      await page.locator('[data-column-chooser="log-table"]').getByLabel("IP 地址").uncheck();
      await page.waitForFunction(() => ![...document.querySelectorAll("#log-table thead th")].some((th) => th.textContent === "IP 地址"));
      await page.reload();
      await page.locator("#log-table").waitFor();
      expect(await headers()).not.toContain("IP 地址");
      expect(await headers()).toContain("模型");
    });
  });
});

describe("/token", () => {
  test("several tokens deleted at once", async () => {
    const made = [];
    for (const name of ["batch-a", "batch-b", "batch-keep"]) made.push(await addToken(world.root, { name }));
    const page = await signedIn("/token");
    await step(page, "select-and-delete", async () => {
      await page.getByLabel("batch-a", { exact: true }).check();
      await page.getByLabel("batch-b", { exact: true }).check();
      await page.getByRole("button", { name: "删除所选令牌" }).click();
      expect(await answerConfirmation(page)).toBe("确定要删除所选的令牌吗？");
      await page.waitForFunction(() => !document.querySelector("#token-table")?.textContent?.includes("batch-a"));
      expect(await page.locator("#token-table").textContent()).toContain("batch-keep");
      expect(await page.locator("#token-table").textContent()).not.toContain("batch-b");
    });
    const rows = await world.server.store.query<{ name: string; deleted: number }>(
      "select name, case when deleted_at is null then 0 else 1 end as deleted from tokens where name like 'batch-%' order by name",
    );
    expect(rows.map((row) => [row.name, n(row.deleted)])).toEqual([
      ["batch-a", 1],
      ["batch-b", 1],
      ["batch-keep", 0],
    ]);
    // A deleted token no longer relays.
    const refused = await postRelay(world, "/v1/chat/completions", made[0]!.key, {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(refused.status).toBe(401);
  });
});
