// The first day in a real browser, at desktop (1366x800) and phone (390x844) sizes, in Chinese
// and English: root signed in with the default password must set a new one before any console
// page; empty pages say what to do next (no channel: add one, which opens the drawer; no token:
// create one, then the API address and a curl line that works as it is; nothing logged: try
// the playground).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { ApiSession, newUserSession, rootPassword, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { defaultRootPasswordHash } from "../../src/services/users/passwords.ts";
import { allCombos, comboName, viewports, type Combo } from "../helpers/screens.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  await rootSession(server.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

const words = {
  zh: {
    gate: "设置新密码",
    newPassword: "新密码",
    confirm: "确认新密码",
    save: "保存新密码并继续",
    warning: "您正在使用默认密码！请立刻修改默认密码！",
    mismatch: "两次输入的密码不一致！",
    noChannel: "还没有渠道",
    addFirst: "添加第一个渠道",
    drawer: "创建新的渠道",
    noToken: "还没有令牌",
    createFirst: "创建第一个令牌",
    tokenDrawer: "创建新的令牌",
    name: "请输入名称",
    submit: "提交",
    firstCall: "发出第一个请求",
    noLogs: "还没有调用记录",
    openPlayground: "打开操练场",
  },
  en: {
    gate: "Set a new password",
    newPassword: "New password",
    confirm: "Confirm new password",
    save: "Save the new password and continue",
    warning: "You are using the default password! Please change it immediately!",
    mismatch: "The two passwords do not match!",
    noChannel: "No channel yet",
    addFirst: "Add your first channel",
    drawer: "New channel",
    noToken: "No token yet",
    createFirst: "Create your first token",
    tokenDrawer: "New token",
    name: "Enter a name",
    submit: "Submit",
    firstCall: "Make a first request",
    noLogs: "No requests yet",
    openPlayground: "Open the playground",
  },
};

async function browse(combo: Combo, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[combo.screen],
    baseURL: server.url,
    locale: combo.language === "en" ? "en-US" : "zh-CN",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  if (combo.language === "en") await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
  const page = await context.newPage();
  await loginThroughForm(page, username, password);
  await page.waitForURL("**/token");
  return page;
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const theme of ["light", "dark"]) {
    await page.evaluate((value) => document.documentElement.setAttribute("data-theme", value), theme);
    await saveScreenshot(page, `${name}-${theme}`);
  }
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

describe("root's default password", () => {
  for (const combo of allCombos) {
    test(`asks for a new password before any console page, through the normal password change (${comboName(combo)})`, async () => {
      // As on a new store: root still has the default password.
      await server.store.query("update users set password = ? where username = 'root'", defaultRootPasswordHash);
      const w = words[combo.language];
      const page = await browse(combo, "root", "123456");
      await step(page, `first-run-gate-${comboName(combo)}`, async () => {
        const gate = page.locator("[data-password-gate]");
        await gate.getByRole("heading", { name: w.gate }).waitFor();
        // The gate says it once: no toast repeats it (the runtime shows pending toasts on load).
        await page.waitForLoadState("load");
        expect(await page.locator("#toasts").getByText(w.warning).count()).toBe(0);
        for (const path of ["/channel", "/playground", "/log", "/setting"]) {
          await page.goto(path);
          await gate.waitFor();
        }
        expect(await sideways(page)).toBe(false);
        await screenshots(page, `first-run-password-${comboName(combo)}`);
        await gate.getByLabel(w.newPassword, { exact: true }).fill(rootPassword);
        await gate.getByLabel(w.confirm, { exact: true }).fill("something-else");
        await gate.getByRole("button", { name: w.save }).click();
        await page.locator("#toasts").getByText(w.mismatch).waitFor();
        await gate.getByLabel(w.confirm, { exact: true }).fill(rootPassword);
        await gate.getByRole("button", { name: w.save }).click();
        // The page asked for loads, in the same session.
        await gate.waitFor({ state: "detached" });
        await page.getByRole("heading", { name: combo.language === "zh" ? "个人信息" : "Profile" }).waitFor();
        expect(new URL(page.url()).pathname).toBe("/setting");
      });
      expect((await new ApiSession(server.url).login("root", "123456")).body.success).toBe(false);
      expect((await new ApiSession(server.url).login("root", rootPassword)).body.success).toBe(true);
      await page.context().close();
    }, 90_000);
  }
});

describe("empty states", () => {
  for (const combo of allCombos) {
    test(`no channel: the page says to add one, and its button opens the drawer (${comboName(combo)})`, async () => {
      const w = words[combo.language];
      const page = await browse(combo, "root", rootPassword);
      await step(page, `first-run-channel-${comboName(combo)}`, async () => {
        await page.goto("/channel");
        const hint = page.locator("#first-channel [data-empty-state]");
        await hint.getByRole("heading", { name: w.noChannel }).waitFor();
        expect(await sideways(page)).toBe(false);
        await screenshots(page, `first-run-no-channel-${comboName(combo)}`);
        await hint.getByRole("button", { name: w.addFirst }).click();
        await page.getByRole("heading", { name: w.drawer }).waitFor();
      });
      await page.context().close();
    }, 90_000);
  }

  for (const combo of allCombos) {
    test(`nothing logged: the log page suggests the playground (${comboName(combo)})`, async () => {
      const w = words[combo.language];
      const username = `quiet${combo.screen[0]}${combo.language}`;
      await newUserSession(server.url, username, "password123");
      const page = await browse(combo, username, "password123");
      await step(page, `first-run-logs-${comboName(combo)}`, async () => {
        await page.goto("/log");
        const hint = page.locator("[data-empty-state]");
        await hint.getByRole("heading", { name: w.noLogs }).waitFor();
        expect(await sideways(page)).toBe(false);
        await screenshots(page, `first-run-no-logs-${comboName(combo)}`);
        await hint.getByRole("link", { name: w.openPlayground }).click();
        await page.waitForURL("**/playground");
      });
      await page.context().close();
    }, 90_000);
  }

  for (const combo of allCombos) {
    test(`no token: create one, then the API address and a curl line that works; gone after the first call (${comboName(combo)})`, async () => {
      const w = words[combo.language];
      // The first-run tests above changed root's password, which ended the earlier session.
      const admin = await rootSession(server.url);
      if ((await admin.get("/api/channel/")).body.data.length === 0) {
        await admin.post("/api/channel/", {
          name: "main",
          type: 1,
          key: "sk-first-run",
          base_url: upstream.url,
          models: "gpt-4o-mini",
          group: "default",
        });
      }
      const username = `fresh${combo.screen[0]}${combo.language}`;
      const session = await newUserSession(server.url, username, "password123");
      await server.store.query("update users set quota = 10000000 where username = ?", username);
      const page = await browse(combo, username, "password123");
      await step(page, `first-run-token-${comboName(combo)}`, async () => {
        const region = page.locator("#first-token");
        await region.getByRole("heading", { name: w.noToken }).waitFor();
        await screenshots(page, `first-run-no-token-${comboName(combo)}`);
        await region.getByRole("button", { name: w.createFirst }).click();
        const drawer = page.locator("#token-drawer");
        await drawer.getByRole("heading", { name: w.tokenDrawer }).waitFor();
        await drawer.getByPlaceholder(w.name).fill("my-first");
        await drawer.getByRole("button", { name: w.submit }).click();
        await region.getByRole("heading", { name: w.firstCall }).waitFor();
        expect(await region.locator('[data-first-call="base-url"]').textContent()).toBe(`${server.url}/v1`);
        // The key is masked on screen like in the list; the copy button gives the whole line.
        const key = (await session.get("/api/token/")).body.data[0].key as string;
        expect(await region.locator('[data-first-call="curl"]').textContent()).not.toContain(key);
        expect(await sideways(page)).toBe(false);
        await screenshots(page, `first-run-first-call-${comboName(combo)}`);
        await region.locator('[data-first-call="curl"] + button').click();
        const curl = await page.evaluate(() => navigator.clipboard.readText());
        expect(curl).toContain(`Bearer sk-${key}`);
        // The line runs as it is, in a shell.
        upstream.behave("sk-first-run", { content: "It works.", chunks: 2 });
        // (Not spawnSync: the upstream imitation answers from this process.)
        const run = Bun.spawn({ cmd: ["sh", "-c", `${curl} --silent --show-error`], stdout: "pipe" });
        const output = await new Response(run.stdout).text();
        expect(JSON.parse(output).choices[0].message.content).toBe("It works.");
        await page.reload();
        await page.locator("#token-table").getByText("my-first").waitFor();
        expect(await region.locator("[data-empty-state]").count()).toBe(0);
      });
      await page.context().close();
    }, 90_000);
  }
});
