// Error log entries (type 5, issue 26): every refused or failed relay call leaves one, with the
// status and error exactly as the client received them, the model, the channel tried and the
// client's address; a call that named no user is the admins' only; users never see the channel,
// the retry chain or the address; the type filter and the admins' address filter select them;
// they cost nothing (the ledger's invariants hold); a flood of failing calls writes a bounded
// number of entries (the rest folded into one per kind, written at the minute's end or at stop);
// ErrorLogEnabled switches them off and ErrorLogRetentionDays deletes old ones.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession } from "../helpers/api-session.ts";
import { checkLedger, ledgerCheckEnv } from "../helpers/ledger-invariants.ts";
import { addChannel, addToken, n, one, postRelay, type RelayWorld, setOptions, startRelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let alice: ApiSession;
let aliceToken: { id: number; key: string };
let aliceId: number;
let channelId: number;
const openingQuota = 50_000_000;

type LogEntry = Record<string, any> & { other: string };

const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: "user", content: "hi" }], ...extra });

async function waitForEntries(session: ApiSession, path: string, count: number): Promise<LogEntry[]> {
  let items: LogEntry[] = [];
  for (let attempt = 0; attempt < 100; attempt++) {
    const result = await session.get(path);
    items = result.body.data.items;
    if (items.length >= count) return items;
    await Bun.sleep(100);
  }
  throw new Error(`${path}: ${items.length} entries, expected ${count}`);
}

const errorsOf = async (query = "") => waitForEntries(world.root, `/api/log/?type=5&page_size=100${query}`, 0);

async function entryFor(requestIdOrMessage: string): Promise<LogEntry> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = (await errorsOf()).find((entry) => entry.content.includes(requestIdOrMessage));
    if (found) return found;
    await Bun.sleep(100);
  }
  throw new Error(`no error entry for ${requestIdOrMessage}`);
}

const requestIdOf = (message: string) => /\(request id: ([^)]+)\)$/.exec(message)?.[1] ?? "";

beforeAll(async () => {
  world = await startRelayWorld({ ...ledgerCheckEnv, TRUST_PROXY: "true" });
  channelId = await addChannel(world, { name: "errors-main", key: "sk-errors-main", models: "gpt-4o-mini,gpt-4o" });
  alice = await newUserSession(world.server.url, "alice");
  aliceId = alice.userId!;
  await world.server.store.query("update users set quota = ? where id = ?", openingQuota, aliceId);
  aliceToken = await addToken(alice, { name: "alice-key" });
});
afterAll(async () => {
  await world?.stop();
});

describe("what a failed call leaves", () => {
  test("an unknown token: the admins see the refusal with the address, no user owns it", async () => {
    const answer = await postRelay(world, "/v1/chat/completions", "no-such-token", chat("gpt-4o-mini"), {
      "x-forwarded-for": "203.0.113.7",
    });
    expect(answer.status).toBe(401);
    const entry = await entryFor(requestIdOf(answer.json.error.message));
    expect(entry).toMatchObject({
      type: 5,
      user_id: 0,
      username: "",
      token_name: "",
      quota: 0,
      ip: "203.0.113.7",
      content: answer.json.error.message,
    });
    expect(JSON.parse(entry.other)).toMatchObject({ status_code: 401, request_path: "/v1/chat/completions" });
    expect((await alice.get("/api/log/self?type=5")).body.data.items).toEqual([]);
  });

  test("a model nobody serves (404) and a model the token may not use (403) are the user's", async () => {
    const missing = await postRelay(world, "/v1/chat/completions", aliceToken.key, chat("gpt-nothing"), {
      "x-forwarded-for": "198.51.100.4",
    });
    expect(missing.status).toBe(404);
    const entry = await entryFor(requestIdOf(missing.json.error.message));
    expect(entry).toMatchObject({
      user_id: aliceId,
      username: "alice",
      token_name: "alice-key",
      token_id: aliceToken.id,
      model_name: "gpt-nothing",
      group: "default",
      content: missing.json.error.message,
      channel: 0,
      ip: "198.51.100.4",
    });
    expect(JSON.parse(entry.other)).toMatchObject({ status_code: 404, error_code: "model_not_found" });

    const limited = await addToken(alice, { name: "only-4o", model_limits_enabled: true, model_limits: "gpt-4o" });
    const refused = await postRelay(world, "/v1/chat/completions", limited.key, chat("gpt-4o-mini"));
    expect(refused.status).toBe(403);
    expect(await entryFor(requestIdOf(refused.json.error.message))).toMatchObject({
      user_id: aliceId,
      token_name: "only-4o",
      model_name: "gpt-4o-mini",
      content: refused.json.error.message,
    });
  });

  test("a refused token that is known (disabled) is filed under its owner", async () => {
    const disabled = await addToken(alice, { name: "switched-off" });
    await alice.put("/api/token/?status_only=true", { id: disabled.id, status: 2 });
    const answer = await postRelay(world, "/v1/chat/completions", disabled.key, chat("gpt-4o-mini"));
    expect(answer.status).toBe(401);
    expect(await entryFor(requestIdOf(answer.json.error.message))).toMatchObject({
      user_id: aliceId,
      username: "alice",
      token_name: "switched-off",
      content: answer.json.error.message,
    });
  });

  test("an upstream failure names the channel tried for admins, and hides it from the user", async () => {
    world.upstream.behave("sk-errors-main", { status: 500 });
    const answer = await postRelay(world, "/v1/chat/completions", aliceToken.key, chat("gpt-4o-mini"));
    world.upstream.reset();
    expect(answer.status).toBe(500);
    const requestId = requestIdOf(answer.json.error.message);
    const admin = await entryFor(requestId);
    expect(admin).toMatchObject({
      channel: channelId,
      channel_name: "errors-main",
      model_name: "gpt-4o-mini",
      content: answer.json.error.message,
    });
    expect(JSON.parse(admin.other)).toMatchObject({ status_code: 500, admin_info: { use_channel: [String(channelId)] } });
    const own = (await alice.get("/api/log/self?type=5&page_size=100")).body.data.items.find((entry: LogEntry) =>
      entry.content.includes(requestId),
    );
    expect(own).toMatchObject({ channel: 0, channel_name: "", ip: "", content: answer.json.error.message });
    expect(JSON.parse(own.other).admin_info).toBeUndefined();
  });

  test("a rate limit (429) and a group without a channel (503)", async () => {
    await setOptions(world, { ModelRequestRateLimitEnabled: true, ModelRequestRateLimitCount: 1, ModelRequestRateLimitDurationMinutes: 1 });
    const limitedUser = await newUserSession(world.server.url, "limited-user");
    await world.server.store.query("update users set quota = ? where id = ?", openingQuota, limitedUser.userId);
    const token = await addToken(limitedUser, { name: "fast" });
    await postRelay(world, "/v1/chat/completions", token.key, chat("gpt-4o-mini"));
    const limited = await postRelay(world, "/v1/chat/completions", token.key, chat("gpt-4o-mini"));
    await setOptions(world, { ModelRequestRateLimitEnabled: false });
    expect(limited.status).toBe(429);
    expect(JSON.parse((await entryFor(requestIdOf(limited.json.error.message))).other)).toMatchObject({ status_code: 429 });

    const vip = await addToken(world.root, { name: "vip-token", group: "vip" });
    const unavailable = await postRelay(world, "/v1/chat/completions", vip.key, chat("gpt-4o-mini"));
    expect(unavailable.status).toBe(503);
    expect(await entryFor(requestIdOf(unavailable.json.error.message))).toMatchObject({ group: "vip", model_name: "gpt-4o-mini" });
  });
});

describe("reading them", () => {
  test("type 5 is its own filter; the address filter is the admins'", async () => {
    const errors = await errorsOf();
    expect(errors.length).toBeGreaterThan(5);
    expect(errors.every((entry) => entry.type === 5 && entry.quota === 0)).toBe(true);
    const consumption = (await world.root.get("/api/log/?type=2&page_size=100")).body.data.items as LogEntry[];
    expect(consumption.every((entry) => entry.type === 2)).toBe(true);
    const byAddress = await errorsOf("&ip=198.51.100.4");
    expect(byAddress.map((entry) => entry.model_name)).toEqual(["gpt-nothing"]);
    // A user's ip filter is ignored (their view has no addresses).
    const own = (await alice.get("/api/log/self?type=5&ip=198.51.100.4&page_size=100")).body.data.items as LogEntry[];
    expect(own.length).toBeGreaterThan(2);
    expect(own.every((entry) => entry.ip === "")).toBe(true);
  });

  test("a served call's consumption entry carries the address for admins only", async () => {
    const answer = await postRelay(world, "/v1/chat/completions", aliceToken.key, chat("gpt-4o-mini"), { "x-forwarded-for": "192.0.2.55" });
    expect(answer.status).toBe(200);
    const entries = await waitForEntries(world.root, "/api/log/?type=2&ip=192.0.2.55", 1);
    expect(entries[0]).toMatchObject({ user_id: aliceId, ip: "192.0.2.55" });
    const own = (await alice.get("/api/log/self?type=2")).body.data.items as LogEntry[];
    expect(own.length).toBe(1);
    expect(own[0]!.ip).toBe("");
  });

  test("they cost nothing: balances and the ledger's invariants are untouched", async () => {
    const user = await one(world, "select quota, used_quota, request_count from users where id = ?", aliceId);
    const charged = await one(world, "select coalesce(sum(quota), 0) as total from logs where user_id = ? and type = 2", aliceId);
    expect(n(user.quota) + n(user.used_quota)).toBe(openingQuota);
    expect(n(user.used_quota)).toBe(n(charged.total));
    expect(n(user.request_count)).toBe(1);
    await checkLedger(world.server.store, world.server.url, { totals: [{ userId: aliceId, total: openingQuota }] });
  });
});

describe("switches and retention", () => {
  test("ErrorLogEnabled off: no entries", async () => {
    await setOptions(world, { ErrorLogEnabled: false });
    const answer = await postRelay(world, "/v1/chat/completions", aliceToken.key, chat("gpt-off"));
    expect(answer.status).toBe(404);
    await Bun.sleep(1500);
    expect((await errorsOf()).some((entry) => entry.model_name === "gpt-off")).toBe(false);
    await setOptions(world, { ErrorLogEnabled: true });
  });

  test("ErrorLogRetentionDays deletes older error entries, and only those", async () => {
    const old = Math.floor(Date.now() / 1000) - 3 * 86_400;
    for (const type of [5, 5, 2]) {
      await world.server.store.query(
        "insert into logs (user_id, created_at, type, content, username, quota, other) values (?, ?, ?, ?, ?, 0, ?)",
        aliceId,
        old,
        type,
        `old entry of type ${type}`,
        "alice",
        "{}",
      );
    }
    const count = async (type: number) =>
      n((await one(world, "select count(*) as c from logs where created_at = ? and type = ?", old, type)).c);
    expect([await count(5), await count(2)]).toEqual([2, 1]);
    await setOptions(world, { ErrorLogRetentionDays: 2 });
    for (let attempt = 0; attempt < 100 && (await count(5)) > 0; attempt++) await Bun.sleep(100);
    expect([await count(5), await count(2)]).toEqual([0, 1]);
    // Recent ones stay.
    expect((await errorsOf()).length).toBeGreaterThan(5);
  });
});

describe("a flood of failing calls", () => {
  test("writes a bounded number of entries; the rest are counted in one entry per kind", async () => {
    const flood = async (key: string, calls: number, address: string) => {
      for (let start = 0; start < calls; start += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, calls - start) }, () =>
            postRelay(world, "/v1/chat/completions", key, chat("gpt-flood"), { "x-forwarded-for": address }),
          ),
        );
      }
    };
    await flood("unknown-flood-token", 150, "203.0.113.99");
    await flood(aliceToken.key, 300, "203.0.113.98");
    await Bun.sleep(1500);
    const anonymous = async () => n((await one(world, "select count(*) as c from logs where type = 5 and ip = '203.0.113.99'")).c);
    const own = async () => n((await one(world, "select count(*) as c from logs where type = 5 and ip = '203.0.113.98'")).c);
    // The first refusal of the address is written at once, alice's first 60 of the minute too (the
    // flood may straddle two minutes: twice that, and the first minute's folded entry).
    expect(await anonymous()).toBeLessThanOrEqual(3);
    expect(await own()).toBeLessThanOrEqual(121);
    // Stopping writes what was folded: one entry per kind, counting the calls it stands for.
    world.server.signal("SIGTERM");
    expect(await world.server.exited).toBe(0);
    const repeats = (ip: string) =>
      world.server.store
        .query<{ other: string }>("select other from logs where type = 5 and ip = ? order by id", ip)
        .then((rows) => rows.map((row) => JSON.parse(row.other).repeat ?? 1));
    const anonymousRepeats = await repeats("203.0.113.99");
    expect(anonymousRepeats.length).toBeGreaterThanOrEqual(2);
    expect(anonymousRepeats.length).toBeLessThanOrEqual(4);
    expect(anonymousRepeats.reduce((sum, count) => sum + count, 0)).toBe(150);
    const ownRepeats = await repeats("203.0.113.98");
    expect(ownRepeats.length).toBeLessThanOrEqual(122);
    expect(ownRepeats.reduce((sum, count) => sum + count, 0)).toBe(300);
  });
});
