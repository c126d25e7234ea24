// Low-balance alerts end to end: a request through the relay settles, the user's balance is now
// under the threshold, and the alert arrives by email (an SMTP server in this process) or by
// webhook (an HTTP listener on a loopback address the test server trusts); once per 2 hours.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { newUserSession, type ApiSession } from "../helpers/api-session.ts";
import { startMailCatcher, type MailCatcher } from "../helpers/mail-catcher.ts";
import { addChannel, addToken, openai, setOptions, startRelayWorld, type RelayWorld } from "./relay-world.ts";

setDefaultTimeout(30_000);

let world: RelayWorld;
let mail: MailCatcher;
const hooks: { headers: Headers; body: string }[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.2",
  port: 0,
  async fetch(request) {
    hooks.push({ headers: request.headers, body: await request.text() });
    return new Response("ok");
  },
});

beforeAll(async () => {
  mail = await startMailCatcher();
  world = await startRelayWorld({ OUTBOUND_ALLOWED_HOSTS: "127.0.0.2" });
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
  receiver.stop(true);
  await world?.stop();
  await mail?.close();
});

/** A registered user with a token, a balance and notification settings. */
async function customer(name: string, quota: number, setting: Record<string, unknown>, email = ""): Promise<{ session: ApiSession; key: string }> {
  const session = await newUserSession(world.server.url, name);
  await world.server.store.query("update users set quota = ?, email = ?, setting = ? where id = ?", quota, email, JSON.stringify(setting), session.userId);
  const token = await addToken(session);
  return { session, key: token.key };
}

async function chat(key: string): Promise<void> {
  const answer = await openai(world, key).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] });
  expect(answer.choices[0]!.message.content).toBeTruthy();
}

async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(20);
  }
}

describe("quota alerts through the relay", () => {
  test("a request that leaves the balance under the threshold sends one email", async () => {
    const { key } = await customer("lowmail", 600_000, { notify_type: "email" }, "low@example.com");
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
    const { key: rich } = await customer("richmail", 5_000_000, { notify_type: "email" }, "rich@example.com");
    await chat(rich);
    const { key: careful } = await customer("carefulm", 5_000_000, { notify_type: "email", quota_warning_threshold: 9_000_000 }, "careful@example.com");
    await chat(careful);
    const messages = (await mail.waitFor(before + 1)).slice(before);
    await Bun.sleep(300);
    expect(mail.messages.length).toBe(before + 1);
    expect(messages[0]!.to).toEqual(["careful@example.com"]);
  });

  test("a webhook user is told by webhook, with the secret as Bearer", async () => {
    const url = `http://127.0.0.2:${receiver.port}/alerts`;
    const { key } = await customer("lowhook", 700_000, { notify_type: "webhook", webhook_url: url, webhook_secret: "relay-hook-secret" });
    await chat(key);
    await eventually(() => hooks.length === 1);
    const hook = hooks[0]!;
    expect(hook.headers.get("authorization")).toBe("Bearer relay-hook-secret");
    expect(hook.headers.get("x-webhook-signature")).toBe(createHmac("sha256", "relay-hook-secret").update(hook.body).digest("hex"));
    const body = JSON.parse(hook.body);
    expect(body.type).toBe("quota_exceed");
    expect(body.values[0]).toBe("您的额度即将用尽");
    expect(body.content).toContain("{{value}}");
  });

  test("a webhook pointing at the gateway's own machine is refused; the request itself is served", async () => {
    const { key } = await customer("ssrfhook", 700_000, { notify_type: "webhook", webhook_url: "https://127.0.0.1/api/status", webhook_secret: "x" });
    await chat(key);
    await Bun.sleep(500);
    expect(world.server.output()).toContain("quota alert not delivered");
    expect(world.server.output()).toContain("不允许访问该地址: private address 127.0.0.1");
  });
});
