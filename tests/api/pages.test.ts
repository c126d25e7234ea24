// Server-rendered pages over HTTP: admin content rendered safely (Markdown, HTML, https frame),
// the footer and notice sanitised, the guard's redirect, languages, and the security headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
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
  "<script>window.__pwned=1</script>",
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

  test("a partial request for a page above the user's role gets the reason as text; the whole page is the 403 page", async () => {
    const member = await newUserSession(server.url, "partial403");
    const fragment = await page("/channel?p=2", { cookie: member.cookie, "hx-request": "true", "hx-target": "channel-table" });
    expect(fragment.status).toBe(403);
    expect(fragment.headers.get("content-type")).toStartWith("text/plain");
    expect(fragment.html).toBe("无权进行此操作，权限不足");
    const whole = await page("/channel", { cookie: member.cookie });
    expect(whole.status).toBe(403);
    expect(whole.html).toContain("无权访问");
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

  test("the token drawer reads the built-in group descriptions in English; an admin's own wording stays", async () => {
    await setOption("UserUsableGroups", JSON.stringify({ default: "默认分组", vip: "vip分组", svip: "超级会员" }));
    const headers = { cookie: `${root.cookie}; lang=en`, "hx-request": "true", "hx-target": "token-drawer-slot" };
    const { html } = await page("/token?drawer=new", headers);
    expect(html).toContain("Default group");
    expect(html).toContain("VIP group");
    expect(html).not.toContain("vip分组");
    expect(html).toContain("超级会员");
    await setOption("UserUsableGroups", JSON.stringify({ default: "默认分组", vip: "vip分组" }));
  });

  test("a channel search that matches nothing offers to clear the filters; the unfiltered list does not", async () => {
    const headers = { cookie: root.cookie };
    const { html: searched } = await page("/channel?keyword=matches-nothing-7c2e", headers);
    expect(searched).toContain("暂无渠道");
    expect(searched).toContain('href="/channel"');
    expect(searched).toContain("清除筛选");
    const { html: sorted } = await page("/channel?id_sort=true&tag_mode=true", headers);
    expect(sorted).not.toContain("清除筛选");
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
    const { html } = await page("/reset");
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/assets\/console-runtime-[\w-]+\.js$/);
    const runtime = await (await fetch(server.url + scripts[0])).text();
    expect(runtime).not.toContain("react");
    expect(runtime.length).toBeLessThan(30_000);
  });

  test("the sign-in page adds only the passkey script, which brings no framework either", async () => {
    const { html } = await page("/login");
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(2);
    const passkeys = scripts.find((src) => /account-security/.test(src))!;
    const code = await (await fetch(server.url + passkeys)).text();
    expect(code).not.toContain("react");
    for (const chunk of code.matchAll(/from\s*"(\.\/chunk-[\w-]+\.js)"/g)) {
      expect(await (await fetch(`${server.url}/assets/${chunk[1]!.slice(2)}`)).text()).not.toContain("useState");
    }
  });
});

describe("sidebar", () => {
  /** The hrefs of the sidebar's entries (and sub-entries) on one page. */
  const entries = async (cookie: string) => {
    const { html } = await page("/setting", { cookie });
    const aside = /<aside id="sidebar"[\s\S]*?<\/aside>/.exec(html)?.[0] ?? "";
    return [...aside.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);
  };
  const everyone = ["/playground", "/token", "/topup", "/log", "/setting"];
  const adminOnly = ["/channel", "/redemption", "/user"];
  const flagged: [string, string][] = [
    ["DataExportEnabled", "/detail"],
    ["DrawingEnabled", "/midjourney"],
    ["TaskEnabled", "/task"],
  ];

  test("shows the admin entries by role and the feature entries by their switches", async () => {
    const member = await newUserSession(server.url, "sidebar1");
    const admin = await newUserSession(server.url, "sidebar2");
    await server.store.query("update users set role = 10 where username = 'sidebar2'");
    await setOption(
      "Chats",
      JSON.stringify([{ "Chat One": "https://one.example/#/?key={key}" }, { "Chat Two": "https://two.example/?k={key}" }]),
    );
    for (const [key] of flagged) await setOption(key, "true");

    const memberEntries = await entries(member.cookie);
    for (const href of [...everyone, ...flagged.map(([, href]) => href), "/chat/0", "/chat/1"]) expect(memberEntries).toContain(href);
    for (const href of adminOnly) expect(memberEntries).not.toContain(href);
    const adminEntries = await entries(admin.cookie);
    for (const href of [...everyone, ...adminOnly]) expect(adminEntries).toContain(href);

    for (const [key] of flagged) await setOption(key, "false");
    await setOption("Chats", "[]");
    const reduced = await entries(member.cookie);
    for (const [, href] of flagged) expect(reduced).not.toContain(href);
    expect(reduced.some((href) => href.startsWith("/chat"))).toBe(false);
    for (const href of everyone) expect(reduced).toContain(href);
    for (const [key] of flagged) await setOption(key, "true");
  });

  test("starts collapsed when DefaultCollapseSidebar says so, unless the visitor chose otherwise", async () => {
    const collapsed = async (cookie: string) => /<body class="[^"]*sidebar-collapsed/.test((await page("/setting", { cookie })).html);
    expect(await collapsed(root.cookie)).toBe(false);
    await setOption("DefaultCollapseSidebar", "true");
    expect(await collapsed(root.cookie)).toBe(true);
    expect(await collapsed(`${root.cookie}; sidebar_collapsed=false`)).toBe(false);
    await setOption("DefaultCollapseSidebar", "false");
    expect(await collapsed(`${root.cookie}; sidebar_collapsed=true`)).toBe(true);
  });

  test("visitors get no sidebar", async () => {
    expect((await page("/about")).html).not.toContain('id="sidebar"');
  });
});

describe("sign-in and registration pages", () => {
  const setOptions = async (entries: Record<string, string>) =>
    expect(
      (
        await root.put(
          "/api/option/",
          Object.entries(entries).map(([key, value]) => ({ key, value })),
        )
      ).body.success,
    ).toBe(true);

  test("show each sign-in method by its switch", async () => {
    const plain = (await page("/login")).html;
    expect(plain).toContain('data-api-form="POST /api/user/login"');
    expect(plain).toContain('href="/register"');
    for (const text of ["使用 GitHub 继续", "使用 LinuxDO 继续", "使用微信继续", "data-telegram-login"]) expect(plain).not.toContain(text);

    await setOptions({
      GitHubClientId: "gh-client-1",
      GitHubClientSecret: "gh-secret",
      GitHubOAuthEnabled: "true",
      LinuxDOClientId: "ld-client-1",
      LinuxDOClientSecret: "ld-secret",
      LinuxDOOAuthEnabled: "true",
      WeChatServerAddress: "https://wechat.example",
      WeChatServerToken: "wx-token",
      WeChatAccountQRCodeImageURL: "https://wechat.example/qr.png",
      WeChatAuthEnabled: "true",
      TelegramBotToken: "123:abc",
      TelegramBotName: "yard_bot",
      TelegramOAuthEnabled: "true",
      PasswordLoginEnabled: "false",
      RegisterEnabled: "false",
    });
    const social = (await page("/login")).html;
    expect(social).toMatch(/data-oauth-authorize="[^"]*github[^"]*client_id=gh-client-1/);
    expect(social).toMatch(/data-oauth-authorize="[^"]*client_id=ld-client-1/);
    expect(social).toContain("使用微信继续");
    expect(social).toContain('src="https://wechat.example/qr.png"');
    expect(social).toContain('data-telegram-login="yard_bot"');
    expect(social).toContain("管理员关闭了密码登录");
    expect(social).not.toContain('data-api-form="POST /api/user/login"');
    expect(social).not.toContain('href="/register"');
    expect((await page("/register")).html).toContain("管理员关闭了新用户注册");

    await setOptions({
      GitHubOAuthEnabled: "false",
      LinuxDOOAuthEnabled: "false",
      WeChatAuthEnabled: "false",
      TelegramOAuthEnabled: "false",
      PasswordLoginEnabled: "true",
      RegisterEnabled: "true",
    });
    expect((await page("/login")).html).not.toContain("使用 GitHub 继续");
  });

  test("registration asks for an email code only when verification is on, and carries ?aff=", async () => {
    const plain = (await page("/register?aff=Ab12")).html;
    expect(plain).toMatch(/name="aff_code"[^>]*value="Ab12"|value="Ab12"[^>]*name="aff_code"/);
    expect(plain).not.toContain('name="verification_code"');
    await setOptions({ SMTPServer: "127.0.0.1", EmailVerificationEnabled: "true" });
    const verifying = (await page("/register")).html;
    expect(verifying).toContain('name="verification_code"');
    expect(verifying).toContain("获取验证码");
    await setOptions({ EmailVerificationEnabled: "false", SMTPServer: "" });
  });

  test("/login?expired=true says the session ended", async () => {
    // The text also rides in the runtime's catalogue; the notice is the alert.
    const notice = /role="alert"[^>]*>\s*<span>未登录或登录已过期，请重新登录<\/span>/;
    expect((await page("/login")).html).not.toMatch(notice);
    expect((await page("/login?expired=true")).html).toMatch(notice);
  });
});
