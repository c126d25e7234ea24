// The dashboard's hourly rollups (and the DataExport options): every bucket equals
// the sums of the consumption logs it came from, refreshing again (or concurrently) never counts
// twice, late logs of recent hours are picked up, and the data endpoints keep users apart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

type Log = { user: SeededUser; model: string; at: number; prompt: number; completion: number; quota: number };
type Bucket = { count: number; token_used: number; quota: number };

let server: TestServer;
let root: ApiSession;
let users: SeededUser[];
const logs: Log[] = [];
const now = Math.floor(Date.now() / 1000);
const models = ["gpt-4o", "claude-3-5-sonnet", "deepseek-chat"];

/** A small deterministic generator, so a failure can be reproduced. */
let seed = 42;
const next = (limit: number) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % limit;
};

async function writeLog(log: Log, type = 2): Promise<void> {
  await server.store.query(
    `insert into logs (user_id, username, created_at, type, model_name, prompt_tokens, completion_tokens, quota, content, token_name, "group", other)
     values (?, ?, ?, ?, ?, ?, ?, ?, '', 't', 'default', '')`,
    log.user.id,
    log.user.username,
    log.at,
    type,
    log.model,
    log.prompt,
    log.completion,
    log.quota,
  );
  if (type === 2) logs.push(log);
}

function randomLog(at: number): Log {
  return {
    user: users[next(users.length)]!,
    model: models[next(models.length)]!,
    at,
    prompt: next(5000),
    completion: next(3000),
    quota: next(100_000),
  };
}

function expectedBuckets(filter: (log: Log) => boolean = () => true): Map<string, Bucket> {
  const buckets = new Map<string, Bucket>();
  for (const log of logs.filter(filter)) {
    const key = `${log.user.id}|${log.model}|${log.at - (log.at % 3600)}`;
    const bucket = buckets.get(key) ?? { count: 0, token_used: 0, quota: 0 };
    bucket.count += 1;
    bucket.token_used += log.prompt + log.completion;
    bucket.quota += log.quota;
    buckets.set(key, bucket);
  }
  return buckets;
}

function bucketsOf(rows: { user_id: number; model_name: string; created_at: number; count: number; token_used: number; quota: number }[]) {
  return new Map(
    rows.map((row) => [
      `${row.user_id}|${row.model_name}|${row.created_at}`,
      { count: Number(row.count), token_used: Number(row.token_used), quota: Number(row.quota) },
    ]),
  );
}

const range = `start_timestamp=${now - 5 * 86400}&end_timestamp=${now + 3600}`;

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  users = await seedUsers(server, "dash", 3);
  for (let index = 0; index < 240; index++) await writeLog(randomLog(now - next(3 * 86400)));
  // Top-up and admin logs are not consumption and must not show.
  await writeLog({ ...randomLog(now - 100), quota: 999_999 }, 1);
  await writeLog({ ...randomLog(now - 200), quota: 888_888 }, 3);
});
afterAll(() => server.stop());

describe("rollups", () => {
  test("each hourly bucket equals the sums of its logs", async () => {
    const refreshed = await root.post("/api/data/refresh");
    expect(refreshed.body.success).toBe(true);
    const rows = (await root.get(`/api/data/?${range}`)).body.data;
    expect(bucketsOf(rows)).toEqual(expectedBuckets());
    const total = rows.reduce((sum: number, row: { quota: number }) => sum + Number(row.quota), 0);
    expect(total).toBe(logs.reduce((sum, log) => sum + log.quota, 0));
    for (const row of rows) expect(row.username).toBe(users.find((user) => user.id === row.user_id)!.username);
  });

  test("refreshing again, or five times at once, never counts twice", async () => {
    await root.post("/api/data/refresh");
    await Promise.all(Array.from({ length: 5 }, () => root.post("/api/data/refresh")));
    const rows = (await root.get(`/api/data/?${range}`)).body.data;
    expect(bucketsOf(rows)).toEqual(expectedBuckets());
    const [stored] = await server.store.query<{ count: number }>("select count(*) as count from quota_data");
    expect(Number(stored!.count)).toBe(expectedBuckets().size);
  });

  test("logs of recent hours that arrive later are added exactly", async () => {
    for (let index = 0; index < 30; index++) await writeLog(randomLog(now - next(3600)));
    await writeLog(randomLog(now - 3600 - 60)); // stamped in the previous hour, committed now
    await root.post("/api/data/refresh");
    const rows = (await root.get(`/api/data/?${range}`)).body.data;
    expect(bucketsOf(rows)).toEqual(expectedBuckets());
  });
});

describe("endpoints", () => {
  test("admins filter by username; users see only their own rows", async () => {
    const [first] = users;
    const filtered = (await root.get(`/api/data/?${range}&username=${first!.username}`)).body.data;
    expect(filtered.length).toBeGreaterThan(0);
    expect(bucketsOf(filtered)).toEqual(expectedBuckets((log) => log.user.id === first!.id));
    const own = (await first!.session.get(`/api/data/self?${range}`)).body.data;
    expect(bucketsOf(own)).toEqual(expectedBuckets((log) => log.user.id === first!.id));
  });

  test("the range is respected", async () => {
    const start = now - 86400;
    const rows = (await root.get(`/api/data/?start_timestamp=${start}&end_timestamp=${now}`)).body.data;
    expect(rows.every((row: { created_at: number }) => row.created_at >= start && row.created_at <= now)).toBe(true);
    expect(bucketsOf(rows)).toEqual(expectedBuckets((log) => log.at - (log.at % 3600) >= start));
  });

  test("common users cannot read everyone's data or refresh", async () => {
    const user = users[1]!;
    expect((await user.session.get(`/api/data/?${range}`)).body).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    expect((await user.session.post("/api/data/refresh")).body.message).toBe("无权进行此操作，权限不足");
  });

  test("with the dashboard off there is nothing to refresh", async () => {
    await root.put("/api/option/", { key: "DataExportEnabled", value: "false" });
    try {
      expect((await root.post("/api/data/refresh")).body).toEqual({ success: false, message: "管理员未开启数据看板" });
    } finally {
      await root.put("/api/option/", { key: "DataExportEnabled", value: "true" });
    }
  });
});
