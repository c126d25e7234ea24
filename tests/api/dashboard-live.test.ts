// The dashboard's data is live (issue 26): three calls through the relay show in /api/data/self
// and /api/data/ the moment they return, with no refresh of the rollups in between, and their
// numbers are exactly those of the consumption logs. Rolled-up hours and live hours together
// never count a call twice.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession } from "../helpers/api-session.ts";
import { addChannel, addToken, n, openai, type RelayWorld, startRelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let caller: ApiSession;
let key: string;

type Row = { id: number; user_id: number; model_name: string; created_at: number; count: number; token_used: number; quota: number };

const sum = (rows: Row[]) =>
  rows.reduce(
    (total, row) => ({ count: total.count + n(row.count), tokens: total.tokens + n(row.token_used), quota: total.quota + n(row.quota) }),
    {
      count: 0,
      tokens: 0,
      quota: 0,
    },
  );

async function logSums(userId: number) {
  const [row] = await world.server.store.query<{ count: number; tokens: number; quota: number }>(
    "select count(*) as count, coalesce(sum(prompt_tokens + completion_tokens), 0) as tokens, coalesce(sum(quota), 0) as quota from logs where type = 2 and user_id = ?",
    userId,
  );
  return { count: n(row!.count), tokens: n(row!.tokens), quota: n(row!.quota) };
}

const range = () => {
  const now = Math.floor(Date.now() / 1000);
  return `start_timestamp=${now - 86_400}&end_timestamp=${now + 3600}`;
};

async function threeCalls(): Promise<void> {
  const client = openai(world, key);
  for (let index = 0; index < 3; index++) {
    const answer = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: `call ${index}` }] });
    expect(answer.choices[0]?.message).toBeDefined();
  }
}

beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, { key: "sk-live-dashboard" });
  caller = await newUserSession(world.server.url, "livecaller");
  await world.server.store.query("update users set quota = 50000000 where id = ?", caller.userId);
  key = (await addToken(caller, { name: "live" })).key;
  // A refresh now: the background job has nothing due for DataExportInterval minutes, so whatever
  // shows below comes from reading the logs, not from a rollup that happened to run.
  expect((await world.root.post("/api/data/refresh")).body.success).toBe(true);
});
afterAll(() => world.stop());

describe("live dashboard data", () => {
  test("three calls show at once in /api/data/self and /api/data/, exactly as logged", async () => {
    await threeCalls();
    const logged = await logSums(caller.userId!);
    expect(logged.count).toBe(3);
    expect(logged.quota).toBeGreaterThan(0);
    const own: Row[] = (await caller.get(`/api/data/self?${range()}`)).body.data;
    expect(sum(own)).toEqual(logged);
    expect(own.every((row) => row.user_id === caller.userId && row.model_name === "gpt-4o-mini")).toBe(true);
    const everyone: Row[] = (await world.root.get(`/api/data/?${range()}`)).body.data;
    expect(sum(everyone.filter((row) => row.user_id === caller.userId))).toEqual(logged);
    const byName: Row[] = (await world.root.get(`/api/data/?${range()}&username=livecaller`)).body.data;
    expect(sum(byName)).toEqual(logged);
    // Nothing was rolled up for these calls: the numbers came from the logs.
    const [stored] = await world.server.store.query<{ count: number }>(
      "select count(*) as count from quota_data where user_id = ?",
      caller.userId,
    );
    expect(n(stored!.count)).toBe(0);
    // The user's used quota is the same money.
    const [user] = await world.server.store.query<{ used_quota: number }>("select used_quota from users where id = ?", caller.userId);
    expect(n(user!.used_quota)).toBe(logged.quota);
  });

  test("after a refresh the same hours come from the rollups, and three more calls add to them without counting twice", async () => {
    expect((await world.root.post("/api/data/refresh")).body.success).toBe(true);
    await threeCalls();
    const logged = await logSums(caller.userId!);
    expect(logged.count).toBe(6);
    expect(sum((await caller.get(`/api/data/self?${range()}`)).body.data)).toEqual(logged);
    expect(sum((await world.root.get(`/api/data/?${range()}&username=livecaller`)).body.data)).toEqual(logged);
    expect((await world.root.post("/api/data/refresh")).body.success).toBe(true);
    expect(sum((await caller.get(`/api/data/self?${range()}`)).body.data)).toEqual(logged);
  });

  test("a range that ends before the calls' hour shows none of them", async () => {
    const [first] = await world.server.store.query<{ at: number }>(
      "select min(created_at) as at from logs where type = 2 and user_id = ?",
      caller.userId,
    );
    const firstHour = Math.floor(n(first!.at) / 3600) * 3600;
    const rows: Row[] = (await caller.get(`/api/data/self?start_timestamp=${firstHour - 86_400}&end_timestamp=${firstHour - 1}`)).body.data;
    expect(rows).toEqual([]);
    // And one that starts within that hour still counts the whole hour, as the rollups do.
    const whole: Row[] = (await caller.get(`/api/data/self?start_timestamp=${firstHour}&end_timestamp=${firstHour + 1}`)).body.data;
    expect(whole.length).toBeGreaterThan(0);
  });
});
