// GET/PUT /api/option/: super admin only, validated, secrets never read back.
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

const put = (key: string, value: unknown) => root.put("/api/option/", { key, value });

describe("permissions", () => {
  test("a common user and an admin are refused; root is served", async () => {
    const user = await newUserSession(server.url, "plain");
    expect((await user.get("/api/option/")).body).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    expect((await user.put("/api/option/", { key: "SystemName", value: "x" })).body.success).toBe(false);
    await server.store.query("update users set role = 10 where username = ?", "plain");
    expect((await user.get("/api/option/")).body.message).toBe("无权进行此操作，权限不足");
    expect((await root.get("/api/option/")).body.success).toBe(true);
  });
});

describe("GET", () => {
  test("lists options as {key, value} without secrets", async () => {
    expect((await put("SMTPToken", "smtp-secret-canary")).body.success).toBe(true);
    const list = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
    const keys = list.map((entry) => entry.key);
    expect(keys).toContain("SystemName");
    expect(keys).toContain("GroupRatio");
    for (const secret of [
      "SMTPToken",
      "EpayKey",
      "GitHubClientSecret",
      "TurnstileSecretKey",
      "TelegramBotToken",
      "SessionSecret",
      "SetupCode",
      "WeChatServerToken",
      "LinuxDOClientSecret",
      "WorkerValidKey",
    ]) {
      expect(keys).not.toContain(secret);
    }
    expect(JSON.stringify(list)).not.toContain("smtp-secret-canary");
  });
});

describe("PUT", () => {
  test("saves a value and the status follows", async () => {
    const result = await put("SystemName", "My Gateway");
    expect(result.body.success).toBe(true);
    expect(result.body.message).toBe("保存成功");
    const status = await (await fetch(`${server.url}/api/status`)).json();
    expect(status.data.system_name).toBe("My Gateway");
  });

  test("JSON options must be valid JSON, with the specification's messages", async () => {
    for (const key of ["GroupRatio", "UserUsableGroups", "ModelPrice", "ModelRatio", "CompletionRatio", "Chats", "GeminiSafetySettings"]) {
      expect((await put(key, "{not json")).body).toEqual({ success: false, message: "不是合法的 JSON 字符串" });
    }
    expect((await put("TopupGroupRatio", "{not json")).body).toEqual({ success: false, message: "充值分组倍率不是合法的 JSON 字符串" });
    expect((await put("GroupRatio", '{"default":"x"}')).body.message).toBe("不是合法的 JSON 字符串");
    expect((await put("GroupRatio", '{"default":-1}')).body.message).toBe("倍率和价格不能为负数");
    expect((await put("Chats", '{"a":"b"}')).body.message).toBe("不是合法的 JSON 字符串");
    expect((await put("GroupRatio", '{"default":1,"vip":2}')).body.success).toBe(true);
  });

  test("strips trailing slashes from addresses", async () => {
    for (const key of ["ServerAddress", "WorkerUrl", "PayAddress", "WeChatServerAddress"]) {
      const result = await put(key, "https://example.com/base///");
      expect(result.body.data).toEqual([{ key, value: "https://example.com/base" }]);
    }
    const list = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
    expect(list.find((entry) => entry.key === "ServerAddress")!.value).toBe("https://example.com/base");
  });

  test("refuses unknown keys, internal keys and values of the wrong kind", async () => {
    expect((await put("NoSuchOption", "1")).body).toEqual({ success: false, message: "未知的配置项：NoSuchOption" });
    expect((await put("SessionSecret", "x".repeat(40))).body.message).toBe("未知的配置项：SessionSecret");
    expect((await put("SetupCode", "AAAA-BBBB-CCCC")).body.message).toBe("未知的配置项：SetupCode");
    expect((await put("RegisterEnabled", "maybe")).body.message).toBe("配置项 RegisterEnabled 只能是 true 或 false");
    expect((await put("RetryTimes", "two")).body.message).toBe("请输入数字");
    expect((await put("RetryTimes", "-1")).body.message).toBe("配置项 RetryTimes 不能小于 0");
    expect((await put("RetryTimes", 3)).body.success).toBe(true);
  });

  test("a login method cannot be switched on before it is configured", async () => {
    expect((await put("GitHubOAuthEnabled", "true")).body).toEqual({
      success: false,
      message: "无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！",
    });
    expect((await put("TurnstileCheckEnabled", "true")).body.message).toBe(
      "无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！",
    );
    // Saved together with its settings, it is accepted.
    const together = await root.put("/api/option/", [
      { key: "GitHubClientId", value: "client-id" },
      { key: "GitHubClientSecret", value: "client-secret" },
      { key: "GitHubOAuthEnabled", value: "true" },
    ]);
    expect(together.body.success).toBe(true);
    const status = await (await fetch(`${server.url}/api/status`)).json();
    expect(status.data.github_oauth).toBe(true);
    expect(status.data.github_client_id).toBe("client-id");
    expect(JSON.stringify(status)).not.toContain("client-secret");
  });

  test("a list of changes is all or nothing", async () => {
    const result = await root.put("/api/option/", [
      { key: "SystemName", value: "Half Saved" },
      { key: "GroupRatio", value: "{broken" },
    ]);
    expect(result.body.success).toBe(false);
    const status = await (await fetch(`${server.url}/api/status`)).json();
    expect(status.data.system_name).not.toBe("Half Saved");
  });

  test("a malformed body is refused", async () => {
    expect((await root.put("/api/option/", [])).body).toEqual({ success: false, message: "无效的参数" });
    expect((await root.put("/api/option/", "not json")).body).toEqual({ success: false, message: "无效的参数" });
  });
});
