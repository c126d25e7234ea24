// SSRF probes (plan S1, A9): the address spellings of the plan's corpus that other suites do not
// try (tests/api/personal-settings.test.ts has plain loopback, private, link-local, IPv6 loopback
// and unusual ports) are refused when a webhook is saved; and webhooks stored with loopback
// spellings (as an older version could have stored them) are never connected to when a quota
// alert fires: a TCP listener on 127.0.0.1 and [::1] counts every connection, while a control
// user's alert reaches the one address the test server trusts (proof that alerts were sent).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Socket } from "bun";
import { newUserSession } from "../helpers/api-session.ts";
import { startTlsReceiver } from "../helpers/tls-receiver.ts";
import { addChannel, addToken, postRelay, setOptions } from "../helpers/relay-world.ts";
import { reportFigures, startFaultWorld, type FaultWorld } from "../helpers/fault-world.ts";

let world: FaultWorld;
const receiver = startTlsReceiver();
let connections = 0;
const count = { open: (_socket: Socket) => void connections++, data() {} };
const sink4 = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: count });
let sink6: { stop(closeActive?: boolean): void } | undefined;
try {
  sink6 = Bun.listen({ hostname: "::1", port: sink4.port, socket: count });
} catch {
  // no IPv6 loopback on this machine: the [::1] spelling is still refused, nothing to count there
}

beforeAll(async () => {
  world = await startFaultWorld(receiver.env);
  await addChannel(world, { key: "sk-ssrf" });
  await setOptions(world, { QuotaRemindThreshold: 1_000_000 });
});
afterAll(async () => {
  receiver.stop();
  sink4.stop(true);
  sink6?.stop(true);
  await world?.stop();
});

const port = () => sink4.port;
const savedCorpus = [
  "https://2130706433/",
  "https://0x7f000001/",
  "https://017700000001/",
  "https://127.1/",
  "https://0.0.0.0/",
  "https://0/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:7f00:1]/",
  "https://100.64.0.1/",
  "https://[fc00::1]/",
  "https://[fe80::1]/",
  "https://169.254.169.254/latest/meta-data/",
  "https://user:pass@hooks.example.com/",
  "file:///etc/passwd",
  "gopher://127.0.0.1:25/",
  "data:text/plain,hi",
  "ftp://hooks.example.com/",
];

test("webhook addresses in every private spelling are refused when saved", async () => {
  const session = await newUserSession(world.server.url, "ssrfsaver");
  const refused: string[] = [];
  for (const url of [...savedCorpus, `https://127.0.0.1:${port()}/`, `https://localhost:${port()}/`]) {
    const saved = await session.put("/api/user/setting", {
      notify_type: "webhook",
      webhook_url: url,
      webhook_secret: "",
      notification_email: "",
      quota_warning_threshold: 1000,
    });
    if (!saved.body.success) refused.push(url);
  }
  expect(refused.length).toBe(savedCorpus.length + 2);
  const [row] = await world.server.store.query<{ setting: string }>("select setting from users where id = ?", session.userId);
  expect(row!.setting).not.toContain("http");
  reportFigures("ssrf-probes (saved)", { addresses: refused.length });
});

test("a stored webhook to a loopback spelling is never connected to when an alert fires", async () => {
  const stored = [
    `https://127.0.0.1:${port()}/hook`,
    `https://localhost:${port()}/hook`,
    `https://[::1]:${port()}/hook`,
    `https://2130706433:${port()}/hook`,
    `https://0x7f000001:${port()}/hook`,
    `https://127.1:${port()}/hook`,
    `https://[::ffff:127.0.0.1]:${port()}/hook`,
    `http://127.0.0.1:${port()}/hook`,
  ];
  const users = [];
  for (const [index, url] of [...stored, `${receiver.url}/control`].entries()) {
    const session = await newUserSession(world.server.url, `ssrf${index}`);
    await world.root.put("/api/user/", { id: session.userId, quota: 600_000 });
    const saved = await session.put("/api/user/setting", {
      notify_type: "webhook",
      webhook_url: "https://hooks.example.com/x",
      webhook_secret: "",
      notification_email: "",
      quota_warning_threshold: 1_000_000,
    });
    expect(saved.body.success).toBe(true);
    // Written straight into the store, as a version without the check would have kept it.
    await world.server.store.query(
      "update users set setting = replace(setting, 'https://hooks.example.com/x', ?) where id = ?",
      url,
      session.userId,
    );
    users.push({ url, key: (await addToken(session)).key });
  }
  for (const user of users)
    expect(
      (await postRelay(world, "/v1/chat/completions", user.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "low" }] }))
        .status,
    ).toBe(200);
  await receiver.waitFor(1);
  await Bun.sleep(1000);
  expect(receiver.hits.map((hit) => hit.path)).toEqual(["/control"]);
  expect(connections).toBe(0);
  await world.check();
  reportFigures("ssrf-probes (sent)", { storedAddresses: stored.length, connections, controlDelivered: receiver.hits.length });
});
