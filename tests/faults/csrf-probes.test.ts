// CSRF probes (plan C1, C3; login CSRF is tests/api/rate-limit.test.ts): root is signed in to
// the console at http://127.0.0.1:<port> in Chromium and opens an attacker's page on another
// site (http://localhost:<other port>). The page posts a form, and fetches with credentials
// (simple text/plain requests, and JSON with the New-Api-User header, which needs a preflight)
// to create a token, redeem, change the password and change an option. Nothing changes in the
// store. The same requests sent with the cookie by a client that ignores SameSite are refused
// too, without the New-Api-User header; and no /api answer allows another origin with credentials.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchBrowser, newContext } from "../helpers/browser.ts";
import { reportFigures, startFaultWorld, type FaultWorld } from "../helpers/fault-world.ts";

let world: FaultWorld;
let browser: Browser;
let attacker: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  world = await startFaultWorld();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  attacker?.stop(true);
  await world?.stop();
});

const attempts = [
  { method: "POST", path: "/api/token/", body: { name: "csrf-token", unlimited_quota: true } },
  { method: "POST", path: "/api/user/topup", body: { key: "csrf" } },
  { method: "PUT", path: "/api/user/self", body: { password: "csrf-password-1", original_password: "x" } },
  { method: "PUT", path: "/api/option/", body: { key: "Notice", value: "csrf" } },
  { method: "POST", path: "/api/redemption/", body: { name: "csrf", quota: 1000000, count: 1 } },
];

function attackerPage(target: string): string {
  const forms = attempts
    .filter((attempt) => attempt.method === "POST")
    .map(
      (attempt, index) =>
        `<iframe name="f${index}"></iframe><form id="form${index}" method="POST" action="${target}${attempt.path}" target="f${index}" enctype="text/plain"><input name='${JSON.stringify(attempt.body).slice(0, -1)},"x":"' value='"}'></form>`,
    )
    .join("");
  const script = `
    const attempts = ${JSON.stringify(attempts)};
    (async () => {
      document.querySelectorAll("form").forEach((form) => form.submit());
      for (const attempt of attempts) {
        for (const headers of [{ "content-type": "text/plain" }, { "content-type": "application/json", "New-Api-User": "1" }]) {
          await fetch("${target}" + attempt.path, { method: attempt.method, credentials: "include", headers, body: JSON.stringify(attempt.body) }).catch(() => undefined);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      document.title = "done";
    })();`;
  return `<!doctype html><html><body>${forms}<script>${script}</script></body></html>`;
}

async function storeState() {
  const [tokens] = await world.server.store.query<{ count: number }>("select count(*) as count from tokens");
  const [codes] = await world.server.store.query<{ count: number }>("select count(*) as count from redemptions");
  const [root] = await world.server.store.query<{ password: string; quota: number }>("select password, quota from users where id = 1");
  const notice = await world.server.store.query("select value from options where key = 'Notice'");
  return { tokens: Number(tokens!.count), codes: Number(codes!.count), root, notice };
}

test("another site's forms and fetches change nothing for a signed-in root", async () => {
  attacker = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(attackerPage(world.server.url), { headers: { "content-type": "text/html" } }),
  });
  const before = await storeState();
  const context = await newContext(browser, { baseURL: world.server.url });
  await context.addCookies([{ name: "session", value: world.root.cookie.slice("session=".length), url: world.server.url }]);
  const page = await context.newPage();
  await page.goto("/token");
  expect(page.url()).toContain("/token");
  await page.goto(`http://localhost:${attacker.port}/`);
  await page.waitForFunction(() => document.title === "done", undefined, { timeout: 30_000 });
  expect(await storeState()).toEqual(before);
  // Root is still signed in: the probes did not break the session either.
  await page.goto(`${world.server.url}/token`);
  expect(new URL(page.url()).pathname).toBe("/token");
  await context.close();
  reportFigures("csrf-probes (browser)", {
    requests: attempts.length * 2 + attempts.filter((attempt) => attempt.method === "POST").length,
    changed: 0,
  });
}, 120_000);

test("with the cookie but without New-Api-User, or from another origin, nothing is accepted", async () => {
  const before = await storeState();
  const refused: string[] = [];
  for (const attempt of attempts) {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "application/json"]) {
      const response = await fetch(world.server.url + attempt.path, {
        method: attempt.method,
        headers: { cookie: world.root.cookie, "content-type": contentType, origin: "http://evil.test" },
        body: JSON.stringify(attempt.body),
      });
      const body = await response.json().catch(() => ({}));
      if (body.success !== true) refused.push(`${attempt.method} ${attempt.path} ${contentType}`);
    }
    const preflight = await fetch(world.server.url + attempt.path, {
      method: "OPTIONS",
      headers: {
        origin: "http://evil.test",
        "access-control-request-method": attempt.method,
        "access-control-request-headers": "content-type,new-api-user",
      },
    });
    const allowed = preflight.headers.get("access-control-allow-origin");
    expect({
      path: attempt.path,
      allowed: allowed === "http://evil.test" || (allowed === "*" && preflight.headers.get("access-control-allow-credentials") === "true"),
    }).toEqual({ path: attempt.path, allowed: false });
  }
  expect(refused.length).toBe(attempts.length * 3);
  expect(await storeState()).toEqual(before);
  reportFigures("csrf-probes (no SameSite)", { requests: refused.length, preflights: attempts.length });
});
