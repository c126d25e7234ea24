// WeChat sign-in through a local WeChat login server, and Telegram Login Widget data signed with
// the bot token: valid, forged, stale, future, repeated fields and replayed; bindings.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, createHmac } from "node:crypto";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startIdentityProviders, type IdentityProviders } from "../helpers/identity-providers.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const botToken = "123456:telegram-bot-canary";
let server: TestServer;
let root: ApiSession;
let providers: IdentityProviders;
beforeAll(async () => {
  providers = startIdentityProviders();
  server = await startTestServer({ env: providers.env });
  root = await rootSession(server.url);
  expect(
    (
      await root.put("/api/option/", [
        ...providers.options,
        { key: "TelegramBotToken", value: botToken },
        { key: "TelegramBotName", value: "yard_bot" },
      ])
    ).body.success,
  ).toBe(true);
});
afterAll(async () => {
  await server.stop();
  providers.stop();
});

const setOptions = async (...entries: [string, string][]) => {
  expect(
    (
      await root.put(
        "/api/option/",
        entries.map(([key, value]) => ({ key, value })),
      )
    ).body.success,
  ).toBe(true);
};
const now = () => Math.floor(Date.now() / 1000);

/** Widget data as Telegram signs it: HMAC-SHA256 keyed by SHA-256(bot token) over sorted fields. */
function telegramQuery(fields: Record<string, string | number>, token = botToken): URLSearchParams {
  const entries = Object.entries(fields).map(([key, value]) => [key, String(value)] as [string, string]);
  const checkString = entries
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  const hash = createHmac("sha256", createHash("sha256").update(token).digest()).update(checkString).digest("hex");
  return new URLSearchParams([...entries, ["hash", hash]]);
}

describe("WeChat", () => {
  test("is refused while switched off", async () => {
    const result = await new ApiSession(server.url).get(`/api/oauth/wechat?code=${providers.wechatCode("openid-0")}`);
    expect(result.body).toEqual({ success: false, message: "管理员未开启通过微信登录以及注册" });
    await setOptions(["WeChatAuthEnabled", "true"]);
  });

  test("a code signs in (creating the account) once; a wrong code is refused", async () => {
    const session = new ApiSession(server.url);
    const code = providers.wechatCode("openid-1");
    const result = await session.get(`/api/oauth/wechat?code=${code}`);
    expect(result.body.success).toBe(true);
    expect(result.body.data.username).toMatch(/^wechat_\d+$/);
    session.userId = result.body.data.id;
    expect((await session.get("/api/user/self")).body.data.wechat_id).toBe("openid-1");
    // The WeChat server would accept the code again; the gateway does not.
    expect((await new ApiSession(server.url).get(`/api/oauth/wechat?code=${code}`)).body).toEqual({
      success: false,
      message: "验证码错误或已过期",
    });
    expect((await new ApiSession(server.url).get("/api/oauth/wechat?code=000000")).body.message).toBe("验证码错误或已过期");
    // The request to the WeChat server carried the server token.
    expect(providers.calls.some((call) => call.path === "/wechat/api/wechat/user" && call.authorization === "wechat-server-token")).toBe(
      true,
    );
  });

  test("binding works once; an account bound elsewhere is refused", async () => {
    const user = await newUserSession(server.url, "wxbinder");
    expect((await user.get(`/api/oauth/wechat/bind?code=${providers.wechatCode("openid-1")}`)).body).toEqual({
      success: false,
      message: "该微信账号已被绑定",
    });
    expect((await user.get(`/api/oauth/wechat/bind?code=${providers.wechatCode("openid-2")}`)).body).toEqual({
      success: true,
      message: "微信账户绑定成功！",
    });
    expect((await user.get("/api/user/self")).body.data.wechat_id).toBe("openid-2");
    expect((await new ApiSession(server.url).get(`/api/oauth/wechat/bind?code=${providers.wechatCode("openid-3")}`)).status).toBe(401);
  });
});

describe("Telegram", () => {
  // Each signed login must differ (a replay is refused), so each gets its own auth_date.
  const start = now();
  let age = 0;
  const person = () => ({ id: 5550001, first_name: "Tele", last_name: "Gram", username: "telegram_fan", auth_date: start - age++ });

  test("is refused while switched off", async () => {
    const result = await new ApiSession(server.url).get(`/api/oauth/telegram/login?${telegramQuery(person())}`);
    expect(result.body).toEqual({ success: false, message: "管理员未开启通过 Telegram 登录以及注册" });
    await setOptions(["TelegramOAuthEnabled", "true"]);
  });

  test("valid widget data signs in once; a replay of the same data is refused", async () => {
    const query = telegramQuery(person());
    const session = new ApiSession(server.url);
    const result = await session.get(`/api/oauth/telegram/login?${query}&lang=zh`);
    expect(result.body.success).toBe(true);
    expect(result.body.data.username).toMatch(/^telegram_\d+$/);
    expect(result.body.data.display_name).toBe("Tele Gram");
    expect((await new ApiSession(server.url).get(`/api/oauth/telegram/login?${query}`)).body).toEqual({
      success: false,
      message: "无效的请求",
    });
    // A fresh login of the same person reaches the same account.
    const again = await new ApiSession(server.url).get(`/api/oauth/telegram/login?${telegramQuery(person())}`);
    expect(again.body.data.id).toBe(result.body.data.id);
  });

  test("forged data is refused: a wrong bot token, a changed field, a repeated field, no hash", async () => {
    const login = (query: string) => new ApiSession(server.url).get(`/api/oauth/telegram/login?${query}`);
    expect((await login(telegramQuery(person(), "999:other-bot").toString())).body).toEqual({ success: false, message: "无效的请求" });
    const tampered = telegramQuery({ ...person(), id: 5550002 });
    tampered.set("id", "5550003");
    expect((await login(tampered.toString())).body.message).toBe("无效的请求");
    const repeated = telegramQuery({ ...person(), id: 5550004 });
    expect((await login(`${repeated}&id=1`)).body.message).toBe("无效的请求");
    const unsigned = telegramQuery({ ...person(), id: 5550005 });
    unsigned.delete("hash");
    expect((await login(unsigned.toString())).body.message).toBe("无效的请求");
    expect(await server.store.query("select id from users where telegram_id in ('5550002','5550003','5550004','5550005')")).toHaveLength(0);
  });

  test("stale and future auth_date are refused", async () => {
    const login = (authDate: number) =>
      new ApiSession(server.url).get(`/api/oauth/telegram/login?${telegramQuery({ ...person(), id: 5550010, auth_date: authDate })}`);
    expect((await login(now() - 2 * 86_400)).body).toEqual({ success: false, message: "Telegram 登录信息已过期，请重新登录" });
    expect((await login(now() + 600)).body.message).toBe("Telegram 登录信息已过期，请重新登录");
    expect((await login(now() - 60)).body.success).toBe(true);
  });

  test("binding a Telegram account; one bound elsewhere is refused", async () => {
    const user = await newUserSession(server.url, "tgbinder");
    const taken = await user.get(`/api/oauth/telegram/bind?${telegramQuery(person())}`);
    expect(taken.body).toEqual({ success: false, message: "该 Telegram 账户已被绑定" });
    const bound = await user.get(`/api/oauth/telegram/bind?${telegramQuery({ ...person(), id: 5550020 })}`);
    expect(bound.body).toEqual({ success: true, message: "bind" });
    expect((await user.get("/api/user/self")).body.data.telegram_id).toBe("5550020");
  });

  test("the bot token never appears in the server's output", () => {
    expect(server.output()).not.toContain("telegram-bot-canary");
  });
});
