// A user in a real browser: creates a token in the drawer with presets and a model limit,
// copies its key, calls the relay with it, finds the call in /log with the right quota, exports
// the CSV; and meets each of the token form's messages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { answerConfirmation } from "../helpers/confirm-dialog.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { expectSeen } from "../helpers/seen.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;
const password = "password123";

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  root = await rootSession(server.url);
  await root.post("/api/channel/", {
    name: "upstream",
    type: 1,
    key: "sk-console",
    base_url: upstream.url,
    models: "gpt-4o-mini,gpt-4o",
    group: "default",
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

async function signedIn(username: string): Promise<{ page: Page; session: ApiSession }> {
  const session = await newUserSession(server.url, username, password);
  await server.store.query("update users set quota = 10000000 where username = ?", username);
  const context = await newContext(browser, { baseURL: server.url });
  const page = await context.newPage();
  await loginThroughForm(page, username, password);
  await page.waitForURL("**/token");
  return { page, session };
}

const toast = (page: Page, text: string) => page.locator("#toasts").getByText(text, { exact: true }).waitFor();

describe("tokens, relay and logs", () => {
  test("create with presets and a model limit, copy, call the relay, find it in /log, export CSV", async () => {
    const { page } = await signedIn("tokenuser");
    await step(page, "create-token", async () => {
      await page.getByRole("button", { name: "添加令牌" }).click();
      const drawer = page.locator("#token-drawer");
      await drawer.getByPlaceholder("请输入名称").fill("my-token");
      await drawer.getByRole("button", { name: "$10", exact: true }).click();
      expect(await drawer.locator('input[name="remain_quota"]').inputValue()).toBe("5000000");
      await drawer.getByRole("button", { name: "一天" }).click();
      expect(await drawer.locator('input[name="expired_time"]').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      await drawer.getByText("启用模型限制（非必要，不建议启用）").click();
      await drawer.getByText("gpt-4o-mini", { exact: true }).click();
      await saveScreenshot(page, "manage-token-drawer-zh");
      await drawer.getByRole("button", { name: "提交" }).click();
      await toast(page, "令牌创建成功，请在列表页面点击复制获取令牌！");
      await page.locator("#token-table").getByText("my-token", { exact: true }).waitFor();
    });
    const [stored] = await server.store.query<{
      key: string;
      remain_quota: number;
      expired_time: number;
      model_limits: string;
      model_limits_enabled: unknown;
    }>("select key, remain_quota, expired_time, model_limits, model_limits_enabled from tokens where name = 'my-token'");
    expect([Number(stored!.remain_quota), stored!.model_limits, Boolean(stored!.model_limits_enabled)]).toEqual([
      5000000,
      "gpt-4o-mini",
      true,
    ]);
    const inADay = Math.floor(Date.now() / 1000) + 86400;
    expect(Math.abs(Number(stored!.expired_time) - inADay)).toBeLessThan(120);

    const key = await step(page, "copy-key", async () => {
      const row = page.locator("#token-table tr", { hasText: "my-token" });
      await row.getByText("限制模型").waitFor();
      await row.getByRole("button", { name: "复制", exact: true }).click();
      await toast(page, "已复制到剪贴板");
      return page.evaluate(() => navigator.clipboard.readText());
    });
    expect(key).toBe(`sk-${stored!.key}`);

    const call = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] }),
    });
    expect(call.status).toBe(200);
    const usage = ((await call.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const refused = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hello" }] }),
    });
    expect(refused.status).toBe(403);
    // gpt-4o-mini: ratio 0.075, completion ratio 4, group ratio 1.
    const expectedQuota = Math.round((usage.prompt_tokens + usage.completion_tokens * 4) * 0.075);
    const shown = `$${(expectedQuota / 500000).toFixed(6)}`;

    await step(page, "find-in-log", async () => {
      await page.goto("/log");
      const row = page.locator("#log-table tr", { hasText: "my-token" });
      await row.waitFor();
      expect(await row.textContent()).toContain("gpt-4o-mini");
      expect(await row.textContent()).toContain(shown);
      await page.locator("#log-stat").getByText("消耗额度").waitFor();
      await saveScreenshot(page, "manage-log-user-zh");
    });
    const [logged] = await server.store.query<{ quota: number }>("select quota from logs where token_name = 'my-token'");
    expect(Number(logged!.quota)).toBe(expectedQuota);

    await step(page, "export-csv", async () => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "导出 CSV" }).click()]);
      const csv = readFileSync((await download.path())!, "utf8").replace(/^\ufeff/, "");
      const [header, ...lines] = csv.trim().split(/\r?\n/);
      expect(header).toBe("时间,令牌,分组,类型,模型,用时,流,提示,补全,花费,详情");
      // The refused gpt-4o call left an error entry (type 5) with the same token; take the consumption.
      const line = lines.find((candidate) => candidate.includes("my-token") && candidate.includes(",消费,"))!;
      expect(line).toContain(",消费,gpt-4o-mini,");
      expect(line).toContain(shown);
    });
  }, 120_000);

  test("the token form's messages", async () => {
    const { page } = await signedIn("formuser");
    await step(page, "copy-none", async () => {
      await page.getByRole("button", { name: "复制所选令牌" }).click();
      await toast(page, "请至少选择一个令牌！");
    });
    await step(page, "name-required", async () => {
      await page.getByRole("button", { name: "添加令牌" }).click();
      // The drawer covers the toast corner: the message shows inside it, beside the field.
      const drawer = page.locator("#token-drawer");
      await drawer.getByRole("button", { name: "提交" }).click();
      await expectSeen(drawer.locator(".form-control", { hasText: "名称" }).first().getByRole("alert"), "令牌名称不能为空");
      expect(await drawer.getByPlaceholder("请输入名称").getAttribute("aria-invalid")).toBe("true");
      expect(await page.locator("#toasts").textContent()).not.toContain("令牌名称不能为空");
    });
    await step(page, "bad-expiry", async () => {
      // The picker's text field still takes typing; a time that does not parse gets the spec's message.
      const drawer = page.locator("#token-drawer");
      await drawer.getByPlaceholder("请输入名称").fill("dated");
      await drawer.getByText("永不过期", { exact: true }).click();
      await drawer.locator('input[name="expired_time"]').fill("2025/13/40 10:00");
      await drawer.getByRole("button", { name: "提交" }).click();
      await expectSeen(drawer.locator(".form-control", { hasText: "过期时间" }).first().getByRole("alert"), "过期时间格式错误！");
      // The name's earlier message went with the new answer.
      expect(await drawer.getByRole("alert").count()).toBe(1);
      await saveScreenshot(page, "token-drawer-field-error");
    });
    await step(page, "edit", async () => {
      await page.locator("#token-drawer").getByRole("button", { name: "关闭" }).first().click();
      await page.goto("/token");
      await page.getByRole("button", { name: "添加令牌" }).click();
      await page.locator("#token-drawer").getByPlaceholder("请输入名称").fill("before");
      await page.locator("#token-drawer").getByRole("button", { name: "提交" }).click();
      const row = page.locator("#token-table tr", { hasText: "before" });
      await row.getByRole("button", { name: "编辑" }).click();
      const drawer = page.locator("#token-drawer");
      await drawer.getByRole("heading", { name: "更新令牌信息" }).waitFor();
      expect(await drawer.getByPlaceholder("请输入名称").inputValue()).toBe("before");
      await drawer.getByPlaceholder("请输入名称").fill("after");
      await drawer.getByRole("button", { name: "提交" }).click();
      await toast(page, "令牌更新成功！");
      await page.locator("#token-table").getByText("after", { exact: true }).waitFor();
    });
    await step(page, "groups", async () => {
      expect(await page.locator("#token-drawer select[name=group]").count()).toBe(1);
      await root.put("/api/option/", { key: "UserUsableGroups", value: "{}" });
      await page.goto("/token");
      await page.getByRole("button", { name: "添加令牌" }).click();
      await page.locator("#token-drawer").getByText("管理员未设置用户可选分组").waitFor();
      await root.put("/api/option/", { key: "UserUsableGroups", value: '{"default":"默认分组","vip":"vip分组"}' });
    });
  }, 120_000);
  test("a budget per day and rate limits in the drawer, the period's usage as a bar in the list", async () => {
    const { page } = await signedIn("limituser");
    await step(page, "token-limits", async () => {
      await page.getByRole("button", { name: "添加令牌" }).click();
      const drawer = page.locator("#token-drawer");
      await drawer.getByPlaceholder("请输入名称").fill("budgeted");
      await drawer.locator("select[name=quota_period]").selectOption({ label: "每天" });
      await drawer.locator("#token-period-quota-money").fill("0.4");
      expect(await drawer.locator('input[name="period_quota"]').inputValue()).toBe("200000");
      await drawer.getByLabel("每分钟请求数（RPM）").fill("5");
      await drawer.getByLabel("每分钟 token 数（TPM）").fill("10000");
      await drawer.getByLabel("同时请求数").fill("2");
      await saveScreenshot(page, "token-drawer-limits-zh");
      await drawer.getByRole("button", { name: "提交" }).click();
      await toast(page, "令牌创建成功，请在列表页面点击复制获取令牌！");
    });
    const [stored] = await server.store.query<Record<string, unknown>>(
      "select key, quota_period, period_quota, rpm_limit, tpm_limit, concurrency_limit from tokens where name = 'budgeted'",
    );
    expect([stored!.quota_period, Number(stored!.period_quota), Number(stored!.rpm_limit), Number(stored!.tpm_limit)]).toEqual([
      "day",
      200000,
      5,
      10000,
    ]);
    expect(Number(stored!.concurrency_limit)).toBe(2);
    const answer = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer sk-${stored!.key}` },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], max_tokens: 5 }),
    });
    expect(answer.status).toBe(200);
    await step(page, "token-period-bar", async () => {
      await page.goto("/token");
      const row = page.locator("#token-table tr", { hasText: "budgeted" });
      await row.getByText(/^今日 /).waitFor();
      const bar = row.locator("progress");
      expect(Number(await bar.getAttribute("value"))).toBeGreaterThan(0);
      await saveScreenshot(page, "token-list-period-bar-zh");
    });
  }, 120_000);

  test("row actions: view the key, chat with it, disable and enable, delete", async () => {
    const { page, session } = await signedIn("rowuser");
    const [token] = (await session.post("/api/token/", { name: "row-token" })).body.data;
    await root.put("/api/option/", {
      key: "Chats",
      value: JSON.stringify([{ NextChat: 'https://chat.example.com/#/?settings={"key":"{key}","url":"{address}"}' }]),
    });
    await page.goto("/token");
    const row = page.locator("#token-table tr", { hasText: "row-token" });
    const status = async () =>
      Number((await server.store.query<{ status: number }>("select status from tokens where id = ?", token.id))[0]!.status);
    await step(page, "view-key", async () => {
      expect(await row.getByText(`sk-${token.key}`, { exact: true }).isVisible()).toBe(false);
      await row.locator("summary", { hasText: "**********" }).click();
      await row.getByText(`sk-${token.key}`, { exact: true }).waitFor();
    });
    await step(page, "chat-link", async () => {
      await row.locator("summary", { hasText: "聊天" }).click();
      const link = row.getByRole("link", { name: "NextChat" });
      const href = (await link.getAttribute("href"))!;
      expect(href).toContain(`"key":"sk-${token.key}"`);
      expect(href).toContain(`"url":"${encodeURIComponent(server.url)}"`);
      expect(await link.getAttribute("target")).toBe("_blank");
      // A click elsewhere closes the menu, which would otherwise cover the row's buttons.
      await page.getByRole("alert").first().click();
      await link.waitFor({ state: "hidden" });
    });
    await step(page, "disable-enable", async () => {
      await row.getByRole("button", { name: "禁用" }).click();
      await row.getByText("已禁用").waitFor();
      expect(await status()).toBe(2);
      expect(await row.getAttribute("class")).toContain("bg-base-200");
      await row.getByRole("button", { name: "启用" }).click();
      await row.getByText("已启用").waitFor();
      expect(await status()).toBe(1);
    });
    await step(page, "delete", async () => {
      await row.getByRole("button", { name: "删除" }).click();
      expect(await answerConfirmation(page)).toBe("确定要删除令牌 row-token 吗？");
      await row.waitFor({ state: "detached" });
      expect(await server.store.query("select id from tokens where id = ? and deleted_at is null", token.id)).toEqual([]);
    });
    await root.put("/api/option/", { key: "Chats", value: "[]" });
  }, 120_000);
});
