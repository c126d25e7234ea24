// Server-rendered pages over HTTP: admin content rendered safely (Markdown, HTML, https frame),
// the footer and notice sanitised, the guard's redirect, languages, and the security headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

const page = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, { redirect: "manual", headers });
  return { status: response.status, html: await response.text(), headers: response.headers };
};
const setOption = async (key: string, value: string) => expect((await root.put("/api/option/", { key, value })).body.success).toBe(true);

const payloads = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '<svg onload="window.__pwned=1"></svg>',
  '<a href="javascript:window.__pwned=1">x</a>',
  "[click](javascript:window.__pwned=1)",
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
];

describe("home page", () => {
  test("without content shows the default introduction", async () => {
    const { status, html } = await page("/");
    expect(status).toBe(200);
    expect(html).toContain("一个接口调用所有模型");
  });

  test("Markdown content is rendered", async () => {
    await setOption("HomePageContent", "# Welcome\n\nUse **our** gateway.");
    const { html } = await page("/");
    expect(html).toContain("<h1>Welcome</h1>");
    expect(html).toContain("<strong>our</strong>");
  });

  test("an https address is embedded in a sandboxed frame; other schemes are not", async () => {
    await setOption("HomePageContent", "https://example.com/landing");
    let { html } = await page("/");
    expect(html).toMatch(/<iframe src="https:\/\/example.com\/landing"[^>]*sandbox=/);
    await setOption("HomePageContent", "javascript:alert(1)");
    ({ html } = await page("/"));
    expect(html).not.toContain("<iframe");
    expect(html).not.toContain('href="javascript:');
  });

  test.each(payloads)("script payload %s never reaches the page", async (payload) => {
    await setOption("HomePageContent", payload);
    await setOption("Footer", payload);
    await setOption("Notice", payload);
    await setOption("About", payload);
    for (const path of ["/", "/about"]) {
      const { html } = await page(path);
      const body = html.slice(html.indexOf("<body"));
      expect(body).not.toMatch(/<script(?![^>]*type="application\/json")/i);
      expect(body).not.toMatch(/\son\w+=/i);
      expect(body).not.toMatch(/(href|src|action)\s*=\s*["']?\s*javascript:/i);
      expect(body).not.toContain("srcdoc");
    }
  });
});

describe("footer", () => {
  test("uses the admin's HTML when set, else the credit line with the compatible version", async () => {
    await setOption("Footer", "");
    expect((await page("/about")).html).toContain("v0.4.8.5.2");
    await setOption("Footer", '<a href="https://example.com/terms">Terms</a>');
    const { html } = await page("/about");
    expect(html).toContain('<a href="https://example.com/terms" rel="noopener noreferrer">Terms</a>');
    expect(html).not.toContain("v0.4.8.5.2");
  });
});

describe("notice", () => {
  test("renders in a dialog with a content hash the client remembers when dismissed", async () => {
    await setOption("Notice", "Maintenance **tonight**");
    const { html } = await page("/about");
    expect(html).toMatch(/<dialog id="notice-dialog" class="modal" data-notice-hash="[0-9a-f]{12}">/);
    expect(html).toContain("<strong>tonight</strong>");
    await setOption("Notice", "");
    expect((await page("/about")).html).not.toContain("notice-dialog");
  });
});

describe("guard, languages and headers", () => {
  test("a protected page redirects visitors to /login; signed-in users get it", async () => {
    const visitor = await page("/setting");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login");
    const member = await page("/setting", { cookie: root.cookie });
    expect(member.status).toBe(200);
    expect(member.html).toContain("个人信息");
  });

  test("a partial (htmx) request without a session gets 401, not the login page to swap in", async () => {
    const fragment = await page("/token?p=2", { "hx-request": "true", "hx-target": "token-table" });
    expect(fragment.status).toBe(401);
    expect(fragment.html).toBe("");
    const member = await page("/token?p=1", { cookie: root.cookie, "hx-request": "true", "hx-target": "token-table" });
    expect(member.status).toBe(200);
    expect(member.html).toStartWith('<div id="token-table"');
  });

  test("unknown paths are 404 with the spec's text", async () => {
    const missing = await page("/definitely/missing");
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("页面不存在");
    expect(missing.html).toContain("请检查你的浏览器地址是否正确");
  });

  test("the lang cookie switches the page to English", async () => {
    const { html } = await page("/login", { cookie: "lang=en" });
    expect(html).toContain('<html lang="en"');
    expect(html).toContain("Username or email");
    expect(html).not.toContain("用户名或邮箱");
  });

  test("pages carry a nonce-based CSP, nosniff and frame protections", async () => {
    const { html, headers } = await page("/login");
    const csp = headers.get("content-security-policy")!;
    const nonce = /'nonce-([0-9a-f]+)'/.exec(csp)![1];
    expect(html).toContain(`nonce="${nonce}"`);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  test("a page without islands loads no framework JavaScript", async () => {
    const { html } = await page("/login");
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/assets\/console-runtime-[\w-]+\.js$/);
    const runtime = await (await fetch(server.url + scripts[0])).text();
    expect(runtime).not.toContain("react");
    expect(runtime.length).toBeLessThan(30_000);
  });
});
