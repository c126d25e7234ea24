// The drawing and task pages in a real browser: a user's finished drawing is previewed in the
// detail dialog (the picture really loads), a failed one shows its reason, the filters narrow the
// list, the callback banner shows while callbacks are off; a song's clips play in /task; admins
// get the channel column and filter; the sidebar entries follow DrawingEnabled and TaskEnabled.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { startSunoUpstream, type SunoUpstream } from "../fixtures/suno-upstream.ts";
import { newUserSession, rootSession, type ApiSession, rootPassword } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

setDefaultTimeout(90_000);

let server: TestServer;
let mj: MidjourneyUpstream;
let suno: SunoUpstream;
let browser: Browser;
let root: ApiSession;
let key: string;
const drawn: { done: string; failed: string } = { done: "", failed: "" };
let song = "";
const password = "password123";

async function relay(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.json();
}

async function until(path: string, done: (body: any) => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const body = await (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer sk-${key}` } })).json();
    if (done(body)) return;
    await Bun.sleep(100);
  }
  throw new Error(`${path} never finished`);
}

beforeAll(async () => {
  mj = await startMidjourneyUpstream({ secrets: ["page-mj"], finishAfterMs: 200 });
  suno = await startSunoUpstream({ keys: ["page-suno"], finishAfterMs: 200 });
  server = await startTestServer({ env: { TASK_POLL_INTERVAL: "1" } });
  root = await rootSession(server.url);
  await root.post("/api/channel/", { name: "mj", type: 2, key: "page-mj", base_url: mj.url, models: "mj_imagine", group: "default" });
  await root.post("/api/channel/", {
    name: "suno",
    type: 36,
    key: "page-suno",
    base_url: suno.url,
    models: "suno_music",
    group: "default",
  });
  const painter = await newUserSession(server.url, "painter", password);
  await server.store.query("update users set quota = 10000000 where username = 'painter'");
  key = (await painter.post("/api/token/", { name: "paint", remain_quota: 0, unlimited_quota: true, expired_time: -1 })).body.data[0].key;
  drawn.done = String((await relay("/mj/submit/imagine", { prompt: "a blue square" })).result);
  drawn.failed = String((await relay("/mj/submit/imagine", { prompt: "a forbidden square [fail]" })).result);
  song = (await relay("/suno/submit/music", { gpt_description_prompt: "a tune for tests" })).data;
  await until(`/mj/task/${drawn.done}/fetch`, (body) => body.status === "SUCCESS");
  await until(`/mj/task/${drawn.failed}/fetch`, (body) => body.status === "FAILURE");
  await until(`/suno/fetch/${song}`, (body) => body.data?.status === "SUCCESS");
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mj?.stop();
  await suno?.stop();
});

async function signedIn(username: string, secret: string, language: "zh" | "en" = "zh", width?: number): Promise<Page> {
  const context = await newContext(browser, { baseURL: server.url, language, width });
  if (language === "en") await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
  const page = await context.newPage();
  await loginThroughForm(page, username, secret);
  await page.waitForURL("**/token");
  return page;
}

describe("/midjourney and /task", () => {
  test("a finished drawing is previewed; the failure shows its reason; filters narrow the list", async () => {
    const page = await signedIn("painter", password);
    await step(page, "drawing-list", async () => {
      await page.locator("aside, nav").getByRole("link", { name: "绘图" }).first().click();
      await page.waitForURL("**/midjourney");
      await page.getByText("当前未开启Midjourney回调，部分项目可能无法获得绘图结果，可在运营设置中开启。").waitFor();
      const done = page.locator("#mj-table tr", { hasText: drawn.done });
      await done.getByText("成功", { exact: true }).waitFor();
      await done.getByText("已提交", { exact: true }).waitFor();
      expect(await done.locator("progress").getAttribute("value")).toBe("100");
      const failed = page.locator("#mj-table tr", { hasText: drawn.failed });
      await failed.getByText("失败", { exact: true }).waitFor();
      await failed.getByText("[Invalid parameter] banned prompt").waitFor();
      // Users do not get the channel column or filter.
      expect(await page.locator("#mj-table th", { hasText: "渠道" }).count()).toBe(0);
      expect(await page.locator('input[name="channel_id"]').count()).toBe(0);
    });
    await step(page, "drawing-preview", async () => {
      await page.locator("#mj-table tr", { hasText: drawn.done }).getByRole("button", { name: "查看图片" }).click();
      const dialog = page.getByRole("dialog", { name: "绘图任务详情" });
      await dialog.waitFor();
      const image = dialog.getByRole("img", { name: "结果图片" });
      await expect(image.getAttribute("src")).resolves.toBe(`${mj.url}/attachments/${drawn.done}.png`);
      await page.waitForFunction((id) => {
        const img = document.querySelector(`#mj-detail img`) as HTMLImageElement | null;
        return Boolean(img?.complete && img.naturalWidth === 64 && img.getAttribute("src")?.includes(id));
      }, drawn.done);
      await dialog.getByText("a blue square", { exact: true }).first().waitFor();
      await saveScreenshot(page, "tasks-drawing-preview-zh");
      await dialog.getByRole("button", { name: "关闭" }).first().click();
    });
    await step(page, "drawing-filter", async () => {
      await page.locator('input[name="mj_id"]').fill(drawn.failed);
      await page.getByRole("button", { name: "查询" }).click();
      await page.waitForURL(`**mj_id=${drawn.failed}**`);
      await expect(page.locator("#mj-table tbody tr").count()).resolves.toBe(1);
      await page.locator("#mj-table tr", { hasText: drawn.failed }).waitFor();
    });
  });

  test("a song's clips play from the detail dialog of /task", async () => {
    const page = await signedIn("painter", password);
    await step(page, "task-detail", async () => {
      await page.goto("/task");
      const row = page.locator("#task-table tr", { hasText: song });
      await row.getByText("生成音乐").waitFor();
      await row.getByText("成功", { exact: true }).waitFor();
      await row.getByRole("button", { name: "详情" }).click();
      const dialog = page.getByRole("dialog", { name: "任务详情" });
      await dialog.waitFor();
      expect(await dialog.locator("audio").count()).toBe(2);
      // The page's policy lets the provider's audio load.
      const loaded = await page.evaluate(async () => {
        const audio = document.querySelector("#task-detail audio") as HTMLAudioElement;
        audio.load();
        return await new Promise<boolean>((resolve) => {
          audio.addEventListener("loadedmetadata", () => resolve(true), { once: true });
          audio.addEventListener("error", () => resolve(false), { once: true });
        });
      });
      expect(loaded).toBe(true);
      await saveScreenshot(page, "tasks-song-detail-zh");
    });
  });

  test("admins see every task with the channel column and filter; English, dark and 600 px pages render", async () => {
    const page = await signedIn("root", rootPassword, "en");
    await step(page, "admin-drawings", async () => {
      await page.goto("/midjourney");
      await page.locator("#mj-table th", { hasText: "Channel" }).first().waitFor();
      await page.locator('input[name="channel_id"]').waitFor();
      await page.locator("#mj-table tr", { hasText: drawn.done }).getByText("Success", { exact: true }).waitFor();
      // Who asked for it: the user's name, not only the id.
      await page.locator("#mj-table tr", { hasText: drawn.done }).getByText("painter", { exact: true }).waitFor();
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.goto("/task");
      await page.locator("#task-table tr", { hasText: song }).getByText("Music").waitFor();
      await page.locator("#task-table tr", { hasText: song }).getByText("painter", { exact: true }).waitFor();
      await saveScreenshot(page, "tasks-admin-en-dark");
    });
    const narrow = await signedIn("painter", password, "zh", 600);
    for (const path of ["/midjourney", "/task"]) {
      await narrow.goto(path);
      await narrow.waitForLoadState("networkidle");
      // The wide tables scroll inside their card; the page itself does not.
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await saveScreenshot(narrow, `tasks-narrow-${path.slice(1)}-zh`);
    }
  });

  test("the sidebar entries follow DrawingEnabled and TaskEnabled", async () => {
    const page = await signedIn("painter", password);
    const sidebar = page.locator("aside, nav");
    await sidebar.getByRole("link", { name: "异步任务" }).first().waitFor();
    await root.put("/api/option/", [
      { key: "DrawingEnabled", value: "false" },
      { key: "TaskEnabled", value: "false" },
    ]);
    try {
      await page.reload();
      await sidebar.getByRole("link", { name: "日志" }).first().waitFor();
      expect(await sidebar.getByRole("link", { name: "绘图" }).count()).toBe(0);
      expect(await sidebar.getByRole("link", { name: "异步任务" }).count()).toBe(0);
    } finally {
      await root.put("/api/option/", [
        { key: "DrawingEnabled", value: "true" },
        { key: "TaskEnabled", value: "true" },
      ]);
    }
  });
});
