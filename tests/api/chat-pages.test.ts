// /chat/{id} and /chat2link over HTTP: the admin's chat links filled with the user's first usable
// token and the server address, and the specification's messages for visitors, users without
// an enabled token and sites without chat links. A new install has none until the operator turns
// the spec's default links on in the settings; an upgraded install keeps them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore } from "../helpers/test-store.ts";

let server: TestServer;
let root: ApiSession;
let user: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  user = await newUserSession(server.url, "chatter");
});
afterAll(() => server.stop());

const page = async (path: string, session?: ApiSession) => {
  const response = await fetch(server.url + path, { redirect: "manual", headers: session ? { cookie: session.cookie } : {} });
  return { status: response.status, html: await response.text(), headers: response.headers };
};
const setOption = async (key: string, value: string) => expect((await root.put("/api/option/", { key, value })).body.success).toBe(true);
const statusChats = async (): Promise<Record<string, string>[]> => (await (await fetch(`${server.url}/api/status`)).json()).data.chats;
const noToken = "当前没有可用的启用令牌，请确认是否有令牌处于启用状态！";

describe("/chat/{id}", () => {
  test("a visitor is told to sign in", async () => {
    const { status, html } = await page("/chat/0");
    expect(status).toBe(200);
    expect(html).toContain("未登录或登录已过期，请重新登录！");
  });

  test("a new install has no chat links; the settings page's button turns the spec's defaults on", async () => {
    const options = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
    expect(options.find((option) => option.key === "Chats")?.value).toBe("[]");
    expect(await statusChats()).toEqual([]);
    const empty = await page("/chat/0", user);
    expect(empty.html).not.toContain(noToken);
    expect(empty.html).toContain("请联系管理员配置聊天链接");
    expect(empty.html).not.toContain("<iframe");
    expect(empty.html).not.toMatch(/href="\/chat\/\d/);

    // The one click: the button's value, saved through the settings API as the page saves it.
    const settings = await page("/setting?tab=operation", root);
    const button = /<button[^>]*data-option-preset="Chats"[^>]*>([^<]*)<\/button>/.exec(settings.html);
    expect(button?.[1]).toBe("启用默认聊天链接");
    const value =
      /data-preset-value="([^"]*)"/
        .exec(button?.[0] ?? "")?.[1]
        ?.replaceAll("&#34;", '"')
        .replaceAll("&amp;", "&") ?? "";
    await setOption("Chats", value);
    const chats = (await statusChats()).map((entry) => Object.keys(entry)[0]);
    expect(chats).toEqual(["ChatGPT Next Web 官方示例", "Lobe Chat 官方示例", "AMA 问天", "OpenCat"]);
    // On: the user's way on is now the token check (this user has no token yet), and the sidebar lists them.
    const on = await page("/chat/0", user);
    expect(on.html).toContain(noToken);
    expect(on.html).toMatch(/href="\/chat\/3"/);
  });

  test("without an enabled token: the message, then back to /token after 1.5 s", async () => {
    const [disabled] = (await user.post("/api/token/", { name: "off" })).body.data;
    await user.put("/api/token/?status_only=true", { id: disabled.id, status: 2 });
    await user.post("/api/token/", { name: "expired", expired_time: 1000 });
    const { html } = await page("/chat/0", user);
    expect(html).toContain(noToken);
    expect(html).toContain('<meta http-equiv="refresh" content="1.5;url=/token"');
  });

  test("frames the chosen link with sk-key and the encoded server address, allowed by the CSP", async () => {
    const [token] = (await user.post("/api/token/", { name: "chat" })).body.data;
    await setOption("ServerAddress", "https://gw.example.com");
    const { html, headers } = await page("/chat/0", user);
    const src = /<iframe src="([^"]+)"/.exec(html)?.[1]?.replaceAll("&#34;", '"');
    expect(src).toBe(`https://app.nextchat.dev/#/?settings={"key":"sk-${token.key}","url":"https%3A%2F%2Fgw.example.com"}`);
    expect(headers.get("content-security-policy")).toContain("frame-src 'self' https: https://app.nextchat.dev");
    // A site that refuses frames leaves a blank frame: the page says so and opens it in a new window.
    expect(html).toContain("可能不允许被嵌入，或暂时无法访问。");
    const fallback = /<a class="link link-primary" href="([^"]+)" target="_blank" rel="noopener noreferrer">在新窗口打开<\/a>/.exec(html);
    expect(fallback?.[1]?.replaceAll("&#34;", '"')).toBe(src);
    const second = await page("/chat/1", user);
    expect(second.html).toContain("https://chat-preview.lobehub.com/");
  });

  test("an app link (custom scheme) is offered as a link, not a frame; unknown ids and no links say so", async () => {
    const { html } = await page("/chat/2", user);
    expect(html).not.toContain("<iframe");
    expect(html).toMatch(/href="ama:\/\/set-api-key\?server=https%3A%2F%2Fgw.example.com&key=sk-/);
    expect((await page("/chat/99", user)).html).toContain("请联系管理员配置聊天链接");
    await setOption("Chats", "[]");
    expect((await page("/chat/0", user)).html).toContain("请联系管理员配置聊天链接");
  });

  test("chat links that are not {name: template} pairs are called a configuration error", async () => {
    await setOption("Chats", JSON.stringify(["https://chat.example.com/?key={key}", { Broken: 5 }]));
    const { html } = await page("/chat/0", user);
    expect(html).toContain("聊天链接配置错误，请联系管理员");
    expect(html).not.toContain("<iframe");
    expect((await page("/token", user)).html).toContain('title="聊天链接配置错误，请联系管理员"');
    expect((await page("/chat2link", user)).html).toContain("聊天链接配置错误，请联系管理员");
    await setOption("Chats", "[]");
    expect((await page("/token", user)).html).toContain('title="请联系管理员配置聊天链接"');
  });
});

describe("/chat2link", () => {
  test("visitors go to /login; users without a token get the message", async () => {
    const visitor = await page("/chat2link");
    expect([visitor.status, visitor.headers.get("location")]).toEqual([302, "/login"]);
    const lonely = await newUserSession(server.url, "lonely");
    expect((await page("/chat2link", lonely)).html).toContain(noToken);
  });

  test("redirects to ChatLink with NextChat settings, else to the first chat link", async () => {
    const [token] = (await user.get("/api/token/")).body.data.filter((item: { status: number }) => item.status === 1);
    const unconfigured = await page("/chat2link", user);
    expect([unconfigured.status, unconfigured.headers.get("location")]).toEqual([200, null]);
    expect(unconfigured.html).toContain("请联系管理员配置聊天链接");
    await setOption("Chats", JSON.stringify([{ Web: "https://web.example.com/?k={key}&a={address}" }]));
    let result = await page("/chat2link", user);
    expect([result.status, result.headers.get("location")]).toEqual([
      302,
      `https://web.example.com/?k=sk-${token.key}&a=https%3A%2F%2Fgw.example.com`,
    ]);
    await setOption("ChatLink", "https://next.example.com/");
    result = await page("/chat2link", user);
    expect(result.headers.get("location")).toBe(
      `https://next.example.com/#/?settings={"key":"sk-${token.key}","url":"https://gw.example.com"}`,
    );
  });
});

describe("an upgraded install", () => {
  test("keeps the default chat links: a store with users but no options is not a new install", async () => {
    const store = await createTestStore();
    try {
      const first = await startTestServer({ store });
      await first.stop();
      // A store from before the option existed, or imported without options: users, no options.
      await store.query("delete from options");
      const upgraded = await startTestServer({ store });
      try {
        const status = await (await fetch(`${upgraded.url}/api/status`)).json();
        expect(status.data.chats.map((entry: Record<string, string>) => Object.keys(entry)[0])).toEqual([
          "ChatGPT Next Web 官方示例",
          "Lobe Chat 官方示例",
          "AMA 问天",
          "OpenCat",
        ]);
      } finally {
        await upgraded.stop();
      }
    } finally {
      await store.dispose();
    }
  });
});
