// Email codes, registration with email verification, password reset by mailed link and email
// binding, against a real SMTP server: every mail is read and its code or link followed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startMailCatcher, type MailCatcher } from "../helpers/mail-catcher.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
let sink: MailCatcher;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  sink = await startMailCatcher({ user: "mailer", password: "smtp-canary-secret" });
});
afterAll(async () => {
  await server.stop();
  await sink.close();
});

const visitor = () => new ApiSession(server.url);
const setOptions = async (...entries: [string, string][]) => {
  const result = await root.put(
    "/api/option/",
    entries.map(([key, value]) => ({ key, value })),
  );
  expect(result.body.success).toBe(true);
};
const sendCode = (email: string, session = visitor()) => session.get(`/api/verification?email=${encodeURIComponent(email)}`);
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";

describe("before SMTP is configured", () => {
  test("a code request says the mail server is missing", async () => {
    expect((await sendCode("early@example.com")).body).toEqual({ success: false, message: "SMTP 服务器未配置" });
  });

  test("email verification cannot be switched on without an SMTP server", async () => {
    const result = await root.put("/api/option/", { key: "EmailVerificationEnabled", value: "true" });
    expect(result.body).toEqual({ success: false, message: "无法启用邮箱验证，请先填入 SMTP 服务器信息！" });
  });
});

describe("email codes", () => {
  beforeAll(async () => {
    const result = await root.put("/api/option/", sink.options);
    expect(result.body.success).toBe(true);
    await setOptions(["EmailVerificationEnabled", "true"], ["SystemName", "Yard"]);
  });

  test("a code is mailed through the SMTP account and registration follows it", async () => {
    const sent = await sendCode("Alice@Example.com");
    expect(sent.body).toEqual({ success: true, message: "验证码发送成功，请检查你的邮箱！" });
    const mail = await sink.waitForMail("alice@example.com");
    expect(mail.from).toBe("gateway@example.test");
    expect(mail.subject).toBe("Yard邮箱验证邮件");
    expect(mail.bodyText).toContain("3 分钟内有效");
    const code = codeIn(mail.bodyText);
    expect(code).toMatch(/^\d{6}$/);

    const missing = await visitor().post("/api/user/register", { username: "alice", password: "password123" });
    expect(missing.body).toEqual({ success: false, message: "管理员开启了邮箱验证，请输入邮箱地址和验证码" });
    const wrong = await visitor().post("/api/user/register", {
      username: "alice",
      password: "password123",
      email: "alice@example.com",
      verification_code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.body).toEqual({ success: false, message: "验证码错误或已过期" });
    const registered = await visitor().post("/api/user/register", {
      username: "alice",
      password: "password123",
      email: "ALICE@example.com",
      verification_code: code,
    });
    expect(registered.body).toEqual({ success: true, message: "注册成功！" });
    const [row] = await server.store.query<{ email: string }>("select email from users where username = ?", "alice");
    expect(row!.email).toBe("alice@example.com");
    // The address now belongs to alice: signing in with it works, a new code for it is refused.
    expect((await visitor().login("alice@example.com", "password123")).body.success).toBe(true);
    expect((await sendCode("alice@example.com")).body).toEqual({ success: false, message: "邮箱地址已被占用" });
  });

  test("a code is single-use, bound to its address and dies after five wrong tries", async () => {
    await sendCode("bob@example.com");
    const code = codeIn((await sink.waitForMail("bob@example.com")).bodyText);
    // Another address cannot use bob's code.
    await sendCode("carol@example.com");
    await sink.waitForMail("carol@example.com");
    const foreign = await visitor().post("/api/user/register", {
      username: "carol",
      password: "password123",
      email: "carol@example.com",
      verification_code: code,
    });
    expect(foreign.body.message).toBe("验证码错误或已过期");
    // Five wrong tries for bob, then even the right code is refused.
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await visitor().post("/api/user/register", {
        username: "bob",
        password: "password123",
        email: "bob@example.com",
        verification_code: `x${attempt}`,
      });
      expect(result.body.message).toBe("验证码错误或已过期");
    }
    const late = await visitor().post("/api/user/register", {
      username: "bob",
      password: "password123",
      email: "bob@example.com",
      verification_code: code,
    });
    expect(late.body.message).toBe("验证码错误或已过期");
    expect(await server.store.query("select id from users where username = ?", "bob")).toHaveLength(0);
  });

  test("a refused registration (taken username) leaves the code usable", async () => {
    await sendCode("gina@example.com");
    const code = codeIn((await sink.waitForMail("gina@example.com")).bodyText);
    const taken = await visitor().post("/api/user/register", {
      username: "alice",
      password: "password123",
      email: "gina@example.com",
      verification_code: code,
    });
    expect(taken.body).toEqual({ success: false, message: "用户名已存在，或已注销" });
    const retried = await visitor().post("/api/user/register", {
      username: "gina",
      password: "password123",
      email: "gina@example.com",
      verification_code: code,
    });
    expect(retried.body).toEqual({ success: true, message: "注册成功！" });
  });

  test("an expired code is refused", async () => {
    await sendCode("dave@example.com");
    const code = codeIn((await sink.waitForMail("dave@example.com")).bodyText);
    const [stored] = await server.store.query<{ created_at: number; expires_at: number }>(
      "select created_at, expires_at from verifications where purpose = 'email_verification' and subject = ?",
      "dave@example.com",
    );
    expect(Number(stored!.expires_at) - Number(stored!.created_at)).toBe(180);
    await server.store.query("update verifications set expires_at = created_at where subject = ?", "dave@example.com");
    const result = await visitor().post("/api/user/register", {
      username: "dave",
      password: "password123",
      email: "dave@example.com",
      verification_code: code,
    });
    expect(result.body.message).toBe("验证码错误或已过期");
  });

  test("a second code for one address within 30 seconds is refused", async () => {
    expect((await sendCode("erin@example.com")).body.success).toBe(true);
    const again = await sendCode("erin@example.com");
    expect(again.status).toBe(429);
    expect(again.body).toEqual({ success: false, message: "请求过于频繁，请 30 秒后再试" });
    expect(sink.mailsTo("erin@example.com")).toHaveLength(1);
  });

  test("bad addresses get clear messages", async () => {
    expect((await visitor().get("/api/verification")).body).toEqual({ success: false, message: "请输入邮箱！" });
    expect((await sendCode("not-an-address")).body).toEqual({ success: false, message: "无效的邮箱地址" });
  });

  test("the domain whitelist and the alias restriction are enforced", async () => {
    await setOptions(["EmailDomainWhitelist", " example.com ,,gmail.com"], ["EmailDomainRestrictionEnabled", "true"]);
    expect((await sendCode("frank@elsewhere.org")).body).toEqual({
      success: false,
      message: "管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中",
    });
    expect((await sendCode("frank@example.com")).body.success).toBe(true);
    await setOptions(["EmailAliasRestrictionEnabled", "true"]);
    expect((await sendCode("frank+shop@gmail.com")).body).toEqual({
      success: false,
      message: "管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。",
    });
    await setOptions(["EmailDomainRestrictionEnabled", "false"], ["EmailAliasRestrictionEnabled", "false"]);
    expect((await sendCode("frank+shop@gmail.com")).body.success).toBe(true);
  });

  test("the mail is written in the language of the person who asked", async () => {
    const session = visitor();
    expect((await session.get("/api/verification?email=grace@example.com", { cookie: "lang=en" })).body.message).toBe(
      "The verification code has been sent, please check your mailbox!",
    );
    const mail = await sink.waitForMail("grace@example.com");
    expect(mail.subject).toBe("Yard email verification");
    expect(mail.bodyText).toContain("valid for 3 minutes");
  });
});

describe("password reset", () => {
  let henry: ApiSession;
  beforeAll(async () => {
    await setOptions(["EmailVerificationEnabled", "false"]);
    henry = await newUserSession(server.url, "henry", "old-password1");
    // Henry's address, as the email flows above would have set it.
    await server.store.query("update users set email = ? where username = ?", "henry@example.com", "henry");
  });

  test("an unknown address is told so and no mail is sent", async () => {
    const result = await visitor().get("/api/reset_password?email=nobody@example.com");
    expect(result.body).toEqual({ success: false, message: "该邮箱地址未注册" });
    expect(sink.mailsTo("nobody@example.com")).toHaveLength(0);
  });

  test("the mailed link sets a new password once and ends every session and the access token", async () => {
    const accessToken = (await henry.get("/api/user/token")).body.data as string;
    const scripted = new ApiSession(server.url);
    scripted.accessToken = accessToken;
    scripted.userId = henry.userId;
    expect((await scripted.get("/api/user/self")).body.success).toBe(true);

    const sent = await visitor().get("/api/reset_password?email=HENRY@example.com");
    expect(sent.body).toEqual({ success: true, message: "重置邮件发送成功，请检查邮箱！" });
    const mail = await sink.waitForMail("henry@example.com");
    expect(mail.subject).toBe("Yard密码重置");
    const link = new URL(mail.links[0]!);
    expect(link.pathname).toBe("/user/reset");
    expect(link.origin).toBe(server.url);
    expect(link.searchParams.get("email")).toBe("henry@example.com");
    const token = link.searchParams.get("token")!;
    expect(token).toMatch(/^[0-9A-Za-z]{32}$/);

    expect((await visitor().post("/api/user/reset", { email: "henry@example.com", token: "forged-token" })).body).toEqual({
      success: false,
      message: "重置链接非法或已过期",
    });
    const reset = await visitor().post("/api/user/reset", { email: "henry@example.com", token });
    expect(reset.body.success).toBe(true);
    const newPassword = reset.body.data as string;
    expect(newPassword).toMatch(/^[0-9A-Za-z]{12}$/);

    expect((await henry.get("/api/user/self")).status).toBe(401);
    expect((await scripted.get("/api/user/self")).body).toEqual({ success: false, message: "无权进行此操作，access token 无效" });
    expect((await visitor().login("henry", "old-password1")).body.success).toBe(false);
    expect((await visitor().login("henry", newPassword)).body.success).toBe(true);
    expect((await visitor().post("/api/user/reset", { email: "henry@example.com", token })).body.message).toBe("重置链接非法或已过期");
  });

  test("the link in the mail uses the site address when one is set", async () => {
    await setOptions(["ServerAddress", "https://gateway.example.test/"]);
    await visitor().get("/api/reset_password?email=alice@example.com");
    const mail = await sink.waitForMail("alice@example.com", { since: 1 });
    expect(mail.links[0]).toStartWith("https://gateway.example.test/user/reset?email=alice%40example.com&token=");
    await setOptions(["ServerAddress", ""]);
  });

  test("missing fields are invalid parameters", async () => {
    expect((await visitor().post("/api/user/reset", {})).body).toEqual({ success: false, message: "无效的参数" });
    expect((await visitor().get("/api/reset_password")).body).toEqual({ success: false, message: "请输入邮箱！" });
  });
});

describe("binding an email address", () => {
  test("a signed-in user binds an address with a mailed code", async () => {
    const ivy = await newUserSession(server.url, "ivy");
    expect((await ivy.get("/api/oauth/email/bind?code=123456")).body).toEqual({ success: false, message: "请输入邮箱！" });
    expect((await ivy.get("/api/oauth/email/bind?email=ivy@example.com")).body).toEqual({ success: false, message: "请输入邮箱验证码！" });
    await sendCode("ivy@example.com", ivy);
    const code = codeIn((await sink.waitForMail("ivy@example.com")).bodyText);
    expect((await ivy.get("/api/oauth/email/bind?email=ivy@example.com&code=999999x")).body.message).toBe("验证码错误或已过期");
    const bound = await ivy.get(`/api/oauth/email/bind?email=ivy@example.com&code=${code}`);
    expect(bound.body).toEqual({ success: true, message: "邮箱账户绑定成功！" });
    expect((await ivy.get("/api/user/self")).body.data.email).toBe("ivy@example.com");
    // The code was used up.
    expect((await ivy.get(`/api/oauth/email/bind?email=ivy@example.com&code=${code}`)).body.message).toBe("验证码错误或已过期");
  });

  test("an address of another account cannot be bound, and visitors cannot bind", async () => {
    const jack = await newUserSession(server.url, "jack");
    expect((await jack.get("/api/oauth/email/bind?email=alice@example.com&code=123456")).body).toEqual({
      success: false,
      message: "邮箱地址已被占用",
    });
    expect((await visitor().get("/api/oauth/email/bind?email=x@example.com&code=123456")).status).toBe(401);
  });
});

describe("secrets", () => {
  test("the SMTP password never appears in the server's output", () => {
    expect(server.output()).not.toContain("smtp-canary-secret");
  });
});
