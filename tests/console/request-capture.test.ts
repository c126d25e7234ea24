// The request inspector in the console (issue 27 item 5): with the site's switch on, root opens
// a capture window on a token in its drawer, calls the relay with it, then opens the log row's
// details and the captured request: the body sent and the answer received, without the key.
// A user who is not the owner sees no capture of it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { newUserSession, rootPassword, rootSession, type ApiSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, saveScreenshot, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;
let token: { id: number; key: string };

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
  await root.put("/api/option/", { key: "RequestCaptureEnabled", value: "true" });
  const created = await root.post("/api/token/", { name: "inspected", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  token = { id: created.body.data[0].id, key: created.body.data[0].key };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

test("root turns capture on in the token drawer and reads the call in the log row's details", async () => {
  const context = await newContext(browser, { baseURL: server.url, language: "zh" });
  const page = await context.newPage();
  await loginThroughForm(page, "root", rootPassword);
  await page.waitForURL("**/token");
  await step(page, "capture-token-drawer", async () => {
    const row = page.locator("tr", { hasText: "inspected" }).first();
    await row.getByRole("button", { name: "编辑" }).click();
    const drawer = page.locator("#token-drawer");
    await drawer.getByText("请求记录截止时间").first().waitFor();
    await drawer.getByRole("group", { name: "请求记录" }).getByRole("button", { name: "一天" }).click();
    await drawer.getByRole("button", { name: "提交" }).click();
    await page.getByText("令牌更新成功！").waitFor();
  });
  const saved = await root.get(`/api/token/${token.id}`);
  const now = Math.floor(Date.now() / 1000);
  expect(saved.body.data.capture_until).toBeGreaterThan(now + 86_000);
  expect(saved.body.data.capture_until).toBeLessThanOrEqual(now + 86_400 + 5);

  const sent = { model: "gpt-4o-mini", messages: [{ role: "user", content: "what the inspector shows" }] };
  const call = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer sk-${token.key}`, "content-type": "application/json" },
    body: JSON.stringify(sent),
  });
  const answer = await call.text();
  expect(call.status).toBe(200);

  await step(page, "capture-log-details", async () => {
    await page.goto("/log");
    const row = page.locator("#log-table tr", { hasText: "inspected" }).first();
    await row.waitFor();
    await row.locator("summary").click();
    await row.getByRole("button", { name: "查看请求记录" }).click();
    const dialog = page.locator("#log-capture");
    await dialog.getByText("POST /v1/chat/completions").waitFor();
    await dialog.getByText("what the inspector shows", { exact: false }).first().waitFor();
    const text = (await dialog.textContent()) ?? "";
    expect(text).toContain(JSON.parse(answer).choices[0].message.content);
    expect(text).toContain("请求头（不含凭据）");
    expect(text).not.toContain(token.key);
    await saveScreenshot(page, "capture-log-details");
  });
  await context.close();

  // Another user asking for the same fragment is told there is none.
  const other = await newUserSession(server.url, "stranger");
  const logId = (await root.get("/api/log/?p=1&page_size=10")).body.data.items.find(
    (entry: { token_name: string }) => entry.token_name === "inspected",
  ).id;
  const fragment = await fetch(`${server.url}/log?capture=${logId}`, {
    headers: { cookie: other.cookie, "hx-request": "true", "hx-target": "log-capture-slot" },
  });
  const html = await fragment.text();
  expect(html).toContain("该日志没有请求记录");
  expect(html).not.toContain("what the inspector shows");
}, 120_000);
