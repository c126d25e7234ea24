// The channel operator tools of issue 26 in Chromium: the test dialog of a channel with 40 long
// model names (search, full names, one, several or every model tested with each result shown), a
// group list that is never cut off, a multi-key channel created in the drawer whose dead key the
// relay disables alone (the list and the drawer show it; the drawer enables it again), and the
// channel table's column chooser, remembered by the browser.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { rootPassword } from "../helpers/api-session.ts";
import { addToken, n, one, postRelay, type RelayWorld, setOptions, startRelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let browser: Browser;
const longModels = Array.from({ length: 40 }, (_, index) => `vendor-research-preview-model-${index}-with-a-long-context-2026-11-01`);

beforeAll(async () => {
  world = await startRelayWorld();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await world?.stop();
});

async function adminPage(): Promise<Page> {
  const context = await newContext(browser, { baseURL: world.server.url });
  const page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  await page.goto("/channel");
  return page;
}

const drawerOf = (page: Page) => page.locator("dialog[aria-labelledby=channel-drawer-title]");

describe("the test dialog", () => {
  test("40 long model names: searched, shown whole, tested one, several and all, each result in its row", async () => {
    const created = await world.root.post("/api/channel/", {
      name: "many-models",
      type: 1,
      key: "sk-many-models",
      base_url: world.upstream.url,
      models: longModels.join(","),
      group: "default,vip,svip",
    });
    const id = created.body.data[0].id as number;
    const page = await adminPage();
    const row = page.locator(`tr[data-channel-row="${id}"]`);
    await step(page, "groups-whole", async () => {
      // Three group badges, none cut off.
      const groups = row.locator('td[data-col="group"] > span');
      expect(await groups.locator(".badge").count()).toBe(3);
      expect(
        await groups.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight),
      ).toBe(true);
    });
    const dialog = page.locator("#channel-test-dialog");
    await step(page, "open", async () => {
      await row.getByRole("button", { name: "选择测试模型" }).click();
      await dialog.getByRole("heading", { name: "测试渠道 many-models" }).waitFor();
      expect(await dialog.locator("[data-test-model]").count()).toBe(40);
      // Full names, wrapped, with the name in the title too.
      const name = dialog.locator("[data-test-model] span[title]").first();
      expect(await name.textContent()).toBe(longModels[0]);
      expect(await name.getAttribute("title")).toBe(longModels[0]);
      expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await saveScreenshot(page, "channel-test-dialog");
    });
    await step(page, "one", async () => {
      await dialog.locator(`[data-test-model="${longModels[7]}"]`).getByRole("button", { name: "测试", exact: true }).click();
      await dialog.locator(`[data-test-model="${longModels[7]}"] [data-test-result][data-outcome="passed"]`).waitFor();
      expect(await dialog.locator(`[data-test-model="${longModels[7]}"] [data-test-result]`).textContent()).toMatch(/^\d+\.\d\d 秒$/);
      expect(world.upstream.received.at(-1)!.json.model).toBe(longModels[7]);
    });
    await step(page, "search-and-several", async () => {
      await dialog.getByPlaceholder("模型名称的任意部分").fill("model-1");
      // model-1 and model-10 ... model-19.
      expect(await dialog.locator("[data-test-model]:visible").count()).toBe(11);
      await dialog.getByLabel("全选").check();
      world.upstream.reset();
      await dialog.getByRole("button", { name: "测试所选" }).click();
      await dialog.getByText("已测试 11/11，0 个失败").waitFor();
      expect(world.upstream.received.map((received) => received.json.model).sort()).toEqual(
        longModels.filter((model) => model.includes("model-1")).sort(),
      );
    });
    await step(page, "all-with-a-failure", async () => {
      await dialog.getByPlaceholder("模型名称的任意部分").fill("");
      world.upstream.reset();
      world.upstream.behave("sk-many-models", [...Array(39).fill({}), { status: 500 }]);
      await dialog.getByRole("button", { name: "测试全部 40 个模型" }).click();
      await dialog.getByText("已测试 40/40，1 个失败").waitFor({ timeout: 60_000 });
      expect(world.upstream.received).toHaveLength(40);
      expect(await dialog.locator('[data-test-result][data-outcome="passed"]').count()).toBe(39);
      expect(await dialog.locator('[data-test-result][data-outcome="failed"]').textContent()).toContain("mock failure 500");
      world.upstream.reset();
    });
  });
});

describe("a multi-key channel", () => {
  test("created in the drawer; its dead key disabled alone and shown; enabled again from the drawer", async () => {
    await setOptions(world, { AutomaticDisableChannelEnabled: true });
    const page = await adminPage();
    await step(page, "create", async () => {
      await page.getByRole("button", { name: "添加渠道" }).click();
      const drawer = drawerOf(page);
      await drawer.getByRole("heading", { name: "创建新的渠道" }).waitFor();
      await drawer.locator("label", { hasText: "名称" }).locator("input").first().fill("key-pool");
      await drawer.locator("label", { hasText: "代理地址" }).locator("input").first().fill(world.upstream.url);
      await drawer.locator("label", { hasText: "密钥模式" }).locator("select").selectOption("multi");
      await drawer.locator("label", { hasText: "密钥选择方式" }).locator("select").selectOption("polling");
      await drawer.locator("label", { hasText: "密钥" }).locator("textarea").first().fill("sk-pool-a\nsk-pool-dead\nsk-pool-c");
      await drawer.getByRole("button", { name: "清除所有模型" }).click();
      await drawer.getByPlaceholder("输入自定义模型名称，逗号分隔").fill("gpt-4o-mini");
      await drawer.getByPlaceholder("输入自定义模型名称，逗号分隔").press("Enter");
      await drawer.getByRole("button", { name: "提交", exact: true }).click();
      await page.locator("#channel-table").getByText("key-pool", { exact: true }).waitFor();
    });
    const channel = await one(world, "select id, key, channel_info from channels where name = 'key-pool'");
    expect(channel.key).toBe("sk-pool-a\nsk-pool-dead\nsk-pool-c");
    expect(JSON.parse(channel.channel_info)).toMatchObject({ is_multi_key: true, multi_key_mode: "polling", multi_key_size: 3 });
    const id = n(channel.id);
    await world.root.put("/api/channel/", { id, priority: 100 });

    world.upstream.behave("sk-pool-dead", { status: 401 });
    const token = await addToken(world.root, { name: "pool-caller" });
    for (let call = 0; call < 4; call++) {
      expect(
        (await postRelay(world, "/v1/chat/completions", token.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }))
          .status,
      ).toBe(200);
    }
    await step(page, "list-shows-the-keys", async () => {
      await page.getByRole("button", { name: "刷新" }).click();
      await page.locator(`tr[data-channel-row="${id}"] [data-keys="2/3"]`).waitFor();
      expect(await page.locator(`tr[data-channel-row="${id}"] [data-keys]`).getAttribute("title")).toContain(
        "密钥 #2 自动禁用：status 401",
      );
    });
    await step(page, "drawer-enables-it", async () => {
      await page.locator(`tr[data-channel-row="${id}"]`).getByRole("button", { name: "编辑" }).click();
      const drawer = drawerOf(page);
      const dead = drawer.locator('[data-key-list] [data-key-index="1"]');
      await dead.getByText("自动禁用").waitFor();
      expect(await dead.textContent()).toContain("status 401");
      await saveScreenshot(page, "channel-drawer-keys");
      world.upstream.reset();
      await dead.getByRole("button", { name: "启用" }).click();
      await dead.getByText("已启用").waitFor();
      await drawer.getByText("已启用 3/3 个密钥").waitFor();
    });
    const info = JSON.parse((await one(world, "select channel_info from channels where id = ?", id)).channel_info);
    expect(info.multi_key_status_list).toEqual({});
    await setOptions(world, { AutomaticDisableChannelEnabled: false });
  });
});

describe("the column chooser", () => {
  test("hides a column of the channel table, remembered after a reload, and shows all again", async () => {
    const page = await adminPage();
    const header = () => page.locator("#channel-table thead th");
    await step(page, "hide", async () => {
      expect(await header().allTextContents()).toContain("类型");
      await page.locator('[data-column-chooser="channel-table"] summary').click();
      await page.locator('[data-column-chooser="channel-table"]').getByLabel("类型").uncheck();
      await page.waitForFunction(() => ![...document.querySelectorAll("#channel-table thead th")].some((th) => th.textContent === "类型"));
      expect(await page.locator('#channel-table td[data-col="type"]').count()).toBe(0);
    });
    await step(page, "remembered", async () => {
      await page.reload();
      await page.locator("#channel-table").waitFor();
      expect(await header().allTextContents()).not.toContain("类型");
      expect(await header().allTextContents()).toContain("状态");
    });
    await step(page, "show-all", async () => {
      await page.locator('[data-column-chooser="channel-table"] summary').click();
      await page.locator('[data-column-chooser="channel-table"]').getByRole("button", { name: "显示全部列" }).click();
      await page.waitForFunction(() => [...document.querySelectorAll("#channel-table thead th")].some((th) => th.textContent === "类型"));
    });
  });
});
