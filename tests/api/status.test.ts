// /api/status and the public content endpoints, and the store a new server starts with.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe("GET /api/status", () => {
  test("carries every field of the system status in the envelope", async () => {
    const response = await fetch(`${server.url}/api/status`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe("");
    for (const field of [
      "system_name",
      "logo",
      "footer_html",
      "quota_per_unit",
      "display_in_currency",
      "enable_drawing",
      "enable_task",
      "enable_data_export",
      "chats",
      "data_export_default_time",
      "default_collapse_sidebar",
      "mj_notify_enabled",
      "chat_link",
      "chat_link2",
      "github_oauth",
      "github_client_id",
      "linuxdo_oauth",
      "linuxdo_client_id",
      "wechat_login",
      "wechat_qrcode",
      "telegram_oauth",
      "telegram_bot_name",
      "turnstile_check",
      "turnstile_site_key",
      "email_verification",
      "version",
      "start_time",
      "price",
      "min_topup",
      "top_up_link",
      "enable_online_topup",
      "server_address",
      "demo_site_enabled",
    ]) {
      expect(body.data).toHaveProperty(field);
    }
    expect(body.data.version).toBe("0.4.8.5.2");
    expect(body.data.quota_per_unit).toBe(500000);
    expect(body.data.display_in_currency).toBe(true);
    expect(body.data.data_export_default_time).toBe("hour");
    expect(Array.isArray(body.data.chats)).toBe(true);
  });

  test("content endpoints answer with the (empty) admin content", async () => {
    for (const path of ["/api/notice", "/api/about", "/api/home_page_content"]) {
      const body = await (await fetch(server.url + path)).json();
      expect(body).toEqual({ success: true, message: "", data: "" });
    }
  });
});

describe("a new store", () => {
  test("has the root user with the specified defaults", async () => {
    const [root] = await server.store.query<any>("select username, display_name, role, status, quota, password from users where id = 1");
    expect(root.username).toBe("root");
    expect(root.display_name).toBe("Root User");
    expect(Number(root.role)).toBe(100);
    expect(Number(root.status)).toBe(1);
    expect(Number(root.quota)).toBe(100000000);
    expect(root.password).not.toContain("123456");
    expect(await Bun.password.verify("123456", root.password)).toBe(true);
  });

  test("has every option with its default", async () => {
    const rows = await server.store.query<{ key: string; value: string }>("select key, value from options");
    const options = Object.fromEntries(rows.map((row) => [row.key, row.value]));
    expect(options.Price).toBe("7.3");
    expect(options.MinTopUp).toBe("1");
    expect(options.SMTPPort).toBe("587");
    expect(options.QuotaPerUnit).toBe("500000");
    expect(options.RetryTimes).toBe("0");
    expect(options.ModelRequestRateLimitSuccessCount).toBe("1000");
    expect(options.ModelRequestRateLimitDurationMinutes).toBe("1");
    expect(options.DataExportInterval).toBe("5");
    expect(JSON.parse(options.GroupRatio!)).toEqual({ default: 1, vip: 1, svip: 1 });
    expect(JSON.parse(options.GeminiSafetySettings!).default).toBe("BLOCK_NONE");
    expect(JSON.parse(options.GeminiVersionSettings!).default).toBe("v1beta");
    expect(JSON.parse(options.ModelRatio!)["gpt-4o-mini"]).toBe(0.075);
    // The generated session secret is kept, so cookies survive a restart.
    expect(options.SessionSecret!.length).toBeGreaterThanOrEqual(32);
  });
});
