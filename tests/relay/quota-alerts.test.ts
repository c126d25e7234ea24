// Low-balance alerts end to end: a user saves notification settings (PUT /api/user/setting), a
// request through the relay settles, the balance is now under the threshold, and the alert
// arrives by email (an SMTP server in this process) or by webhook (an https listener on a
// loopback address the test server trusts); once per 2 hours.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { newUserSession, type ApiSession } from "../helpers/api-session.ts";
import { startMailCatcher, type MailCatcher } from "../helpers/mail-catcher.ts";
import { startTlsReceiver } from "../helpers/tls-receiver.ts";
import { addChannel, addToken, openai, setOptions, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";

setDefaultTimeout(30_000);

let world: RelayWorld;
let mail: MailCatcher;
const receiver = startTlsReceiver();

beforeAll(async () => {
  mail = await startMailCatcher();
  world = await startRelayWorld(receiver.env);
  await addChannel(world, { key: "alert-channel" });
  await setOptions(world, {
    SMTPServer: "127.0.0.1",
    SMTPPort: mail.port,
    SMTPFrom: "gateway@example.com",
    ServerAddress: "https://gw.example.com",
    QuotaRemindThreshold: 1_000_000,
  });
});
afterAll(async () => {
  receiver.stop();
  await world?.stop();
  await mail?.close();
});

/** A registered user with a token, the balance the admin gave, and the settings they saved. */
async function customer(name: string, quota: number, setting: Record<string, unknown>): Promise<{ session: ApiSession; key: string }> {
  const session = await newUserSession(world.server.url, name);
  const granted = await world.root.put("/api/user/", { id: session.userId, quota });
  if (!granted.body.success) throw new Error(`quota not set: ${JSON.stringify(granted.body)}`);
  const saved = await session.put("/api/user/setting", {
    webhook_url: "",
    webhook_secret: "",
    notification_email: "",
    quota_warning_threshold: 1_000_000,
    ...setting,
  });
  if (!saved.body.success) throw new Error(`settings not saved: ${JSON.stringify(saved.body)}`);
  const token = await addToken(session);
  return { session, key: token.key };
}

async function chat(key: string): Promise<void> {
  const answer = await openai(world, key).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] });
  expect(answer.choices[0]!.message.content).toBeTruthy();
}

describe("quota alerts through the relay", () => {
  test("a request that leaves the balance under the threshold sends one email", async () => {
    const { key } = await customer("lowmail", 600_000, { notify_type: "email", notification_email: "low@example.com" });
    const before = mail.messages.length;
    await chat(key);
    const [message] = (await mail.waitFor(before + 1)).slice(before);
    expect(message!.to).toEqual(["low@example.com"]);
    expect(message!.subject).toBe("您的额度即将用尽");
    await chat(key);
    await Bun.sleep(300);
    expect(mail.messages.length).toBe(before + 1);
  });

  test("a comfortable balance sends nothing; the user's own threshold counts", async () => {
    const before = mail.messages.length;
    const { key: rich } = await customer("richmail", 5_000_000, { notify_type: "email", notification_email: "rich@example.com" });
    await chat(rich);
    const { key: careful } = await customer("carefulm", 5_000_000, {
      notify_type: "email",
      quota_warning_threshold: 9_000_000,
      notification_email: "careful@example.com",
    });
    await chat(careful);
    const messages = (await mail.waitFor(before + 1)).slice(before);
    await Bun.sleep(300);
    expect(mail.messages.length).toBe(before + 1);
    expect(messages[0]!.to).toEqual(["careful@example.com"]);
  });

  test("a webhook user is told by webhook, with the secret as Bearer", async () => {
    const { key } = await customer("lowhook", 700_000, {
      notify_type: "webhook",
      webhook_url: `${receiver.url}/alerts`,
      webhook_secret: "relay-hook-secret",
    });
    await chat(key);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.path).toBe("/alerts");
    expect(hook!.headers.get("authorization")).toBe("Bearer relay-hook-secret");
    expect(hook!.headers.get("x-webhook-signature")).toBe(createHmac("sha256", "relay-hook-secret").update(hook!.body).digest("hex"));
    const body = JSON.parse(hook!.body);
    expect(body.type).toBe("quota_exceed");
    expect(body.values[0]).toBe("您的额度即将用尽");
    expect(body.content).toContain("{{value}}");
  });

  test("a webhook pointing at the gateway's own machine is refused; the request itself is served", async () => {
    // Saving such an address is refused (tests/api/personal-settings.test.ts); one that points
    // there by the time of sending (a DNS change, or stored before that check) is refused then.
    const { key } = await customer("ssrfhook", 700_000, {
      notify_type: "webhook",
      webhook_url: "https://hooks.example.com/quota",
      webhook_secret: "x",
    });
    const setting = {
      notify_type: "webhook",
      quota_warning_threshold: 1_000_000,
      webhook_url: "https://127.0.0.1/api/status",
      webhook_secret: "x",
      notification_email: "",
    };
    await world.server.store.query("update users set setting = ? where username = 'ssrfhook'", JSON.stringify(setting));
    await chat(key);
    await Bun.sleep(500);
    expect(world.server.output()).toContain("quota alert not delivered");
    expect(world.server.output()).toContain("不允许访问该地址: private address 127.0.0.1");
  });
});
