// The price tools in a real browser (issues 26 §8, 27 §3, 24 §4): the unpriced-models view lists
// what channels serve without a price and prices several at once; the unpriced-model policy is
// chosen; prices are synced from a URL after a preview; the visual price editor edits the
// prompt-size tiers (the built-in long-context ones shown); the price table finds a model by any
// part of its name and shows its tiers; the playground marks unpriced models and its compare
// mode never preselects one.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Server } from "bun";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { rootPassword, rootSession, type ApiSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

setDefaultTimeout(120_000);

let server: TestServer;
let source: Server<unknown>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let root: ApiSession;

const priceList = {
  source: "https://vendor.example/pricing",
  as_of: "2026-11-20",
  models: { "sync-browser-model": { input: 3, output: 15, tiers: [{ above: 200000, input: 6, output: 22.5 }] } },
};

beforeAll(async () => {
  source = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json(priceList) });
  server = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
  root = await rootSession(server.url);
  const channel = await root.post("/api/channel/", {
    name: "house",
    type: 1,
    key: "sk-house",
    base_url: "http://127.0.0.1:9",
    models: "house-chat-model,house-image-model,aaa-unpriced-model,gpt-4o-mini,gpt-4o,gemini-2.5-pro",
    group: "default",
  });
  expect(channel.body.success).toBe(true);
  browser = await launchBrowser();
  context = await newContext(browser, { baseURL: server.url });
  page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  source?.stop(true);
});

const toast = (text: string) => page.locator("#toasts").getByText(text).first().waitFor();
async function option(key: string): Promise<any> {
  const list = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
  const value = list.find((entry) => entry.key === key)!.value;
  return value.startsWith("{") || value.startsWith("[") ? JSON.parse(value) : value;
}

describe("the price tools tab", () => {
  test("the unpriced-models view: listed with their channels, found by any part of the name, priced together", async () => {
    await step(page, "unpriced-view", async () => {
      await page.goto("/setting?tab=prices");
      await page.getByRole("heading", { name: "未定价模型（3）" }).waitFor();
      const table = page.getByTestId("unpriced-models");
      expect(await table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-model")))).toEqual([
        "aaa-unpriced-model",
        "house-chat-model",
        "house-image-model",
      ]);
      await expect(table.locator('tr[data-model="house-chat-model"]').getByText("house", { exact: true }).isVisible()).resolves.toBe(true);

      await page.getByLabel("搜索未定价模型").fill("chat house");
      expect(await table.locator("tbody tr").count()).toBe(1);
      await page.getByLabel("house-chat-model 输入 $/1M").fill("2");
      await page.getByLabel("house-chat-model 输出 $/1M").fill("8");
      await page.getByLabel("搜索未定价模型").fill("image");
      await page.getByLabel("house-image-model 或按次 $").fill("0.03");
      expect(await page.getByLabel("house-image-model 输入 $/1M").isDisabled()).toBe(true);
      await page.getByLabel("搜索未定价模型").fill("");
      await page.getByLabel("aaa-unpriced-model 输出 $/1M").fill("4");
      await page.getByRole("button", { name: "保存这些价格" }).click();
      await toast("模型 aaa-unpriced-model 只填了输出价格，请同时填写输入价格");
      await page.getByLabel("aaa-unpriced-model 输出 $/1M").fill("");
      await page.getByRole("button", { name: "保存这些价格" }).click();
      await page.waitForLoadState("load");
      await toast("已为 2 个模型定价");
      await page.getByRole("heading", { name: "未定价模型（1）" }).waitFor();
      expect((await option("ModelRatio"))["house-chat-model"]).toBe(1);
      expect((await option("CompletionRatio"))["house-chat-model"]).toBe(4);
      expect((await option("ModelPrice"))["house-image-model"]).toBe(0.03);
      await saveScreenshot(page, "prices-unpriced-models");
    });
  });

  test("the unpriced-model policy is chosen and saved", async () => {
    await step(page, "unpriced-policy", async () => {
      await page.goto("/setting?tab=prices");
      const section = page.locator('section[aria-labelledby="prices-unpriced-policy"]');
      await section.getByLabel("调用未定价的模型时").selectOption("ratio");
      await section.locator(`input[name="UnpricedModelRatio"]`).fill("37.5");
      const saved = page.waitForResponse((response) => response.url().endsWith("/api/option/") && response.request().method() === "PUT");
      await section.getByRole("button", { name: "保存" }).click();
      expect((await saved).ok()).toBe(true);
      expect(await option("UnpricedModelPolicy")).toBe("ratio");
      expect(await option("UnpricedModelRatio")).toBe("37.5");
      await root.put("/api/option/", [
        { key: "UnpricedModelPolicy", value: "refuse" },
        { key: "UnpricedModelRatio", value: "30" },
      ]);
    });
  });

  test("sync from a URL: a preview of every change, written only when applied; a refused address says why", async () => {
    await step(page, "price-sync", async () => {
      await page.goto("/setting?tab=prices");
      await page.getByLabel("价格文件地址").fill("https://10.0.0.8/prices.json");
      await page.getByRole("button", { name: "预览变化" }).click();
      await toast("不允许访问该地址");
      await page.getByLabel("价格文件地址").fill(`http://127.0.0.1:${source.port}/prices.json`);
      await page.getByRole("button", { name: "预览变化" }).click();
      const preview = page.getByTestId("price-sync-preview");
      await preview.getByText("Switchyard 价格表：1 个模型，1 个价格将改变，0 个不变").waitFor();
      await preview.getByText("来源：https://vendor.example/pricing（2026-11-20）").waitFor();
      const row = preview.locator("tbody tr", { hasText: "sync-browser-model" });
      await row.getByText("无价格").waitFor();
      await row.getByText("输入 $3 · 输出 $15 / 1M tokens").waitFor();
      await row.getByText("提示超过 200K tokens：输入 $6 · 输出 $22.5").waitFor();
      expect((await option("ModelRatio"))["sync-browser-model"]).toBeUndefined();
      await saveScreenshot(page, "prices-sync-preview");
      await page.getByRole("button", { name: "应用这些价格" }).click();
      await page.waitForLoadState("load");
      await toast("已更新 1 个模型的价格");
      expect((await option("ModelRatio"))["sync-browser-model"]).toBe(1.5);
      expect((await option("ModelPriceTiers"))["sync-browser-model"]).toEqual([{ above: 200000, model_ratio: 3, completion_ratio: 3.75 }]);
      // The address is offered again next time.
      expect(await page.getByLabel("价格文件地址").inputValue()).toBe(`http://127.0.0.1:${source.port}/prices.json`);
    });
  });
});

describe("the visual price editor's tiers", () => {
  test("the built-in long-context tier shows on its model; edited and added tiers are saved as the model's own", async () => {
    await step(page, "editor-tiers", async () => {
      await page.goto("/setting?tab=model");
      const table = page.getByTestId("pricing-table");
      await table.locator("tbody tr").first().waitFor();
      await page.getByLabel("搜索模型名称").fill("gemini 2.5 pro");
      expect(await table.locator("tbody tr").count()).toBe(1);
      await table.getByRole("button", { name: "1 档" }).click();
      const tiers = page.getByTestId("tiers-gemini-2.5-pro");
      expect(await tiers.getByLabel("gemini-2.5-pro 第 1 档 提示超过（tokens）").inputValue()).toBe("200000");
      expect(await tiers.getByLabel("gemini-2.5-pro 第 1 档 模型倍率").inputValue()).toBe("1.25");
      expect(await tiers.getByLabel("gemini-2.5-pro 第 1 档 补全倍率").inputValue()).toBe("6");
      await tiers.getByLabel("gemini-2.5-pro 第 1 档 模型倍率").fill("1.5");
      await tiers.getByRole("button", { name: "添加价格分档" }).click();
      await tiers.getByLabel("gemini-2.5-pro 第 2 档 模型倍率").fill("2");
      await page.getByRole("button", { name: "应用更改" }).click();
      await toast("gemini-2.5-pro 的分档起点须为正整数");
      await tiers.getByLabel("gemini-2.5-pro 第 2 档 提示超过（tokens）").fill("500000");
      await saveScreenshot(page, "prices-editor-tiers");
      await page.getByRole("button", { name: "应用更改" }).click();
      await page.waitForLoadState("load");
      await toast("保存成功");
      expect((await option("ModelPriceTiers"))["gemini-2.5-pro"]).toEqual([
        { above: 200000, model_ratio: 1.5, completion_ratio: 6, cache_ratio: 0.1 },
        { above: 500000, model_ratio: 2 },
      ]);
    });
  });
});

describe("the price table and the playground", () => {
  test("/pricing finds a model by any part of its name and shows its tiers", async () => {
    await step(page, "pricing-search", async () => {
      await page.goto("/pricing?group=default");
      await page.getByLabel("模型名称").fill("mini 4o");
      await page.waitForFunction(() => !document.querySelector("#pricing-table")?.textContent?.includes("gemini-2.5-pro"));
      const names = await page.locator("#pricing-table tbody tr td:first-child").allTextContents();
      expect(names.map((name) => name.trim())).toEqual(["gpt-4o-mini"]);
      await page.getByLabel("模型名称").fill("2.5pro");
      await page.locator("#pricing-table").getByText("提示超过 200,000 tokens：输入 $3，输出 $18").waitFor();
      await page.locator("#pricing-table").getByText("提示超过 500,000 tokens：输入 $4，输出 $32").waitFor();
    });
  });

  test("the playground marks unpriced models, and compare mode preselects a priced one", async () => {
    await step(page, "playground-unpriced", async () => {
      await page.goto("/playground");
      await page.getByRole("button", { name: "模型", exact: true }).click();
      const list = page.getByRole("listbox", { name: "模型" });
      await list.waitFor();
      await list.locator('[role=option][data-model="aaa-unpriced-model"]').locator("[data-unpriced]").waitFor();
      expect(await list.locator('[role=option][data-model="gpt-4o"] [data-unpriced]').count()).toBe(0);
      await saveScreenshot(page, "prices-playground-unpriced");
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "对比", exact: true }).click();
      // The models in name order start with the unpriced one; the second pane skips it.
      await expect(page.getByRole("button", { name: "模型 B" }).textContent()).resolves.toContain("gemini-2.5-pro");
      await expect(page.getByRole("button", { name: "模型 A" }).textContent()).resolves.toContain("gpt-4o-mini");
    });
  });
});
