// The super admin's settings tabs in a real browser: sections send only the changed keys (or warn
// that nothing changed, or that a save got no answer), JSON editors are checked, the visual pricing editor's rules hold, the
// payment settings need the server address, switches save at once (turning password login off
// asks first), metrics and backups are switched on with their token and retention count, and a
// new notice appears to visitors.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { rootSession, type ApiSession, rootPassword } from "../helpers/api-session.ts";
import { answerConfirmation } from "../helpers/confirm-dialog.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

// Browser steps take a few seconds each; bun's default of 5 s per test is too tight for them.
setDefaultTimeout(120_000);

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let root: ApiSession;
/** Bodies of every PUT /api/option/ the page sent. */
const optionWrites: unknown[] = [];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  root = await rootSession(server.url);
  context = await newContext(browser, { baseURL: server.url });
  page = await context.newPage();
  page.on("request", (request) => {
    if (request.method() === "PUT" && request.url().endsWith("/api/option/")) optionWrites.push(request.postDataJSON());
  });
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  // A channel serving gpt-4o-mini to the default and vip groups, so /pricing lists it.
  const channel = await root.post("/api/channel/", {
    name: "priced",
    type: 1,
    key: "sk-priced",
    base_url: "http://127.0.0.1:9",
    models: "gpt-4o-mini",
    group: "default,vip",
  });
  expect(channel.body.success).toBe(true);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function option(key: string): Promise<string> {
  const list = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
  return list.find((entry) => entry.key === key)!.value;
}

const section = (id: string) => page.locator(`section[aria-labelledby="${id}"]`);
/** Runs an action that saves options and waits for the server's answer to it. */
async function saved(action: () => Promise<unknown>): Promise<void> {
  const response = page.waitForResponse((r) => r.url().endsWith("/api/option/") && r.request().method() === "PUT");
  await action();
  expect((await (await response).json()).success).toBe(true);
}
const toast = (text: string) => page.locator("#toasts").getByText(text).first().waitFor();

describe("settings tabs", () => {
  test("only the super admin sees the five tabs", async () => {
    await step(page, "tabs", async () => {
      await page.goto("/setting");
      for (const name of ["个人设置", "运营设置", "速率限制设置", "模型相关设置", "系统设置", "其他设置"]) {
        expect(await page.getByRole("tab", { name }).count()).toBe(1);
      }
    });
  });

  test("a section sends only what changed, and warns when nothing did", async () => {
    await step(page, "operation", async () => {
      await page.goto("/setting?tab=operation");
      const general = section("operation-general");
      await general.getByRole("button", { name: "保存" }).click();
      await toast("你似乎并没有修改什么");
      expect(optionWrites).toHaveLength(0);
      await general.getByLabel("失败重试次数").fill("3");
      await general.getByLabel("以货币形式显示额度").uncheck();
      await saved(() => general.getByRole("button", { name: "保存" }).click());
      await toast("保存成功");
      expect(optionWrites.at(-1)).toEqual([
        { key: "RetryTimes", value: "3" },
        { key: "DisplayInCurrencyEnabled", value: "false" },
      ]);
      expect(await option("RetryTimes")).toBe("3");
      await general.getByRole("button", { name: "保存" }).click();
      await toast("你似乎并没有修改什么");
      await general.getByLabel("以货币形式显示额度").check();
      await saved(() => general.getByRole("button", { name: "保存" }).click());
      expect((await root.get("/api/status")).body.data.display_in_currency).toBe(true);
      await saveScreenshot(page, "settings-operation");
    });
  });

  test("a new install has no chat links; one click turns the default ones on", async () => {
    await step(page, "chat-links", async () => {
      await page.goto("/setting?tab=operation");
      const general = section("operation-general");
      const chats = general.getByLabel("聊天配置");
      expect(JSON.parse(await chats.inputValue())).toEqual([]);
      await saved(() => general.getByRole("button", { name: "启用默认聊天链接" }).click());
      await toast("保存成功");
      const shown = JSON.parse(await chats.inputValue()) as Record<string, string>[];
      expect(shown.map((entry) => Object.keys(entry)[0])).toEqual([
        "ChatGPT Next Web 官方示例",
        "Lobe Chat 官方示例",
        "AMA 问天",
        "OpenCat",
      ]);
      expect(JSON.parse(await option("Chats"))).toEqual(shown);
      // The field's baseline is the saved value: the section has nothing new to send.
      await general.getByRole("button", { name: "保存" }).click();
      await toast("你似乎并没有修改什么");
      await page.goto("/token");
      await page.locator('#sidebar a[href="/chat/3"]').waitFor({ state: "attached" });
    });
  });

  test("a save that gets no answer says 保存失败，请重试 and keeps the change to send again", async () => {
    await step(page, "save-failed", async () => {
      await page.goto("/setting?tab=operation");
      const general = section("operation-general");
      await page.route("**/api/option/", (route) =>
        route.request().method() === "PUT" ? route.abort("connectionreset") : route.continue(),
      );
      try {
        await general.getByLabel("失败重试次数").fill("5");
        await general.getByRole("button", { name: "保存" }).click();
        await toast("保存失败，请重试");
        expect(await option("RetryTimes")).toBe("3");
      } finally {
        await page.unroute("**/api/option/");
      }
      // Nothing was committed as the new baseline, so the same change is sent again.
      await saved(() => general.getByRole("button", { name: "保存" }).click());
      expect(optionWrites.at(-1)).toEqual([{ key: "RetryTimes", value: "5" }]);
      expect(await option("RetryTimes")).toBe("5");
    });
  });

  test("payment settings need the server address, which the system tab sets", async () => {
    await step(page, "payment", async () => {
      const payment = section("operation-payment");
      await payment.getByRole("alert").getByText("请先填写服务器地址").waitFor();
      await payment.getByLabel("支付地址").fill("https://pay.example.com");
      await payment.getByRole("button", { name: "保存" }).click();
      await toast("请先填写服务器地址");
      expect(await option("PayAddress")).toBe("");
    });
    await step(page, "server-address", async () => {
      await page.goto("/setting?tab=system");
      const server_ = section("system-server");
      await server_.getByLabel("服务器地址").fill("https://gw.example.com/");
      await saved(() => server_.getByRole("button", { name: "更新服务器地址" }).click());
      expect(await option("ServerAddress")).toBe("https://gw.example.com");
      await page.goto("/setting?tab=operation");
      const payment = section("operation-payment");
      await payment.getByText("支付回调地址：https://gw.example.com/api/user/epay/notify").waitFor();
      await payment.getByLabel("支付地址").fill("https://pay.example.com/");
      await payment.getByLabel("易支付商户密钥").fill("secret-merchant-key");
      await saved(() => payment.getByRole("button", { name: "保存" }).click());
      expect(await option("PayAddress")).toBe("https://pay.example.com");
      await page.reload();
      // Secrets are never shown back.
      expect(await section("operation-payment").getByLabel("易支付商户密钥").inputValue()).toBe("");
      expect(await page.content()).not.toContain("secret-merchant-key");
    });
  });

  test("log cleanup needs a date, asks, and deletes the entries before it", async () => {
    await step(page, "logs", async () => {
      const old = Math.floor(new Date("2020-01-10T12:00:00").getTime() / 1000);
      for (const at of [old, old + 60, Math.floor(Date.now() / 1000)]) {
        await server.store.query(
          "insert into logs (user_id, username, created_at, type, content) values (1, 'root', ?, 4, 'old entry')",
          at,
        );
      }
      const logs = section("operation-logs");
      // The console's date format, not the browser's (a native date field would show 01/31/2021).
      expect(await logs.getByLabel("日志记录时间").inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
      await logs.getByLabel("日志记录时间").fill("");
      await logs.getByRole("button", { name: "清除历史日志" }).click();
      await toast("请选择日志记录时间");
      await logs.getByLabel("日志记录时间").fill("2021-01-01 00:00:00");
      await logs.getByRole("button", { name: "清除历史日志" }).click();
      await answerConfirmation(page);
      await toast("2 条日志已清理！");
      const [left] = await server.store.query<{ count: number }>("select count(*) as count from logs where content = 'old entry'");
      expect(Number(left!.count)).toBe(1);
    });
  });

  test("the model tab's JSON editors are validated, and /pricing follows a group ratio change", async () => {
    await step(page, "json", async () => {
      await page.goto("/setting?tab=model");
      const ratios = section("model-ratios");
      const before = optionWrites.length;
      await ratios.getByLabel("分组倍率").fill('{"default": 1, "vip": ');
      await ratios.getByRole("button", { name: "保存模型倍率设置" }).click();
      await toast("不是合法的 JSON 字符串");
      expect(optionWrites.length).toBe(before);
      await ratios.getByLabel("分组倍率").fill('{"default": 1, "vip": 2.5, "svip": 1}');
      await saved(() => ratios.getByRole("button", { name: "保存模型倍率设置" }).click());
      expect(optionWrites.at(-1)).toEqual([{ key: "GroupRatio", value: '{"default": 1, "vip": 2.5, "svip": 1}' }]);
      expect(JSON.parse(await option("GroupRatio"))).toEqual({ default: 1, vip: 2.5, svip: 1 });
    });
    await step(page, "pricing-follows", async () => {
      // gpt-4o-mini: ratio 0.075 -> $0.15 per 1M input tokens, times the vip ratio.
      await page.goto("/pricing?group=vip");
      await page.getByText("输入 $0.375 / 1M tokens").first().waitFor();
      await page.goto("/setting?tab=model");
      await saved(() =>
        section("model-ratios")
          .getByLabel("分组倍率")
          .fill('{"default": 1, "vip": 4, "svip": 1}')
          .then(() => section("model-ratios").getByRole("button", { name: "保存模型倍率设置" }).click()),
      );
      await page.goto("/pricing?group=vip");
      await page.getByText("输入 $0.6 / 1M tokens").first().waitFor();
      expect(await page.getByRole("combobox", { name: "分组" }).locator("option:checked").textContent()).toBe("vip（倍率 4）");
      await saveScreenshot(page, "settings-pricing-follows");
    });
  });

  test("the visual pricing editor: numbers only, unique names, a fixed price disables the ratios, 10 rows a page", async () => {
    await step(page, "editor", async () => {
      await page.goto("/setting?tab=model");
      const table = page.getByTestId("pricing-table");
      await table.locator("tbody tr").first().waitFor();
      expect(await table.locator("tbody tr").count()).toBe(10);
      await page.getByRole("button", { name: "应用更改" }).click();
      await toast("你似乎并没有修改什么");

      await page.getByLabel("新模型名称").fill("my-model");
      await page.getByLabel("新模型倍率").fill("abc");
      await toast("请输入数字");
      expect(await page.getByLabel("新模型倍率").inputValue()).toBe("");
      await page.getByLabel("新模型固定价格").fill("0.25");
      expect(await page.getByLabel("新模型倍率").isDisabled()).toBe(true);
      await page.getByRole("button", { name: "添加模型" }).click();
      await page.getByLabel("新模型名称").fill("my-model");
      await page.getByRole("button", { name: "添加模型" }).click();
      await toast("模型名称已存在");

      await page.getByLabel("搜索模型名称").fill("gpt-4o-mini");
      const row = table.locator("tbody tr", { hasText: /^gpt-4o-mini/ }).first();
      await row.getByLabel("gpt-4o-mini 模型倍率").fill("0.1");
      await page.getByRole("button", { name: "应用更改" }).click();
      await page.waitForLoadState("load");
      await toast("保存成功");
      const prices = JSON.parse(await option("ModelPrice"));
      const ratios = JSON.parse(await option("ModelRatio"));
      expect(prices["my-model"]).toBe(0.25);
      expect(ratios["my-model"]).toBeUndefined();
      expect(ratios["gpt-4o-mini"]).toBe(0.1);
      await saveScreenshot(page, "settings-pricing-editor");
    });
    await step(page, "reset", async () => {
      await page.getByRole("button", { name: "重置模型倍率" }).click();
      await answerConfirmation(page);
      await toast("重置模型倍率成功");
      expect(JSON.parse(await option("ModelRatio"))["gpt-4o-mini"]).toBe(0.075);
    });
  });

  test("switches save at once; turning password login off asks first", async () => {
    await step(page, "switches", async () => {
      await page.goto("/setting?tab=system");
      const login = section("system-login");
      await saved(() => login.getByLabel("允许通过密码进行注册").uncheck());
      expect((await root.get("/api/status")).body.data.password_register_enabled).toBe(false);

      await login.getByLabel("允许通过密码进行登录").click();
      await answerConfirmation(page, false);
      expect(await login.getByLabel("允许通过密码进行登录").isChecked()).toBe(true);
      expect((await root.get("/api/status")).body.data.password_login_enabled).toBe(true);

      let asked = "";
      await saved(async () => {
        await login.getByLabel("允许通过密码进行登录").click();
        asked = await answerConfirmation(page);
      });
      expect(asked).toBe("确定要取消密码登录吗？取消后没有绑定其他登录方式的用户将无法登录。");
      expect((await root.get("/api/status")).body.data.password_login_enabled).toBe(false);

      await login.getByLabel("允许通过 GitHub 账户登录 & 注册").click();
      await toast("无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！");
      expect(await login.getByLabel("允许通过 GitHub 账户登录 & 注册").isChecked()).toBe(false);
      await saveScreenshot(page, "settings-system");
    });
    await step(page, "login-page", async () => {
      const visitor = await newContext(browser, { baseURL: server.url });
      const other = await visitor.newPage();
      await other.goto("/login");
      await other.getByText("管理员关闭了密码登录").waitFor();
      await visitor.close();
      await page.goto("/setting?tab=system");
      await saved(() => section("system-login").getByLabel("允许通过密码进行登录").check());
    });
  });

  test("the email whitelist drops empty and repeated entries", async () => {
    await step(page, "whitelist", async () => {
      const whitelist = section("system-email-domains");
      await whitelist.getByLabel("允许的邮箱域名").fill("gmail.com, ,qq.com,gmail.com\nexample.org,");
      await saved(() => whitelist.getByRole("button", { name: "保存邮箱域名白名单设置" }).click());
      expect(await option("EmailDomainWhitelist")).toBe("gmail.com,qq.com,example.org");
    });
  });

  test("metrics and daily backups are switched on in the system tab; /metrics opens with the token", async () => {
    await step(page, "observability", async () => {
      await page.goto("/setting?tab=system");
      const observability = section("system-observability");
      const metricsToken = "console-metrics-token-0123";
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).status).toBe(404);
      await observability.getByLabel("启用 Prometheus 指标接口").check();
      await observability.getByRole("button", { name: "保存指标与备份设置" }).click();
      await toast("无法启用指标接口，请先填入指标接口的访问令牌！");
      await observability.getByLabel("指标接口的访问令牌").fill(metricsToken);
      await observability.getByLabel("保留的备份份数").fill("3");
      await saved(() => observability.getByRole("button", { name: "保存指标与备份设置" }).click());
      expect([await option("MetricsEnabled"), await option("DailyBackupKeep")]).toEqual(["true", "3"]);
      const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("switchyard_requests_total");
      await page.reload();
      expect(await section("system-observability").getByLabel("指标接口的访问令牌").inputValue()).toBe("");
      expect(await page.content()).not.toContain(metricsToken);
      await saveScreenshot(page, "settings-observability");
    });
  });

  test("a new notice is shown to visitors", async () => {
    await step(page, "notice", async () => {
      await page.goto("/setting?tab=other");
      const notice = section("other-notice");
      await notice.getByLabel("公告内容").fill("**Maintenance** tonight at 22:00");
      await saved(() => notice.getByRole("button", { name: "设置公告" }).click());
      const visitor = await newContext(browser, { baseURL: server.url });
      const other = await visitor.newPage();
      await other.goto("/about");
      const dialog = other.locator("#notice-dialog");
      await dialog.getByText("系统公告").waitFor();
      await dialog.getByText("Maintenance").waitFor();
      expect(await dialog.locator("strong").textContent()).toBe("Maintenance");
      await saveScreenshot(other, "settings-notice");
      await visitor.close();
    });
  });
});
