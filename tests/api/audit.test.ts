// The audit trail (issue 27 item 4): every change made through the management API leaves one
// entry with who, from where, when, what and the fields before and after; secrets (channel keys,
// passwords, token and redemption keys, secret options) appear only as "changed", so a canary
// secret is in no entry, no answer of /api/audit and no row of the table. Admins and root read
// it, users are refused, nothing edits or deletes it, and AuditRetentionDays removes old entries.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
let alice: ApiSession;
const canary = "canary-7f3a9c51e2";
/** Values the trail must never hold: the canary and every key the gateway generated. */
const generatedSecrets: string[] = [];

type Entry = {
  id: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  address: string;
  action: string;
  target_type: string;
  target_id: string;
  changes: { field: string; before?: unknown; after?: unknown; changed?: true }[];
};

async function entries(query = ""): Promise<Entry[]> {
  const result = await root.get(`/api/audit/?page_size=100${query}`);
  expect(result.body.success).toBe(true);
  return result.body.data.items;
}

/** The newest entry of an action (after the change it follows). */
async function latest(action: string): Promise<Entry> {
  const [entry] = await entries(`&action=${action}`);
  if (!entry) throw new Error(`no ${action} entry`);
  return entry;
}

const field = (entry: Entry, name: string) => entry.changes.find((change) => change.field === name);

async function ok(result: Promise<{ body: any }>): Promise<any> {
  const { body } = await result;
  if (!body.success) throw new Error(JSON.stringify(body));
  return body.data;
}

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  alice = await newUserSession(server.url, "alice");
});
afterAll(() => server.stop());

describe("an entry for each kind of change", () => {
  let channelId: number;

  test("channels: create, update, tag, copy, delete, batch delete; the key only as changed", async () => {
    const before = Math.floor(Date.now() / 1000);
    const [created] = await ok(
      root.post("/api/channel/", { name: "audited", type: 1, key: `sk-${canary}`, models: "gpt-4o-mini", group: "default" }),
    );
    channelId = created.id;
    const create = await latest("channel.create");
    expect(create).toMatchObject({
      actor_name: "root",
      actor_id: 1,
      address: "127.0.0.1",
      target_type: "channel",
      target_id: String(channelId),
    });
    expect(create.created_at).toBeGreaterThanOrEqual(before);
    expect(field(create, "name")).toEqual({ field: "name", after: "audited" });
    expect(field(create, "key")).toEqual({ field: "key", changed: true });

    await ok(root.put("/api/channel/", { id: channelId, name: "audited-2", key: `sk-${canary}-new`, priority: 5 }));
    const update = await latest("channel.update");
    expect(update.target_id).toBe(String(channelId));
    expect(field(update, "name")).toEqual({ field: "name", before: "audited", after: "audited-2" });
    expect(field(update, "priority")).toEqual({ field: "priority", before: 0, after: 5 });
    expect(field(update, "key")).toEqual({ field: "key", changed: true });

    await ok(root.post("/api/channel/batch/tag", { ids: [channelId], tag: "team" }));
    expect(field(await latest("channel.set_tag"), "tag")).toEqual({ field: "tag", after: "team" });
    await ok(root.post("/api/channel/tag/disabled", { tag: "team" }));
    expect(await latest("channel.disable_tag")).toMatchObject({ target_id: String(channelId) });

    const copy = await ok(root.post(`/api/channel/copy/${channelId}`));
    expect(field(await latest("channel.copy"), "source_id")).toEqual({ field: "source_id", after: channelId });
    await ok(root.delete(`/api/channel/${copy.id}`));
    const deleted = await latest("channel.delete");
    expect(deleted.target_id).toBe(String(copy.id));
    expect(field(deleted, "name")).toEqual({ field: "name", before: "audited-2_复制" });
    expect(field(deleted, "key")).toEqual({ field: "key", changed: true });

    const [a, b] = await ok(
      root.post("/api/channel/", { name: "bulk", type: 1, key: "sk-bulk-1\nsk-bulk-2", models: "m", group: "default" }),
    );
    expect(await ok(root.post("/api/channel/batch", { ids: [a.id, b.id] }))).toBe(2);
    const bulk = await latest("channel.batch_delete");
    expect(bulk.target_id).toBe(`${a.id},${b.id}`);
    expect(field(bulk, "count")).toEqual({ field: "count", before: 2 });
  });

  test("tokens: the owner's creation, change and deletion, the key never shown", async () => {
    const [token] = await ok(alice.post("/api/token/", { name: "alice-key", remain_quota: 1000 }));
    generatedSecrets.push(token.key);
    const create = await latest("token.create");
    expect(create).toMatchObject({ actor_name: "alice", actor_id: alice.userId, target_id: String(token.id) });
    expect(field(create, "key")).toEqual({ field: "key", changed: true });
    await ok(alice.put("/api/token/", { ...token, name: "alice-key-2" }));
    expect(field(await latest("token.update"), "name")).toEqual({ field: "name", before: "alice-key", after: "alice-key-2" });
    await ok(alice.delete(`/api/token/${token.id}`));
    expect(await latest("token.delete")).toMatchObject({ actor_name: "alice", target_id: String(token.id) });
  });

  test("users: creation, edits with a top-up, row actions, sessions and two-factor resets", async () => {
    // Passwords are at most 20 characters: these two carry the canary's tail, and count as secrets.
    const [first, second] = [`pw1-${canary.slice(-10)}`, `pw2-${canary.slice(-10)}`];
    generatedSecrets.push(first, second);
    await ok(root.post("/api/user/", { username: "carol", password: first, display_name: "Carol" }));
    const create = await latest("user.create");
    const carolId = Number(create.target_id);
    expect(field(create, "username")).toEqual({ field: "username", after: "carol" });
    expect(field(create, "password")).toEqual({ field: "password", changed: true });

    await ok(root.put("/api/user/", { id: carolId, username: "carol", display_name: "Carol C", add_quota: 500000, password: second }));
    const update = await latest("user.update");
    expect(update.target_id).toBe(String(carolId));
    expect(field(update, "quota")).toMatchObject({ field: "quota", after: (field(update, "quota")!.before as number) + 500000 });
    expect(field(update, "display_name")).toEqual({ field: "display_name", before: "Carol", after: "Carol C" });
    expect(field(update, "password")).toEqual({ field: "password", changed: true });

    await ok(root.post("/api/user/manage", { id: carolId, action: "disable" }));
    expect(field(await latest("user.disable"), "status")).toEqual({ field: "status", before: 1, after: 2 });
    await ok(root.post("/api/user/manage", { id: carolId, action: "enable" }));
    expect(await latest("user.enable")).toMatchObject({ target_id: String(carolId) });
    await ok(root.delete(`/api/user/${alice.userId}/sessions`));
    expect(await latest("user.end_sessions")).toMatchObject({ target_id: String(alice.userId) });
    alice = await signInAgain("alice");
    await ok(root.delete(`/api/user/${carolId}/2fa`));
    expect(await latest("user.reset_2fa")).toMatchObject({ target_id: String(carolId) });
    await ok(root.delete(`/api/user/${carolId}`));
    expect(field(await latest("user.delete"), "deleted_at")).toBeDefined();
  });

  test("options and groups: before and after, secret options only as changed", async () => {
    await ok(
      root.put("/api/option/", [
        { key: "SystemName", value: "Audited Gateway" },
        { key: "SMTPToken", value: canary },
      ]),
    );
    const entry = await latest("option.update");
    expect(entry.target_id).toBe("SystemName,SMTPToken");
    expect(field(entry, "SystemName")).toMatchObject({ after: "Audited Gateway" });
    expect(field(entry, "SMTPToken")).toEqual({ field: "SMTPToken", changed: true });

    const groups = JSON.parse((await ok(root.get("/api/option/"))).find((o: { key: string }) => o.key === "GroupRatio").value);
    await ok(root.put("/api/option/", { key: "GroupRatio", value: JSON.stringify({ ...groups, team: 0.8 }) }));
    expect(field(await latest("option.update"), "GroupRatio.team")).toEqual({ field: "GroupRatio.team", after: 0.8 });
  });

  test("prices: a price set, a ratio reset", async () => {
    await ok(root.put("/api/pricing/models", { source: "console", models: { "audit-model": { input: 1, output: 4 } } }));
    const set = await latest("price.set");
    expect(field(set, "ModelRatio.audit-model")).toEqual({ field: "ModelRatio.audit-model", after: 0.5 });
    await ok(root.post("/api/option/rest_model_ratio"));
    expect(field(await latest("price.reset_model_ratio"), "ModelRatio.audit-model")).toEqual({
      field: "ModelRatio.audit-model",
      before: 0.5,
    });
  });

  test("redemption codes: creation (keys never shown), edit, status, deletion", async () => {
    const keys: string[] = await ok(root.post("/api/redemption/", { name: "audit", quota: 1000, count: 2 }));
    generatedSecrets.push(...keys);
    const create = await latest("redemption.create");
    expect(field(create, "count")).toEqual({ field: "count", after: 2 });
    const id = Number(create.target_id.split(",")[0]);
    await ok(root.put("/api/redemption/", { id, name: "audit-2", quota: 2000 }));
    expect(field(await latest("redemption.update"), "quota")).toEqual({ field: "quota", before: 1000, after: 2000 });
    await ok(root.put("/api/redemption/?status_only=true", { id, status: 2 }));
    expect(field(await latest("redemption.status"), "status")).toEqual({ field: "status", before: 1, after: 2 });
    await ok(root.delete(`/api/redemption/${id}`));
    expect(await latest("redemption.delete")).toMatchObject({ target_id: String(id) });
  });

  test("log cleanup, a bulk action of its own", async () => {
    const target = Math.floor(Date.now() / 1000) - 86_400;
    await ok(root.delete(`/api/log/?target_timestamp=${target}`));
    expect(field(await latest("log.delete"), "before_timestamp")).toEqual({ field: "before_timestamp", after: target });
  });
});

/** A user signs in again after root ended their sessions. */
async function signInAgain(username: string): Promise<ApiSession> {
  const session = new ApiSession(server.url);
  const login = await session.login(username, "password123");
  if (!login.body.success) throw new Error(JSON.stringify(login.body));
  return session;
}

describe("reading the trail", () => {
  test("no canary secret, generated key or password in any entry, answer or stored row", async () => {
    const answer = JSON.stringify(await entries());
    const stored = JSON.stringify(await server.store.query("select * from audit_logs"));
    for (const secret of [canary, ...generatedSecrets]) {
      expect(answer).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  test("filters: actor by name or id, action by name or area, time range; paging with a total", async () => {
    const byAlice = await entries("&actor=alice");
    expect(byAlice.length).toBeGreaterThanOrEqual(3);
    expect(byAlice.every((entry) => entry.actor_name === "alice")).toBe(true);
    expect((await entries(`&actor=${alice.userId}`)).map((entry) => entry.id)).toEqual(byAlice.map((entry) => entry.id));
    const tokens = await entries("&action=token");
    expect(new Set(tokens.map((entry) => entry.action))).toEqual(new Set(["token.create", "token.update", "token.delete"]));
    expect((await entries("&action=channel.update")).every((entry) => entry.action === "channel.update")).toBe(true);
    expect(await entries("&end_timestamp=1000")).toEqual([]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect(await entries(`&start_timestamp=${future}`)).toEqual([]);
    const page = await root.get("/api/audit/?p=2&page_size=3");
    expect(page.body.data.items).toHaveLength(3);
    expect(page.body.data.total).toBe((await entries()).length);
  });

  test("admins and root only; no route edits or deletes an entry", async () => {
    const refused = await alice.get("/api/audit/");
    expect(refused.body.success).toBe(false);
    expect(refused.body.data).toBeUndefined();
    const total = (await root.get("/api/audit/")).body.data.total;
    for (const method of ["PUT", "DELETE", "POST"]) {
      const attempt = await root.request(method, "/api/audit/", {});
      expect(attempt.body.success).not.toBe(true);
      expect((await root.request(method, "/api/audit/1", {})).body.success).not.toBe(true);
    }
    expect((await root.get("/api/audit/")).body.data.total).toBe(total);
  });

  test("AuditRetentionDays removes older entries, and only those", async () => {
    const old = Math.floor(Date.now() / 1000) - 5 * 86_400;
    await server.store.query(
      "insert into audit_logs (created_at, actor_id, actor_name, address, action, target_type, target_id, changes) values (?, 1, 'root', '', 'old.entry', '', '', '[]')",
      old,
    );
    const count = async () =>
      Number((await server.store.query<{ c: number }>("select count(*) as c from audit_logs where action = 'old.entry'"))[0]!.c);
    expect(await count()).toBe(1);
    await ok(root.put("/api/option/", { key: "AuditRetentionDays", value: "3" }));
    for (let attempt = 0; attempt < 100 && (await count()) > 0; attempt++) await Bun.sleep(100);
    expect(await count()).toBe(0);
    expect(field(await latest("option.update"), "AuditRetentionDays")).toEqual({ field: "AuditRetentionDays", before: "180", after: "3" });
    expect((await entries()).length).toBeGreaterThan(20);
  });
});
