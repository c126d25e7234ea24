// Account flows in a real browser: register with a mailed code, sign out, reset the password by
// the mailed link and sign in with the new one; an admin promotes, bans and deletes users from
// /user; a user changes notification settings and meets the https rule.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ApiSession, newUserSession, rootSession, rootPassword } from "../helpers/api-session.ts";
import { answerConfirmation } from "../helpers/confirm-dialog.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startMailCatcher, type MailCatcher } from "../helpers/mail-catcher.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let browser: Browser;
let mail: MailCatcher;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  mail = await startMailCatcher();
  browser = await launchBrowser();
  root = await rootSession(server.url);
  const configured = await root.put("/api/option/", [...mail.options, { key: "EmailVerificationEnabled", value: "true" }]);
  expect(configured.body.success).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mail?.close();
});

const toast = (page: Page, text: string) => page.locator("#toasts").getByText(text, { exact: false }).first().waitFor();

describe("email verification and password reset", () => {
  test("register with a mailed code, sign out, reset the password by the mailed link, sign in with the new one", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "register", async () => {
      await page.goto("/register");
      await page.getByLabel("用户名", { exact: true }).fill("mira");
      await page.getByLabel("密码", { exact: true }).fill("first-password1");
      await page.getByLabel("确认密码").fill("first-password1");
      await page.getByLabel("邮箱").fill("mira@example.com");
      const sendCode = page.getByRole("button", { name: "获取验证码" });
      await sendCode.click();
      await toast(page, "验证码发送成功，请检查你的邮箱！");
      // The button waits 30 seconds before another code.
      await page.getByRole("button", { name: /重新发送 \(\d+\)/ }).waitFor();
      expect(await page.getByRole("button", { name: /重新发送/ }).isDisabled()).toBe(true);
      const message = await mail.waitForMail("mira@example.com");
      const code = /\b(\d{6})\b/.exec(message.bodyText)![1]!;
      await page.getByLabel("验证码", { exact: true }).fill(code);
      await saveScreenshot(page, "accounts-register-email");
      await page.getByRole("button", { name: "注册", exact: true }).click();
      await page.waitForURL("**/login");
      await toast(page, "注册成功！");
    });
    await step(page, "sign-in-and-out", async () => {
      await loginThroughForm(page, "mira", "first-password1");
      await page.waitForURL("**/token");
      await page.getByRole("button", { name: "账户" }).click();
      await page.getByRole("button", { name: "退出" }).click();
      await page.waitForURL("**/login");
    });
    let link = "";
    await step(page, "request-reset", async () => {
      await page.getByRole("link", { name: "忘记密码？点击重置" }).click();
      await page.waitForURL("**/reset");
      await page.getByLabel("邮箱").fill("mira@example.com");
      await page.getByRole("button", { name: "发送重置邮件" }).click();
      await toast(page, "重置邮件发送成功，请检查邮箱！");
      await page.getByRole("button", { name: /重新发送 \(\d+\)/ }).waitFor();
      link = (await mail.waitForMail("mira@example.com", { since: 1 })).links[0]!;
      expect(link).toContain("/user/reset?email=mira%40example.com&token=");
    });
    let newPassword = "";
    await step(page, "confirm-reset", async () => {
      await page.goto(link);
      const email = page.getByLabel("邮箱");
      expect(await email.inputValue()).toBe("mira@example.com");
      expect(await email.getAttribute("readonly")).not.toBeNull();
      await page.getByRole("button", { name: "确认重置密码" }).click();
      await toast(page, "新密码已复制到剪贴板");
      const field = page.locator("#new-password");
      await expect(field.inputValue()).resolves.toMatch(/^[0-9A-Za-z]{12}$/);
      newPassword = await field.inputValue();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newPassword);
      await saveScreenshot(page, "accounts-reset-confirmed");
    });
    await step(page, "sign-in-new-password", async () => {
      await loginThroughForm(page, "mira", "first-password1");
      await toast(page, "用户名或密码错误，或用户已被封禁");
      await loginThroughForm(page, "mira", newPassword);
      await page.waitForURL("**/token");
    });
    await context.close();
  }, 120_000);
});

describe("user management", () => {
  test("root promotes, bans and deletes users from /user; deleted users have no actions", async () => {
    await root.put("/api/option/", { key: "EmailVerificationEnabled", value: "false" });
    for (const name of ["nina", "omar"]) await newUserSession(server.url, name);
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    const row = (name: string) => page.locator("#users-table tbody tr").filter({ has: page.getByText(name, { exact: true }) });
    await step(page, "list", async () => {
      await loginThroughForm(page, "root", rootPassword);
      await page.waitForURL("**/token");
      await page.goto("/user");
      await row("nina").waitFor();
      await saveScreenshot(page, "accounts-users");
    });
    await step(page, "promote", async () => {
      await row("nina").getByRole("button", { name: "提升" }).click();
      await row("nina").getByText("管理员", { exact: true }).waitFor();
      await toast(page, "操作成功完成！");
      expect(await row("nina").getByRole("button", { name: "提升" }).count()).toBe(0);
      expect(await row("nina").getByRole("button", { name: "降级" }).count()).toBe(1);
    });
    await step(page, "ban", async () => {
      await row("omar").getByRole("button", { name: "禁用" }).click();
      await row("omar").getByText("已封禁").waitFor();
      expect((await new ApiSession(server.url).login("omar", "password123")).body.success).toBe(false);
    });
    await step(page, "delete", async () => {
      await row("omar").getByRole("button", { name: "注销" }).click();
      await answerConfirmation(page);
      await row("omar").getByText("已注销").waitFor();
      expect(await row("omar").getByRole("button").count()).toBe(0);
      const [deleted] = await server.store.query<{ deleted_at: number | null }>("select deleted_at from users where username = 'omar'");
      expect(deleted!.deleted_at).not.toBeNull();
    });
    await step(page, "search", async () => {
      await page.getByRole("searchbox").fill("nina");
      await page.getByRole("button", { name: "搜索" }).click();
      await page.waitForURL("**/user?keyword=nina**");
      expect(await page.locator("#users-table tbody tr").count()).toBe(1);
    });
    await context.close();
  }, 120_000);

  test("an admin edits a user's quota by an added amount and cannot promote", async () => {
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "admin-view", async () => {
      await loginThroughForm(page, "nina", "password123");
      await page.waitForURL("**/token");
      await page.goto("/user");
      const peter = page.locator("#users-table tbody tr").filter({ has: page.getByText("mira", { exact: true }) });
      await peter.waitFor();
      expect(await page.getByRole("button", { name: "提升" }).count()).toBe(0);
      await peter.getByRole("link", { name: "编辑" }).click();
      await page.waitForURL("**/user/edit/*");
      await page.getByLabel("添加额度").fill("-1");
      await page.getByRole("button", { name: "提交" }).click();
      await toast(page, "用户额度不能为负数");
      // The field takes dollars (the site displays currency): $0.005 is 2500 raw units.
      await page.getByLabel("添加额度").fill("0.005");
      await page.getByText("原始额度: 2500").waitFor();
      await page.getByRole("button", { name: "提交" }).click();
      await page.waitForURL("**/user");
      const [mira] = await server.store.query<{ quota: number }>("select quota from users where username = 'mira'");
      expect(Number(mira!.quota)).toBe(2500);
    });
    await context.close();
  }, 120_000);
});

describe("notification settings", () => {
  test("a user picks webhook notifications and is held to https", async () => {
    await newUserSession(server.url, "pablo");
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "settings", async () => {
      await loginThroughForm(page, "pablo", "password123");
      await page.waitForURL("**/token");
      await page.goto("/setting");
      await page.getByRole("heading", { name: "通知设置" }).waitFor();
      expect(await page.getByLabel("额度预警阈值").inputValue()).toBe("1.00");
      await page.getByLabel("Webhook 通知").check();
      await page.getByLabel("Webhook 地址").fill("http://hooks.example.com/alerts");
      await page.getByRole("button", { name: "保存设置" }).click();
      await toast(page, "Webhook地址必须以https开头");
      await page.getByLabel("Webhook 地址").fill("https://hooks.example.com/alerts");
      await page.getByLabel("Webhook 密钥").fill("pablo-secret");
      await page.getByLabel("额度预警阈值").fill("2");
      await page.getByRole("button", { name: "保存设置" }).click();
      await toast(page, "通知设置已更新");
      await saveScreenshot(page, "accounts-notification-settings");
      await page.reload();
      expect(await page.getByLabel("Webhook 地址").inputValue()).toBe("https://hooks.example.com/alerts");
      expect(await page.getByLabel("Webhook 通知").isChecked()).toBe(true);
      expect(await page.getByLabel("额度预警阈值").inputValue()).toBe("2.00");
      expect(await page.locator('input[name="quota_warning_threshold"]').inputValue()).toBe("1000000");
    });
    await context.close();
  }, 120_000);
});

describe("available models", () => {
  test("the personal tab shows the first 10 models and expands the rest", async () => {
    const models = Array.from({ length: 12 }, (_, index) => `model-${String(index + 1).padStart(2, "0")}`);
    const created = await root.post("/api/channel/", {
      name: "catalog",
      type: 1,
      key: "k-catalog",
      models: models.join(","),
      group: "default",
    });
    expect(created.body.success).toBe(true);
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "models", async () => {
      await loginThroughForm(page, "pablo", "password123");
      await page.waitForURL("**/token");
      await page.goto("/setting");
      const card = page.locator("[data-user-models]");
      await card.getByText("model-01", { exact: true }).waitFor();
      expect(await card.locator(".badge").count()).toBe(10);
      await card.getByRole("button", { name: "更多 2 个模型" }).click();
      expect(await card.locator(".badge").count()).toBe(12);
      await card.getByText("model-12", { exact: true }).waitFor();
    });
    await context.close();
  }, 120_000);
});

describe("binding an email address", () => {
  test("a user binds an address from the personal settings with a mailed code", async () => {
    await root.put("/api/option/", { key: "EmailVerificationEnabled", value: "false" });
    await newUserSession(server.url, "quinn");
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "bind-email", async () => {
      await loginThroughForm(page, "quinn", "password123");
      await page.waitForURL("**/token");
      await page.goto("/setting");
      await page.getByRole("button", { name: "绑定邮箱" }).click();
      const dialog = page.locator("#bind-email");
      await dialog.getByLabel("邮箱").fill("quinn@example.com");
      await dialog.getByRole("button", { name: "获取验证码" }).click();
      await toast(page, "验证码发送成功，请检查你的邮箱！");
      const code = /\b(\d{6})\b/.exec((await mail.waitForMail("quinn@example.com")).bodyText)![1]!;
      await dialog.getByLabel("验证码", { exact: true }).fill(code);
      await dialog.getByRole("button", { name: "确定" }).click();
      // The page reloads with the address bound.
      await page.getByRole("button", { name: "修改绑定" }).waitFor();
      const [quinn] = await server.store.query<{ email: string }>("select email from users where username = 'quinn'");
      expect(quinn!.email).toBe("quinn@example.com");
    });
    await context.close();
  }, 120_000);
});

describe("invite links", () => {
  test("the invite code of /register?aff= is kept while the visitor looks around, and credits the inviter", async () => {
    await root.put("/api/option/", [
      { key: "EmailVerificationEnabled", value: "false" },
      { key: "QuotaForInviter", value: "7000" },
    ]);
    const inviter = await newUserSession(server.url, "rosa");
    const code = (await inviter.get("/api/user/aff")).body.data as string;
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await step(page, "invited-register", async () => {
      await page.goto(`/register?aff=${code}`);
      await page.goto("/about");
      await page.goto("/register");
      expect(await page.locator('input[name="aff_code"]').inputValue()).toBe(code);
      await page.getByLabel("用户名", { exact: true }).fill("sami");
      await page.getByLabel("密码", { exact: true }).fill("password123");
      await page.getByLabel("确认密码").fill("password123");
      await page.getByRole("button", { name: "注册", exact: true }).click();
      await page.waitForURL("**/login");
    });
    const [rosa] = await server.store.query<{ id: number; aff_count: number; aff_quota: number }>(
      "select id, aff_count, aff_quota from users where username = 'rosa'",
    );
    const [sami] = await server.store.query<{ inviter_id: number }>("select inviter_id from users where username = 'sami'");
    expect([Number(rosa!.aff_count), Number(rosa!.aff_quota)]).toEqual([1, 7000]);
    expect(Number(sami!.inviter_id)).toBe(Number(rosa!.id));
    await context.close();
  }, 120_000);
});

describe("personal settings", () => {
  test("a user copies the invite link, moves earnings to the balance, changes the password and deletes the account", async () => {
    await root.put("/api/option/", { key: "EmailVerificationEnabled", value: "false" });
    await newUserSession(server.url, "tara");
    await server.store.query("update users set aff_quota = 600000, quota = 0 where username = 'tara'");
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "tara", "password123");
    await page.waitForURL("**/token");
    await page.goto("/setting");
    await step(page, "invite-link", async () => {
      await page.getByRole("button", { name: "复制邀请链接" }).click();
      await toast(page, "邀请链接已复制到剪贴板");
      const [tara] = await server.store.query<{ aff_code: string }>("select aff_code from users where username = 'tara'");
      const link = `${server.url}/register?aff=${tara!.aff_code}`;
      expect(await page.locator("#invite-link").inputValue()).toBe(link);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    });
    await step(page, "aff-transfer", async () => {
      await page.getByLabel("划转额度").fill("600000");
      await page.getByRole("button", { name: "划转到余额" }).click();
      await page.waitForLoadState("load");
      const read = async () =>
        (await server.store.query<{ quota: number; aff_quota: number }>("select quota, aff_quota from users where username = 'tara'"))[0]!;
      for (let tries = 0; tries < 50 && Number((await read()).quota) === 0; tries++) await Bun.sleep(100);
      const row = await read();
      expect([Number(row.quota), Number(row.aff_quota)]).toEqual([600000, 0]);
    });
    await step(page, "password", async () => {
      const form = page.locator("form").filter({ has: page.getByLabel("原密码") });
      await form.getByLabel("原密码").fill("wrong-password");
      await form.getByLabel("新密码", { exact: true }).fill("second-password1");
      await form.getByLabel("确认新密码").fill("second-password1");
      await form.getByRole("button", { name: "修改密码" }).click();
      await toast(page, "原密码错误");
      await form.getByLabel("原密码").fill("password123");
      await form.getByLabel("确认新密码").fill("second-password2");
      await form.getByRole("button", { name: "修改密码" }).click();
      await toast(page, "两次输入的密码不一致！");
      await form.getByLabel("确认新密码").fill("second-password1");
      await form.getByRole("button", { name: "修改密码" }).click();
      await toast(page, "密码修改成功！");
      expect((await new ApiSession(server.url).login("tara", "password123")).body.success).toBe(false);
      expect((await new ApiSession(server.url).login("tara", "second-password1")).body.success).toBe(true);
    });
    await step(page, "delete-account", async () => {
      // This browser's session was renewed by the password change and still works.
      await page.reload();
      await page.getByRole("button", { name: "删除账户" }).click();
      const dialog = page.locator("#delete-account");
      await dialog.getByRole("textbox").fill("not-tara");
      await dialog.getByRole("button", { name: "删除账户" }).click();
      await toast(page, "请输入你的账户名以确认删除！");
      await dialog.getByRole("textbox").fill("tara");
      await dialog.getByRole("button", { name: "删除账户" }).click();
      await page.waitForURL("**/login");
      await toast(page, "账户已删除！");
      const [tara] = await server.store.query<{ deleted_at: number | null }>("select deleted_at from users where username = 'tara'");
      expect(tara!.deleted_at).not.toBeNull();
    });
    await context.close();
  }, 120_000);

  test("an account without a password sets its first one; signing out everywhere ends every session (issue 15 §3-4)", async () => {
    await newUserSession(server.url, "nopass", "password123");
    const context = await newContext(browser, { baseURL: server.url });
    const page = await context.newPage();
    await loginThroughForm(page, "nopass", "password123");
    await page.waitForURL("**/token");
    // What an account created by a social sign-in looks like.
    await server.store.query("update users set password = '' where username = 'nopass'");
    await page.goto("/setting");
    await step(page, "first-password", async () => {
      await page.getByText("你的账户通过第三方登录创建，还没有密码。设置密码后也可以用用户名和密码登录。").waitFor();
      expect(await page.getByLabel("原密码").count()).toBe(0);
      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "设置密码" }) });
      await form.getByLabel("新密码", { exact: true }).fill("first-password1");
      await form.getByLabel("确认新密码").fill("first-password1");
      await form.getByRole("button", { name: "设置密码" }).click();
      // The page comes back with the ordinary form, which now asks for the current password.
      await page.getByLabel("原密码").waitFor();
      await saveScreenshot(page, "personal-first-password");
      expect((await new ApiSession(server.url).login("nopass", "first-password1")).body.success).toBe(true);
    });
    await step(page, "sign-out-everywhere", async () => {
      const elsewhere = new ApiSession(server.url);
      await elsewhere.login("nopass", "first-password1");
      expect((await elsewhere.get("/api/user/self")).status).toBe(200);
      await page.getByRole("button", { name: "退出所有设备" }).click();
      expect(await answerConfirmation(page)).toBe("确定要退出所有设备吗？");
      await page.waitForURL("**/login");
      await toast(page, "已退出所有设备");
      expect((await elsewhere.get("/api/user/self")).status).toBe(401);
      await page.goto("/setting");
      await page.waitForURL("**/login**");
    });
    await context.close();
  }, 120_000);
});
