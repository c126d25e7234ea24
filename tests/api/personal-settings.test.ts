// Notification settings (PUT /api/user/setting: exactly the spec's fields, https-only webhooks)
// and the referral transfer (POST /api/user/aff_transfer: minimum one quota unit, atomic).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

const valid = {
  notify_type: "webhook",
  quota_warning_threshold: 500000,
  webhook_url: "https://hooks.example.com/quota",
  webhook_secret: "hook-secret-canary",
  notification_email: "",
};

describe("notification settings", () => {
  test.each([
    [{ ...valid, notify_type: "sms" }, "无效的预警类型"],
    [{ ...valid, quota_warning_threshold: 0 }, "预警阈值必须大于0"],
    [{ ...valid, quota_warning_threshold: -5 }, "预警阈值必须大于0"],
    [{ ...valid, quota_warning_threshold: "lots" }, "预警阈值必须大于0"],
    [{ ...valid, webhook_url: "" }, "Webhook地址不能为空"],
    [{ ...valid, webhook_url: "http://hooks.example.com/quota" }, "Webhook地址必须以https开头"],
    [{ ...valid, notify_type: "email", webhook_url: "http://hooks.example.com" }, "Webhook地址必须以https开头"],
    [{ ...valid, webhook_url: "https://" }, "无效的Webhook地址"],
    [{ ...valid, webhook_url: "https://user:pass@hooks.example.com/" }, "无效的Webhook地址"],
    [{ ...valid, notify_type: "email", webhook_url: "", notification_email: "not-mail" }, "无效的邮箱地址"],
  ])("%j is refused with %s", async (body, message) => {
    const user = await newUserSession(server.url, `n${Math.random().toString(36).slice(2, 9)}`);
    expect((await user.put("/api/user/setting", body)).body).toEqual({ success: false, message });
    expect((await user.get("/api/user/self")).body.data.setting).toBe("");
  });

  test("a webhook inside the gateway's network is refused when saved, not only when sent (issue 15 §6)", async () => {
    const user = await newUserSession(server.url, "prober");
    for (const url of [
      "https://127.0.0.1/containers/json",
      "https://localhost/hook",
      "https://10.1.2.3/hook",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::1]/hook",
      "https://192.168.0.10:8443/hook",
      "https://hooks.example.com:2375/hook",
    ]) {
      expect({ url, body: (await user.put("/api/user/setting", { ...valid, webhook_url: url })).body }).toEqual({
        url,
        body: { success: false, message: "不允许访问该地址" },
      });
    }
    expect((await user.get("/api/user/self")).body.data.setting).toBe("");
  });

  test("a valid setting is stored with exactly the spec's fields; admins do not see the secret", async () => {
    const user = await newUserSession(server.url, "notified");
    const saved = await user.put("/api/user/setting", { ...valid, extra: "ignored", role: 100 });
    expect(saved.body).toEqual({
      success: true,
      message: "通知设置已更新",
      data: {
        notify_type: "webhook",
        quota_warning_threshold: 500000,
        webhook_url: "https://hooks.example.com/quota",
        webhook_secret: "hook-secret-canary",
        notification_email: "",
      },
    });
    const [row] = await server.store.query<{ setting: string; role: number }>(
      "select setting, role from users where username = 'notified'",
    );
    expect(Object.keys(JSON.parse(row!.setting)).sort()).toEqual([
      "notification_email",
      "notify_type",
      "quota_warning_threshold",
      "webhook_secret",
      "webhook_url",
    ]);
    expect(Number(row!.role)).toBe(1);
    // The owner reads the secret back; an admin's list does not show it.
    expect(JSON.parse((await user.get("/api/user/self")).body.data.setting).webhook_secret).toBe("hook-secret-canary");
    const listed = await root.get("/api/user/search?keyword=notified");
    expect(JSON.stringify(listed.body)).not.toContain("hook-secret-canary");
    expect(JSON.parse(listed.body.data.items[0].setting).webhook_url).toBe("https://hooks.example.com/quota");

    const email = await user.put("/api/user/setting", {
      notify_type: "email",
      quota_warning_threshold: "100000",
      notification_email: "Me@Example.com",
    });
    expect(email.body.data).toEqual({
      notify_type: "email",
      quota_warning_threshold: 100000,
      webhook_url: "",
      webhook_secret: "",
      notification_email: "me@example.com",
    });
  });

  test("visitors cannot change settings", async () => {
    expect((await new ApiSession(server.url).put("/api/user/setting", valid)).status).toBe(401);
  });
});

describe("referral transfer", () => {
  test("moves earnings to the balance: at least one unit, never more than earned, logged as a top-up", async () => {
    const user = await newUserSession(server.url, "referrer");
    await server.store.query("update users set aff_quota = 2000000, quota = 10 where username = 'referrer'");
    expect((await user.post("/api/user/aff_transfer", { quota: 499999 })).body).toEqual({ success: false, message: "划转金额最低为$1.00" });
    expect((await user.post("/api/user/aff_transfer", { quota: 2500000 })).body).toEqual({ success: false, message: "邀请额度不足！" });
    expect((await user.post("/api/user/aff_transfer", { quota: "x" })).body.message).toBe("无效的参数");
    const moved = await user.post("/api/user/aff_transfer", { quota: 500000 });
    expect(moved.body).toEqual({ success: true, message: "划转成功", data: 500010 });
    const [row] = await server.store.query<{ quota: number; aff_quota: number; aff_history_quota: number }>(
      "select quota, aff_quota, aff_history_quota from users where username = 'referrer'",
    );
    expect([Number(row!.quota), Number(row!.aff_quota)]).toEqual([500010, 1500000]);
    const [log] = await server.store.query<{ type: number; quota: number }>("select type, quota from logs where username = 'referrer'");
    expect([Number(log!.type), Number(log!.quota)]).toEqual([1, 500000]);
  });

  test("simultaneous transfers never spend the same earnings twice", async () => {
    const user = await newUserSession(server.url, "racer2");
    await server.store.query("update users set aff_quota = 1000000, quota = 0 where username = 'racer2'");
    const results = await Promise.all(Array.from({ length: 6 }, () => user.post("/api/user/aff_transfer", { quota: 500000 })));
    expect(results.filter((result) => result.body.success)).toHaveLength(2);
    expect(results.filter((result) => result.body.message === "邀请额度不足！")).toHaveLength(4);
    const [row] = await server.store.query<{ quota: number; aff_quota: number }>(
      "select quota, aff_quota from users where username = 'racer2'",
    );
    expect([Number(row!.quota), Number(row!.aff_quota)]).toEqual([1000000, 0]);
  });

  test("the minimum follows QuotaPerUnit and the currency display", async () => {
    await root.put("/api/option/", [{ key: "DisplayInCurrencyEnabled", value: "false" }]);
    const user = await newUserSession(server.url, "pointy");
    expect((await user.post("/api/user/aff_transfer", { quota: 1 })).body.message).toBe("划转金额最低为500000");
    await root.put("/api/option/", [{ key: "DisplayInCurrencyEnabled", value: "true" }]);
  });
});
