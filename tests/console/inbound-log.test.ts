// The console shows which inbound format a call used: root calls the relay with Anthropic's SDK
// (over an OpenAI channel, so converted) and with the Responses API on that OpenAI channel (passed
// through), then finds both in /log and expands their rows, in Chinese and in English.
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { rootPassword, rootSession, type ApiSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;
let key: string;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  root = await rootSession(server.url);
  await root.post("/api/channel/", {
    name: "upstream",
    type: 1,
    key: "sk-console",
    base_url: upstream.url,
    models: "gpt-4o-mini",
    group: "default",
  });
  const created = await root.post("/api/token/", { name: "claude-code", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  key = `sk-${created.body.data[0].key}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

test("the expanded log row names the inbound format and whether it was converted", async () => {
  const anthropic = new Anthropic({ baseURL: server.url, apiKey: key, maxRetries: 0 });
  await anthropic.messages.create({ model: "gpt-4o-mini", max_tokens: 50, messages: [{ role: "user", content: "hello" }] });
  const responses = await fetch(`${server.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", input: "hello" }),
  });
  expect(responses.status).toBe(200);

  for (const language of ["zh", "en"] as const) {
    const context = await newContext(browser, { baseURL: server.url, language });
    if (language === "en") await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
    const page = await context.newPage();
    await loginThroughForm(page, "root", rootPassword);
    await page.waitForURL("**/token");
    await step(page, `inbound-log-${language}`, async () => {
      await page.goto("/log");
      const rows = page.locator("#log-table tr", { hasText: "claude-code" });
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      for (const summary of await page.locator("#log-table summary").all()) await summary.click();
      const table = page.locator("#log-table");
      if (language === "zh") {
        await table.getByText("入站格式").first().waitFor();
        await table.getByText("Claude Messages，转换为 OpenAI 格式").waitFor();
        await table.getByText("OpenAI Responses，原样转发").waitFor();
      } else {
        await table.getByText("Inbound format").first().waitFor();
        await table.getByText("Claude Messages, converted to the OpenAI format").waitFor();
        await table.getByText("OpenAI Responses, passed through").waitFor();
      }
      await saveScreenshot(page, `inbound-log-${language}`);
    });
    await context.close();
  }
}, 120_000);
