// Small console promises of issue 26: the home page's curl example runs exactly as shown (with
// $OPENAI_API_KEY set to a token), and /login sends someone already signed in on to the console.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { newUserSession, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, loginThroughForm, newContext, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  const root = await rootSession(server.url);
  await root.post("/api/channel/", {
    name: "home",
    type: 1,
    key: "sk-home",
    base_url: upstream.url,
    models: "gpt-4o-mini",
    group: "default",
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

describe("home page and sign-in", () => {
  test("the home page's curl example runs as shown", async () => {
    const user = await newUserSession(server.url, "curler");
    await server.store.query("update users set quota = 10000000 where username = 'curler'");
    const created = await user.post("/api/token/", { name: "curl", remain_quota: 500000 });
    expect(created.body.success).toBe(true);
    const [token] = await server.store.query<{ key: string }>("select key from tokens where name = 'curl'");
    const page = await (await newContext(browser, { baseURL: server.url })).newPage();
    const shown = await step(page, "home-curl", async () => {
      await page.goto("/");
      return (await page.locator("[data-curl-example]").textContent())!.trim();
    });
    expect(shown).toStartWith(`curl ${server.url}/v1/chat/completions`);
    upstream.behave("sk-home", { content: "Shown and run." });
    // The very text of the page, in a shell; only the key comes from the environment, as it says.
    // (Not spawnSync: the upstream imitation answers from this process.)
    const run = Bun.spawn({
      cmd: ["sh", "-c", shown],
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, OPENAI_API_KEY: `sk-${token!.key}` },
    });
    const output = await new Response(run.stdout).text();
    expect(await run.exited).toBe(0);
    expect(JSON.parse(output).choices[0].message.content).toBe("Shown and run.");
    await page.context().close();
  }, 120_000);

  test("/login sends a signed-in user on", async () => {
    await newUserSession(server.url, "returning");
    const page = await (await newContext(browser, { baseURL: server.url })).newPage();
    await loginThroughForm(page, "returning", "password123");
    await page.waitForURL("**/token");
    await page.goto("/login");
    expect(new URL(page.url()).pathname).toBe("/token");
    // The expiry notice still shows its page (a refused session never bounces back and forth).
    await page.goto("/login?expired=true");
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.context().close();
  }, 120_000);
});
