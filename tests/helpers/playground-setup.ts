// Shared by the playground browser suites: a gateway with an OpenAI upstream imitation behind two
// channels (one for the default and vip groups, one for vip only), prices, a user with quota and a
// token; a browser page for a screen size, language and theme, signed in as that user.
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { newUserSession, rootSession, type ApiSession } from "./api-session.ts";
import { launchBrowser, loginThroughForm, saveScreenshot } from "./browser.ts";
import { type Combo, viewports } from "./screens.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

export { allCombos, comboName, crossCombos, otherCrossCombos, viewports, type Combo } from "./screens.ts";

const texts = {
  zh: {
    message: "消息",
    send: "发送",
    stop: "停止",
    viewCode: "查看代码",
    compare: "对比",
    parameters: "参数",
    copy: "复制",
    edit: "编辑",
    regenerate: "重新生成",
    delete: "删除",
    saveResend: "保存并重新发送",
    save: "保存",
    system: "系统提示词",
    stopped: "已停止生成",
    reasoning: "思考过程",
    clear: "清除上下文",
    group: "计费分组",
    model: "模型",
    attach: "附加图片（视觉模型）",
    search: "按名称搜索模型",
    token: "使用的令牌",
    close: "关闭",
  },
  en: {
    message: "Message",
    send: "Send",
    stop: "Stop",
    viewCode: "View code",
    compare: "Compare",
    parameters: "Parameters",
    copy: "Copy",
    edit: "Edit",
    regenerate: "Regenerate",
    delete: "Delete",
    saveResend: "Save and send again",
    save: "Save",
    system: "System prompt",
    stopped: "Stopped",
    reasoning: "Reasoning",
    clear: "Clear context",
    group: "Billing group",
    model: "Model",
    attach: "Attach images (vision models)",
    search: "Search models by name",
    token: "Token to use",
    close: "Close",
  },
} as const;

export type Texts = Record<keyof (typeof texts)["zh"], string>;

export type PlaygroundWorld = {
  server: TestServer;
  upstream: Upstream;
  browser: Browser;
  root: ApiSession;
  player: ApiSession;
  tokenKey: string;
  stop(): Promise<void>;
};

export async function startPlaygroundWorld(username: string): Promise<PlaygroundWorld> {
  const upstream = await startUpstream();
  const server = await startTestServer();
  const root = await rootSession(server.url);
  await root.post("/api/channel/", {
    name: "main",
    type: ChannelType.OpenAI,
    key: "sk-pg-main",
    base_url: upstream.url,
    models: "gpt-4o-mini,gpt-4o,vision-model",
    group: "default,vip",
  });
  await root.post("/api/channel/", {
    name: "vip",
    type: ChannelType.OpenAI,
    key: "sk-pg-vip",
    base_url: upstream.url,
    models: "vip-model",
    group: "vip",
  });
  await root.put("/api/option/", {
    key: "ModelRatio",
    value: JSON.stringify({ "gpt-4o-mini": 0.075, "gpt-4o": 1.25, "vision-model": 0.5, "vip-model": 1 }),
  });
  await root.put("/api/option/", { key: "GroupRatio", value: JSON.stringify({ default: 1, vip: 2 }) });
  await root.put("/api/option/", { key: "UserUsableGroups", value: JSON.stringify({ default: "默认分组", vip: "VIP" }) });
  const player = await newUserSession(server.url, username, "password123");
  await server.store.query("update users set quota = 100000000 where id = ?", player.userId);
  const created = await player.post("/api/token/", { name: "player-app", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  const tokenKey = created.body.data[0].key as string;
  const browser = await launchBrowser();
  return {
    server,
    upstream,
    browser,
    root,
    player,
    tokenKey,
    async stop() {
      await browser.close();
      await server.stop();
      await upstream.stop();
    },
  };
}

export type PlaygroundPage = { page: Page; context: BrowserContext; t: Texts; combo: Combo; close(): Promise<void> };

/** A new browser context at the combo's size and language, signed in as the user, on /playground. */
export async function openPlayground(world: PlaygroundWorld, username: string, combo: Combo): Promise<PlaygroundPage> {
  const context = await world.browser.newContext({
    viewport: viewports[combo.screen],
    baseURL: world.server.url,
    locale: combo.language === "en" ? "en-US" : "zh-CN",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: world.server.url });
  if (combo.language === "en") await context.addCookies([{ name: "lang", value: "en", url: world.server.url }]);
  const page = await context.newPage();
  await loginThroughForm(page, username, "password123");
  await page.waitForURL("**/token");
  await page.goto("/playground");
  await page.locator("[data-playground]").waitFor();
  await page.waitForLoadState("networkidle");
  return { page, context, t: texts[combo.language], combo, close: () => context.close() };
}

export async function send(pg: PlaygroundPage, text: string): Promise<void> {
  await pg.page.getByLabel(pg.t.message, { exact: true }).fill(text);
  await pg.page.getByRole("button", { name: pg.t.send, exact: true }).click();
}

/** The last answer of a pane, once it reached the state. */
export function lastAnswer(page: Page, state = "complete", pane = 0): Locator {
  return page.locator(`[data-pane="${pane}"] .chat-start[data-state="${state}"]`).last();
}

/** Sets a range input the way a drag would (React listens to input events). */
export async function setRange(slider: Locator, value: number): Promise<void> {
  await slider.evaluate((element, next) => {
    const input = element as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, String(next));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, value);
}

/** On phones the parameters are a panel opened from the conversation's header. */
export async function showParameters(pg: PlaygroundPage): Promise<void> {
  if (pg.combo.screen === "phone") await pg.page.getByRole("button", { name: pg.t.parameters, exact: true }).click();
}

export async function hideParameters(pg: PlaygroundPage): Promise<void> {
  if (pg.combo.screen === "phone") await pg.page.locator("aside").getByRole("button", { name: pg.t.close, exact: true }).click();
}

export async function chatBodies(world: PlaygroundWorld): Promise<any[]> {
  return world.upstream.received.filter((request) => request.path.endsWith("/chat/completions")).map((request) => request.json);
}

/** Light and dark screenshots of the page as it is now. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
  await saveScreenshot(page, `${name}-light`);
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
  await saveScreenshot(page, `${name}-dark`);
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
}

/** Nothing on the page scrolls sideways. */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
