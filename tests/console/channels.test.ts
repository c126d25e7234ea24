// An admin in a real browser on /channel: creates a channel in the drawer with models fetched
// from the upstream, tests it and sees the response-time colour, switches to tag mode and
// disables a tag; and meets each channel-form message of spec §5.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
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
  await loginThroughForm(page, "root", "123456");
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
      await toast(page, "获取到 3 个模型");
      await drawer.getByLabel("已选模型").getByText("text-embedding-3-small").waitFor();
      await saveScreenshot(page, "manage-channel-drawer-zh");
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await page.locator("#channel-table").getByText("ui-channel", { exact: true }).waitFor();
    });
    const [created] = await server.store.query<{ id: number; models: string; key: string }>("select id, models, key from channels where name = 'ui-channel'");
    expect([created!.models, created!.key]).toEqual(["gpt-4o-mini,gpt-4o,text-embedding-3-small", "sk-ui-key"]);

    await step(page, "test", async () => {
      // A 1.2 s answer lands in the 1-3 s band (lime).
      upstream.behave("sk-ui-key", { delayMs: 1200 });
      const row = page.locator(`tr[data-channel-row="${created!.id}"]`);
      await row.getByRole("button", { name: "测试", exact: true }).click();
      await page.locator("#toasts").getByText(/^通道 ui-channel 测试成功，耗时 1\.\d\d 秒。$/).waitFor();
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
      await tagRow.getByRole("button", { name: "禁用全部" }).click();
      await page.locator('tr[data-tag-row="team-x"]', { hasText: "0/2 已启用" }).waitFor();
      const statuses = await server.store.query<{ status: number }>("select status from channels where tag = 'team-x'");
      expect(statuses.map((row) => Number(row.status))).toEqual([2, 2]);
      expect(await page.locator("#channel-table tr", { hasText: "tagged-a" }).getByText("已禁用").count()).toBe(1);
    });
  }, 60_000);

  test("the channel form's and the tag tools' messages of spec §5", async () => {
    const page = await adminPage();
    const drawer = drawerOf(page);
    await step(page, "drawer-messages", async () => {
      await page.getByRole("button", { name: "添加渠道" }).click();
      await drawer.getByRole("button", { name: "清除所有模型" }).click();
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await toast(page, "请填写渠道名称和渠道密钥！");
      await drawer.getByRole("button", { name: "获取模型列表" }).click();
      await toast(page, "请填写密钥");
      await field(drawer, "名称").fill("form-channel");
      await field(drawer, "密钥").fill("sk-form");
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await toast(page, "请至少选择一个模型！");
      await drawer.getByLabel("自定义模型名称").fill("my-model, my-model");
      await drawer.getByRole("button", { name: "填入", exact: true }).click();
      await toast(page, "某些模型已存在！");
      await drawer.getByLabel("自定义模型名称").fill("my-model");
      await drawer.getByRole("button", { name: "填入", exact: true }).click();
      await drawer.getByLabel("模型重定向").fill("{not json");
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await toast(page, "模型映射必须是合法的 JSON 格式！");
      await drawer.getByRole("button", { name: "关闭" }).first().click();
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
      await toast(page, "请先选择要设置标签的渠道！");
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
  }, 60_000);
});
