// Low-balance alerts (the user's setting, the webhook body, once per 2 hours;
// reliability plan A9, S1, S4): checkQuotaAlert over a real store, a real SMTP server and real
// HTTP listeners. The relay's settlement calls it; here it is called the way settlement does.
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { openSharedState, shared } from "../../src/cache/open-shared-state.ts";
import { trustOutboundHosts } from "../../src/http/outbound-url.ts";
import { checkQuotaAlert } from "../../src/services/notify/quota-alerts.ts";
import { loadOptions, updateOptions } from "../../src/services/options/options.ts";
import { closeStore, db, openStore, t } from "../../src/store/client.ts";
import { startMailCatcher, type MailCatcher } from "../helpers/mail-catcher.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

type Hit = { headers: Headers; body: string };

/** An HTTP listener that records what reaches it; `stall` keeps requests waiting. */
function listen(hostname: string, options: { stall?: boolean } = {}) {
  const hits: Hit[] = [];
  const server = Bun.serve({
    hostname,
    port: 0,
    async fetch(request) {
      hits.push({ headers: request.headers, body: await request.text() });
      if (options.stall) await Bun.sleep(30_000);
      return new Response("ok");
    },
  });
  return { hits, url: `http://${hostname}:${server.port}`, stop: () => server.stop(true) };
}

let store: TestStore;
let mail: MailCatcher;
const trusted = listen("127.0.0.2");
const loopback = listen("127.0.0.1");

beforeAll(async () => {
  store = await createTestStore();
  await openStore(
    store.dialect === "pg" ? { dialect: "pg", url: store.env.SQL_DSN! } : { dialect: "sqlite", path: store.env.SQLITE_PATH! },
  );
  await openSharedState(undefined);
  await loadOptions();
  trustOutboundHosts(["127.0.0.2"]);
  mail = await startMailCatcher();
  await updateOptions(
    [
      { key: "SMTPServer", value: "127.0.0.1" },
      { key: "SMTPPort", value: String(mail.port) },
      { key: "SMTPFrom", value: "gateway@example.com" },
      { key: "ServerAddress", value: "https://gw.example.com" },
      { key: "QuotaRemindThreshold", value: "1000" },
    ],
    null,
  );
});
afterAll(async () => {
  trusted.stop();
  loopback.stop();
  trustOutboundHosts([]);
  await mail.close();
  await shared.close();
  await closeStore();
  await store.dispose();
});

let sequence = 0;
async function newUser(quota: number, fields: { email?: string; setting?: Record<string, unknown> } = {}) {
  const [user] = await db
    .insert(t.users)
    .values({
      username: `alert${++sequence}`,
      password: "x",
      quota,
      email: fields.email ?? "",
      setting: fields.setting ? JSON.stringify(fields.setting) : "",
    })
    .returning();
  return user!;
}

const settle = () => Bun.sleep(300);

describe("email alerts", () => {
  test("below the site threshold the user gets one email, not another within two hours", async () => {
    const before = mail.messages.length;
    const user = await newUser(500, { email: "low@example.com" });
    await checkQuotaAlert(user.id);
    const [message] = (await mail.waitFor(before + 1)).slice(before);
    expect(message!.to).toEqual(["low@example.com"]);
    expect(message!.subject).toBe("您的额度即将用尽");
    expect(message!.html).toContain("您的额度即将用尽，当前剩余额度为 ＄0.001000 额度");
    expect(message!.html).toContain("https://gw.example.com/topup");
    expect(message!.html).not.toContain("{{value}}");
    await db.update(t.users).set({ quota: 100 }).where(eq(t.users.id, user.id));
    await checkQuotaAlert(user.id);
    await checkQuotaAlert(user.id);
    await settle();
    expect(mail.messages.length).toBe(before + 1);
  });

  test("at or above the threshold nothing is sent; the user's own threshold and address win", async () => {
    const before = mail.messages.length;
    const comfortable = await newUser(1000, { email: "fine@example.com" });
    await checkQuotaAlert(comfortable.id);
    const careful = await newUser(1_500_000, {
      email: "account@example.com",
      setting: { notify_type: "email", quota_warning_threshold: 2_000_000, notification_email: "alerts@example.com" },
    });
    await checkQuotaAlert(careful.id);
    const messages = (await mail.waitFor(before + 1)).slice(before);
    await settle();
    expect(mail.messages.length).toBe(before + 1);
    expect(messages[0]!.to).toEqual(["alerts@example.com"]);
  });

  test("users without an address, disabled users and unknown ids are skipped quietly", async () => {
    const before = mail.messages.length;
    const silent = await newUser(1);
    await checkQuotaAlert(silent.id);
    const banned = await newUser(1, { email: "banned@example.com" });
    await db.update(t.users).set({ status: 2 }).where(eq(t.users.id, banned.id));
    await checkQuotaAlert(banned.id);
    await checkQuotaAlert(987654);
    await settle();
    expect(mail.messages.length).toBe(before);
  });
});

describe("webhook alerts", () => {
  test("the body carries type, title, content with {{value}} placeholders, values and timestamp; the secret as Bearer", async () => {
    const user = await newUser(10, {
      setting: { notify_type: "webhook", webhook_url: `${trusted.url}/hook`, webhook_secret: "hook-secret-canary" },
    });
    await checkQuotaAlert(user.id);
    const deadline = Date.now() + 5000;
    while (trusted.hits.length === 0 && Date.now() < deadline) await Bun.sleep(20);
    expect(trusted.hits).toHaveLength(1);
    const hit = trusted.hits[0]!;
    expect(hit.headers.get("authorization")).toBe("Bearer hook-secret-canary");
    expect(hit.headers.get("content-type")).toBe("application/json");
    expect(hit.headers.get("x-webhook-signature")).toBe(createHmac("sha256", "hook-secret-canary").update(hit.body).digest("hex"));
    const body = JSON.parse(hit.body);
    expect(Object.keys(body).sort()).toEqual(["content", "timestamp", "title", "type", "values"]);
    expect(body.type).toBe("quota_exceed");
    expect(body.title).toBe("您的额度即将用尽");
    expect(body.content.match(/\{\{value\}\}/g)).toHaveLength(4);
    expect(body.values).toEqual(["您的额度即将用尽", "＄0.000020 额度", "https://gw.example.com/topup", "https://gw.example.com/topup"]);
    expect(body.timestamp).toBeGreaterThan(1_700_000_000);
    expect(hit.body).not.toContain("hook-secret-canary");
    await checkQuotaAlert(user.id);
    await settle();
    expect(trusted.hits).toHaveLength(1);
  });

  test("webhooks to loopback or private addresses are refused before any connection", async () => {
    const warnings = spyOn(console, "error");
    try {
      const targets = [
        "https://127.0.0.1/x",
        "https://localhost/x",
        "https://[::1]/x",
        "https://10.0.0.1/x",
        "https://169.254.169.254/latest",
        "https://2130706433/x",
      ];
      for (const url of [...targets, `${loopback.url}/x`]) {
        const user = await newUser(1, { setting: { notify_type: "webhook", webhook_url: url, webhook_secret: "s" } });
        await checkQuotaAlert(user.id);
      }
      await settle();
      expect(loopback.hits).toHaveLength(0);
      const reasons = warnings.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("quota alert not delivered"));
      expect(reasons).toHaveLength(targets.length + 1);
      expect(reasons.some((line) => line.includes("localhost resolves to 127.0.0.1"))).toBe(true);
      for (const address of ["127.0.0.1", "::1", "10.0.0.1", "169.254.169.254"]) {
        expect(reasons.some((line) => line.includes(`private address ${address}`))).toBe(true);
      }
      expect(reasons.some((line) => line.includes("plain http"))).toBe(true);
    } finally {
      warnings.mockRestore();
    }
  });

  test("a receiver that never answers does not hold up the caller", async () => {
    const stalled = listen("127.0.0.2", { stall: true });
    try {
      const user = await newUser(1, { setting: { notify_type: "webhook", webhook_url: `${stalled.url}/slow` } });
      await checkQuotaAlert(user.id);
      const deadline = Date.now() + 5000;
      while (stalled.hits.length === 0 && Date.now() < deadline) await Bun.sleep(20);
      // The request reached the receiver, which is still sitting on it, and the call has returned.
      expect(stalled.hits).toHaveLength(1);
    } finally {
      stalled.stop();
    }
  });
});
