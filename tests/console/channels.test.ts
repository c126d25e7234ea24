// An admin in a real browser on /channel: creates a channel in the drawer with models fetched
// from the upstream, tests it and sees the response-time colour, switches to tag mode and
// disables a tag; edits, copies, tests with a chosen model and re-weights rows in place; sees an
// automatic disable's reason; keeps its page size and ID sort; and meets each channel-form
// message, in new-api's wording.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { type ApiSession, rootSession, rootPassword } from "../helpers/api-session.ts";
import { answerConfirmation } from "../helpers/confirm-dialog.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { expectSeen, expectToastOverDialog } from "../helpers/seen.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  root = await rootSession(server.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

async function adminPage(): Promise<Page> {
  const context = await newContext(browser, { baseURL: server.url });
  const page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  await page.goto("/channel");
  return page;
}

const toast = (page: Page, text: string) => page.locator("#toasts").getByText(text, { exact: true }).first().waitFor();
const drawerOf = (page: Page): Locator => page.locator("dialog[aria-labelledby=channel-drawer-title]");
const field = (drawer: Locator, label: string) => drawer.locator("label", { hasText: label }).locator("input, textarea, select").first();

describe("channel page", () => {
  test("create in the drawer with fetched models, test it, see the colour; tag mode disables a tag", async () => {
    const page = await adminPage();
    await step(page, "create", async () => {
      await page.getByRole("button", { name: "添加渠道" }).click();
      const drawer = drawerOf(page);
      await drawer.getByRole("heading", { name: "创建新的渠道" }).waitFor();
      await field(drawer, "名称").fill("ui-channel");
      await field(drawer, "代理地址").fill(upstream.url);
      await field(drawer, "密钥").fill("sk-ui-key");
      await drawer.getByRole("button", { name: "清除所有模型" }).click();
      await drawer.getByRole("button", { name: "获取模型列表" }).click();
      // The result shows in the drawer, under the button, where the user is looking.
      await expectSeen(drawer.getByRole("status"), "获取到 3 个模型");
      await drawer.getByLabel("已选模型").getByText("text-embedding-3-small").waitFor();
      await saveScreenshot(page, "manage-channel-drawer-zh");
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await page.locator("#channel-table").getByText("ui-channel", { exact: true }).waitFor();
    });
    const [created] = await server.store.query<{ id: number; models: string; key: string }>(
      "select id, models, key from channels where name = 'ui-channel'",
    );
    expect([created!.models, created!.key]).toEqual(["gpt-4o-mini,gpt-4o,text-embedding-3-small", "sk-ui-key"]);

    await step(page, "test", async () => {
      // A 1.2 s answer lands in the 1-3 s band (lime).
      upstream.behave("sk-ui-key", { delayMs: 1200 });
      const row = page.locator(`tr[data-channel-row="${created!.id}"]`);
      await row.getByRole("button", { name: "测试", exact: true }).click();
      await page
        .locator("#toasts")
        .getByText(/^通道 ui-channel 测试成功，耗时 1\.\d\d 秒。$/)
        .waitFor();
      const badge = page.locator(`tr[data-channel-row="${created!.id}"] [data-response-time]`);
      await badge.and(page.locator(".bg-lime-500")).waitFor();
      expect(await badge.textContent()).toMatch(/^1\.\d\d 秒$/);
      upstream.reset();
    });

    await step(page, "tag-mode", async () => {
      for (const name of ["tagged-a", "tagged-b"]) {
        await root.post("/api/channel/", { name, type: 1, key: `k-${name}`, base_url: upstream.url, models: "gpt-4o-mini", tag: "team-x" });
      }
      await page.getByText("标签聚合模式").click();
      const tagRow = page.locator('tr[data-tag-row="team-x"]');
      await tagRow.waitFor();
      await saveScreenshot(page, "manage-channel-tags-zh");
      await tagRow.getByLabel("更多操作").click();
      await tagRow.getByRole("button", { name: "禁用全部" }).click();
      await page.locator('tr[data-tag-row="team-x"]', { hasText: "0/2 已启用" }).waitFor();
      const statuses = await server.store.query<{ status: number }>("select status from channels where tag = 'team-x'");
      expect(statuses.map((row) => Number(row.status))).toEqual([2, 2]);
      expect(await page.locator("#channel-table tr", { hasText: "tagged-a" }).getByText("已禁用").count()).toBe(1);
    });

    await step(page, "tag-priority-and-enable-all", async () => {
      const priorities = async () =>
        (await server.store.query<{ priority: number }>("select priority from channels where tag = 'team-x' order by id")).map((row) =>
          Number(row.priority),
        );
      const tagPriority = page.locator('tr[data-tag-row="team-x"]').getByLabel("优先级");
      // Declining the confirmation changes nothing and puts the old value back.
      await tagPriority.fill("7");
      await tagPriority.press("Enter");
      expect(await answerConfirmation(page, false)).toBe("修改标签 team-x 下所有渠道的优先级，确定吗？");
      await page.waitForFunction(
        () => (document.querySelector('tr[data-tag-row="team-x"] input[name="priority"]') as HTMLInputElement).value === "0",
      );
      expect(await priorities()).toEqual([0, 0]);
      // Accepting it sets the priority of every channel of the tag.
      await tagPriority.fill("7");
      const tableBeforeSave = await page.locator("#channel-table").elementHandle();
      await tagPriority.press("Enter");
      await answerConfirmation(page);
      for (let tries = 0; tries < 50 && (await priorities()).join() !== "7,7"; tries++) await Bun.sleep(100);
      expect(await priorities()).toEqual([7, 7]);
      // The save refreshes the table (the field got its focus back from the dialog, but its value
      // was sent: the refresh is not put off); a menu opened before that refresh lands would be replaced.
      await page.waitForFunction((table) => !table?.isConnected, tableBeforeSave);
      await page.waitForFunction(
        () => (document.querySelector('tr[data-tag-row="team-x"] input[name="priority"]') as HTMLInputElement | null)?.value === "7",
      );
      await page.waitForLoadState("networkidle");
      await page.locator('tr[data-tag-row="team-x"]').getByLabel("更多操作").click();
      await page.locator('tr[data-tag-row="team-x"]').getByRole("button", { name: "启用全部" }).click();
      await page.locator('tr[data-tag-row="team-x"]', { hasText: "2/2 已启用" }).waitFor();
      const statuses = await server.store.query<{ status: number }>("select status from channels where tag = 'team-x'");
      expect(statuses.map((row) => Number(row.status))).toEqual([1, 1]);
    });
  }, 120_000);

  test("the channel form's and the tag tools' messages", async () => {
    const page = await adminPage();
    const drawer = drawerOf(page);
    await step(page, "drawer-messages", async () => {
      // The drawer covers the toast corner: each message shows inside it, beside the field at
      // fault, where the user can see it.
      const block = (label: string) => drawer.locator(".form-control", { hasText: label }).first();
      const models = drawer.locator("fieldset", { hasText: "清除所有模型" });
      await page.getByRole("button", { name: "添加渠道" }).click();
      await drawer.getByRole("button", { name: "清除所有模型" }).click();
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await expectSeen(block("名称").getByRole("alert"), "请填写渠道名称和渠道密钥！");
      expect(await page.locator("#toasts").textContent()).toBe("");
      await drawer.getByRole("button", { name: "获取模型列表" }).click();
      await expectSeen(block("密钥").getByRole("alert"), "请填写密钥");
      await field(drawer, "名称").fill("form-channel");
      await field(drawer, "密钥").fill("sk-form");
      // Typing in the field at fault takes its message away.
      expect(await drawer.getByRole("alert").count()).toBe(0);
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await expectSeen(models.getByRole("alert"), "请至少选择一个模型！");
      await drawer.getByLabel("自定义模型名称").fill("my-model, my-model");
      await drawer.getByRole("button", { name: "填入", exact: true }).click();
      await expectSeen(models.getByRole("alert"), "某些模型已存在！");
      await drawer.getByLabel("自定义模型名称").fill("my-model");
      await drawer.getByRole("button", { name: "填入", exact: true }).click();
      await drawer.getByLabel("模型重定向").fill("{not json");
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await expectSeen(block("模型重定向").getByRole("alert"), "模型映射必须是合法的 JSON 格式！");
      expect(await drawer.getByLabel("模型重定向").getAttribute("aria-invalid")).toBe("true");
      await saveScreenshot(page, "channel-drawer-field-error");
      // A failed fetch of the upstream's models says so under the model buttons.
      await field(drawer, "代理地址").fill(upstream.url);
      upstream.behave("sk-form", { status: 401 });
      await drawer.getByRole("button", { name: "获取模型列表" }).click();
      await expectSeen(models.getByRole("alert"), /^获取模型列表失败/);
      upstream.reset();
      await drawer.getByRole("button", { name: "关闭" }).first().click();
      const count = await server.store.query<{ n: number }>("select count(*) as n from channels where name = 'form-channel'");
      expect(Number(count[0]!.n)).toBe(0);
    });
    await step(page, "batch-messages", async () => {
      await root.post("/api/channel/", { name: "edit-me-a", type: 1, key: "k-a", models: "m", tag: "edit-tag" });
      await page.reload();
      await page.getByText("开启批量操作").click();
      await page.getByRole("button", { name: "删除所选渠道" }).click();
      await toast(page, "请先选择要删除的通道！");
      await page.getByRole("button", { name: "批量设置标签" }).click();
      const dialog = page.locator("#batch-tag-dialog");
      await dialog.getByRole("button", { name: "确定" }).click();
      // The toast corner is raised above the open dialog.
      await expectToastOverDialog(page, "请先选择要设置标签的渠道！");
      await dialog.getByRole("button", { name: "关闭" }).first().click();
      await page.locator("#channel-table tr", { hasText: "edit-me-a" }).locator("input[data-row]").check();
      await page.getByRole("button", { name: "批量设置标签" }).click();
      await dialog.getByRole("button", { name: "确定" }).click();
      await toast(page, "标签不能为空！");
      await dialog.getByRole("button", { name: "关闭" }).first().click();
    });
    await step(page, "tag-edit-messages", async () => {
      await page.getByText("标签聚合模式").click();
      await page.locator('tr[data-tag-row="edit-tag"]').getByRole("button", { name: "编辑标签" }).click();
      const dialog = page.locator("#tag-edit-dialog");
      await dialog.getByRole("button", { name: "提交" }).click();
      await toast(page, "没有任何修改！");
      await dialog.locator('input[name="priority"]').fill("high");
      await dialog.getByRole("button", { name: "提交" }).click();
      await toast(page, "优先级必须是整数！");
      await dialog.locator('input[name="priority"]').fill("");
      await dialog.locator('input[name="weight"]').fill("-1");
      await dialog.getByRole("button", { name: "提交" }).click();
      await toast(page, "权重必须是非负整数！");
      await dialog.locator('input[name="weight"]').fill("");
      await dialog.locator('textarea[name="model_mapping"]').fill("[]");
      await dialog.getByRole("button", { name: "提交" }).click();
      await toast(page, "模型映射必须是合法的 JSON 格式！");
    });
  }, 120_000);
  test("row actions: edit in the drawer, copy, test with a chosen model, priority in place; auto-disable reason; remembered choices", async () => {
    const made = await root.post("/api/channel/", {
      name: "row-tools",
      type: 1,
      key: "sk-row-tools",
      base_url: upstream.url,
      models: "gpt-4o-mini,gpt-4o",
    });
    expect(made.body.success).toBe(true);
    const [row] = await server.store.query<{ id: number }>("select id from channels where name = 'row-tools'");
    const id = Number(row!.id);
    const page = await adminPage();
    const rowOf = (channelId: number) => page.locator(`tr[data-channel-row="${channelId}"]`);
    const drawer = drawerOf(page);

    await step(page, "edit", async () => {
      await rowOf(id).getByRole("button", { name: "编辑" }).click();
      await drawer.getByRole("heading", { name: "更新渠道信息" }).waitFor();
      expect(await field(drawer, "名称").inputValue()).toBe("row-tools");
      expect(await drawer.getByLabel("已选模型").textContent()).toContain("gpt-4o");
      await field(drawer, "名称").fill("row-tools-edited");
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await rowOf(id).getByText("row-tools-edited", { exact: true }).waitFor();
      // No new key typed: the stored one stays.
      const [stored] = await server.store.query<{ key: string }>("select key from channels where id = ?", id);
      expect(stored!.key).toBe("sk-row-tools");
    });

    await step(page, "edit-route", async () => {
      await page.goto(`/channel/edit/${id}`);
      await drawer.getByRole("heading", { name: "更新渠道信息" }).waitFor();
      expect(await field(drawer, "名称").inputValue()).toBe("row-tools-edited");
      await drawer.getByRole("button", { name: "关闭" }).first().click();
      await page.goto("/channel/add");
      await drawer.getByRole("heading", { name: "创建新的渠道" }).waitFor();
      await field(drawer, "类型").selectOption("3");
      expect(await field(drawer, "默认 API 版本").inputValue()).toBe("2023-06-01-preview");
      await field(drawer, "类型").selectOption("18");
      expect(await field(drawer, "模型版本").inputValue()).toBe("v2.1");
      await drawer.getByRole("button", { name: "关闭" }).first().click();
    });

    await step(page, "test-with-model", async () => {
      await page.goto("/channel");
      // The row's model menu is the test dialog (issue 26): each model with its own test button.
      await rowOf(id).getByLabel("选择测试模型").click();
      const dialog = page.locator("#channel-test-dialog");
      // The run ends by swapping in a fresh table: the one shown now is gone once that landed.
      const tableBefore = await page.locator("#channel-table").elementHandle();
      await dialog.locator('[data-test-model="gpt-4o"]').getByRole("button", { name: "测试", exact: true }).click();
      await dialog.locator('[data-test-model="gpt-4o"] [data-test-result][data-outcome="passed"]').waitFor();
      expect(upstream.receivedBy("sk-row-tools").at(-1)!.json.model).toBe("gpt-4o");
      await page.waitForFunction((table) => !table?.isConnected, tableBefore);
      await dialog.getByRole("button", { name: "关闭" }).first().click();
    });

    await step(page, "priority-in-place", async () => {
      // A field filled before the test's table refresh landed would have been swapped away (waited above).
      await rowOf(id).locator('input[name="priority"]').fill("7");
      const tableBeforeSave = await page.locator("#channel-table").elementHandle();
      await rowOf(id).locator('input[name="priority"]').press("Tab");
      // The save reloads the table: the next step types into the reloaded one.
      await page.waitForFunction((table) => !table?.isConnected, tableBeforeSave);
      const priority = async () =>
        Number((await server.store.query<{ priority: number }>("select priority from channels where id = ?", id))[0]!.priority);
      for (let tries = 0; tries < 50 && (await priority()) !== 7; tries++) await page.waitForTimeout(100);
      expect(await priority()).toBe(7);
    });

    await step(page, "copy", async () => {
      // Copy lives in the row's "more" menu (issue 17: two actions visible, the rest in a menu).
      await rowOf(id).getByLabel("更多操作").click();
      await rowOf(id).getByRole("button", { name: "复制" }).click();
      await answerConfirmation(page);
      await page.locator("#channel-table").getByText("row-tools-edited_复制", { exact: true }).waitFor();
      const copies = await server.store.query<{ key: string; models: string }>(
        "select key, models from channels where name = 'row-tools-edited_复制'",
      );
      expect(copies.map((copy) => [copy.key, copy.models])).toEqual([["sk-row-tools", "gpt-4o-mini,gpt-4o"]]);
    });

    await step(page, "auto-disabled", async () => {
      const otherInfo = JSON.stringify({ status_reason: "Incorrect API key provided", status_time: 1_700_000_000 });
      await server.store.query("update channels set status = 3, other_info = ? where id = ?", otherInfo, id);
      await page.reload();
      const status = rowOf(id).getByText("自动禁用", { exact: true });
      await status.waitFor();
      expect(await rowOf(id).textContent()).toContain("Incorrect API key provided");
      expect(await status.getAttribute("title")).toMatch(/^原因：Incorrect API key provided，时间：2023-11-1\d \d\d:\d\d:\d\d$/);
      expect(await rowOf(id).getAttribute("class")).toContain("bg-base-200");
      await saveScreenshot(page, "manage-channel-auto-disabled-zh");
    });

    await step(page, "remembered", async () => {
      await page.getByLabel("每页条数").selectOption("20");
      await page.locator(`#channel-table select[data-page-size] option[value="20"][selected]`).waitFor({ state: "attached" });
      await page.getByText("使用 ID 排序").click();
      await page.waitForURL(/id_sort=true/);
      await page.goto("/channel");
      expect(await page.getByLabel("每页条数").inputValue()).toBe("20");
      expect(await page.locator('input[name="id_sort"][type="checkbox"]').isChecked()).toBe(true);
      const ids = await page
        .locator("#channel-table tr[data-channel-row]")
        .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-channel-row"))));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });
  }, 90_000);
});
