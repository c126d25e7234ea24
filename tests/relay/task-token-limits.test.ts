// A token's period budget and rate limits on the task routes (issue 27): a failed drawing's
// refund gives its charge back to the token's period when the charge fell in the current period,
// and not when it belongs to an earlier one; a token's requests per minute, requests in flight
// and tokens per minute refuse /mj and /suno submissions with a 429, Retry-After and the code, in
// each route's own error shape, charging nothing; the ledger invariants hold.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { startSunoUpstream, type SunoUpstream } from "../fixtures/suno-upstream.ts";
import { checkLedger, ledgerCheckEnv } from "../helpers/ledger-invariants.ts";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { addChannel, addToken, n, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { eventually, relayCall } from "../helpers/task-helpers.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

setDefaultTimeout(60_000);

const imagine = 50_000; // mj_imagine 0.1 $ x 500 000

let world: RelayWorld;
let mj: MidjourneyUpstream;
let suno: SunoUpstream;
let user: SeededUser;

beforeAll(async () => {
  mj = await startMidjourneyUpstream({ secrets: ["mj-secret"] });
  suno = await startSunoUpstream({ keys: ["suno-key"] });
  world = await startRelayWorld({ TASK_POLL_INTERVAL: "1", TZ: "UTC", ...ledgerCheckEnv });
  await addChannel(world, { name: "mj", type: ChannelType.Midjourney, key: "mj-secret", base_url: mj.url, models: "mj_imagine" });
  await addChannel(world, { name: "suno", type: ChannelType.Suno, key: "suno-key", base_url: suno.url, models: "suno_music" });
  [user] = await seedUsers(world.server, "periodic", 1, { quota: 100_000_000 });
});
afterAll(async () => {
  await world?.stop();
  await mj?.stop();
  await suno?.stop();
});

const submit = (path: string, body: unknown, key: string) =>
  relayCall(world.server.url, "POST", path, { authorization: `Bearer sk-${key}` }, body);

async function tokenRow(id: number) {
  const [row] = await world.server.store.query<Record<string, unknown>>(
    "select used_quota, period_used_quota, period_start from tokens where id = ?",
    id,
  );
  return { used: n(row!.used_quota), periodUsed: n(row!.period_used_quota), periodStart: n(row!.period_start) };
}

const refundedTask = (id: string, key: string) =>
  eventually(
    async () => {
      const [row] = await world.server.store.query<{ refunded: unknown }>("select refunded from midjourneys where mj_id = ?", id);
      return Boolean(row?.refunded);
    },
    (refunded) => refunded,
    `task ${id} (token ${key}) refunded`,
  );

describe("refunds and the period", () => {
  test("a failed drawing charged in the current period gives its charge back to the period", async () => {
    const token = await addToken(user.session, { name: "refund-now", quota_period: "day", period_quota: 10 * imagine });
    const kept = await submit("/mj/submit/imagine", { prompt: "a kept fox" }, token.key);
    const failed = await submit("/mj/submit/imagine", { prompt: "a fox [fail]" }, token.key);
    expect([kept.json.code, failed.json.code]).toEqual([1, 1]);
    await refundedTask(failed.json.result, token.key);
    expect(await tokenRow(token.id)).toMatchObject({ used: imagine, periodUsed: imagine });
    await checkLedger(world.server.store, world.server.url);
  });

  test("a refund of a charge from an earlier period leaves the current period's sum alone", async () => {
    const token = await addToken(user.session, { name: "refund-before", quota_period: "day", period_quota: 10 * imagine });
    // Long enough for the log to be moved back before the poller sees the failure, however busy the machine.
    mj.finishAfterMs = 8_000;
    try {
      const kept = await submit("/mj/submit/imagine", { prompt: "a kept owl" }, token.key);
      const failed = await submit("/mj/submit/imagine", { prompt: "an owl [fail]" }, token.key);
      expect([kept.json.code, failed.json.code]).toEqual([1, 1]);
      // The failed one's charge as if it had been made two days ago (before the period began).
      const [task] = await world.server.store.query<{ request_id: string }>(
        "select request_id from midjourneys where mj_id = ?",
        failed.json.result,
      );
      await world.server.store.query("update logs set created_at = created_at - 172800 where request_id = ?", task!.request_id);
      const before = await tokenRow(token.id);
      expect(before).toMatchObject({ used: 2 * imagine, periodUsed: 2 * imagine });
      await refundedTask(failed.json.result, token.key);
      expect(await tokenRow(token.id)).toEqual({ ...before, used: imagine });
    } finally {
      mj.finishAfterMs = 400;
    }
    await checkLedger(world.server.store, world.server.url);
  });
});

describe("rate limits on the task routes", () => {
  test("requests per minute on /mj/submit/imagine: a 429 in midjourney-proxy's shape, with Retry-After and the code", async () => {
    const token = await addToken(user.session, { name: "mj-rpm", rpm_limit: 2 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) => submit("/mj/submit/imagine", { prompt: `cat ${index}` }, token.key)),
    );
    const accepted = answers.filter((answer) => answer.status === 200);
    expect(accepted.map((answer) => answer.json.code)).toEqual([1, 1]);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.json).toMatchObject({ code: 4, type: "new_api_error", properties: { error_code: "token_rpm_limited" }, result: null });
      const wait = Number(answer.headers.get("retry-after"));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    // Only the accepted submissions reached the upstream and were charged.
    expect(mj.receivedAt("/mj/submit/imagine").filter((received) => received.json.prompt.startsWith("cat "))).toHaveLength(2);
    expect((await tokenRow(token.id)).used).toBe(2 * imagine);
    await checkLedger(world.server.store, world.server.url);
  });

  test("requests in flight on /mj/submit/imagine: never more submissions at once than the limit, and the slots come back", async () => {
    const token = await addToken(user.session, { name: "mj-conc", concurrency_limit: 2 });
    // Held long enough that every submission arrives while the first two run, however busy the machine.
    mj.holdSubmits(2000);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, index) => submit("/mj/submit/imagine", { prompt: `dog ${index}` }, token.key)),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
      for (const answer of answers.filter((answer) => answer.status !== 200)) {
        expect(answer.status).toBe(429);
        expect(answer.json).toMatchObject({ code: 4, properties: { error_code: "token_concurrency_limited" } });
        expect(answer.headers.get("retry-after")).toBe("1");
      }
    } finally {
      mj.holdSubmits(0);
    }
    // Both slots were given back when their submissions ended.
    const again = await Promise.all([1, 2].map((index) => submit("/mj/submit/imagine", { prompt: `dog again ${index}` }, token.key)));
    expect(again.map((answer) => answer.json.code)).toEqual([1, 1]);
    expect((await tokenRow(token.id)).used).toBe(4 * imagine);
    await checkLedger(world.server.store, world.server.url);
  });

  test("tokens per minute on /mj/submit/imagine: a submission needs room in the minute, and leaves it as it was", async () => {
    const token = await addToken(user.session, { name: "mj-tpm", tpm_limit: 1 });
    mj.holdSubmits(2000);
    let answers: Awaited<ReturnType<typeof submit>>[];
    try {
      answers = await Promise.all([1, 2, 3].map((index) => submit("/mj/submit/imagine", { prompt: `bird ${index}` }, token.key)));
    } finally {
      mj.holdSubmits(0);
    }
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBe(429);
      expect(answer.json.properties).toEqual({ error_code: "token_tpm_limited" });
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    // The ended submission used no tokens: the minute has room again at once.
    expect((await submit("/mj/submit/imagine", { prompt: "bird again" }, token.key)).json.code).toBe(1);
    await checkLedger(world.server.store, world.server.url);
  });

  test("requests per minute on /suno/submit/music: a 429 in the Suno proxy's shape", async () => {
    const token = await addToken(user.session, { name: "suno-rpm", rpm_limit: 1 });
    const first = await submit("/suno/submit/music", { gpt_description_prompt: "a song" }, token.key);
    expect(first.json).toMatchObject({ code: "success" });
    const second = await submit("/suno/submit/music", { gpt_description_prompt: "another song" }, token.key);
    expect(second.status).toBe(429);
    expect(second.json).toMatchObject({ code: "token_rpm_limited", data: null });
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await checkLedger(world.server.store, world.server.url);
  });
});
