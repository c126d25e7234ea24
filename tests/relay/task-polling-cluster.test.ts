// Two gateway instances on one PostgreSQL database and one Redis both run the task poller: the
// upstream is polled by one of them at a time (never twice at once, even when an upstream holds
// each answer longer than the polling period), tasks end as the upstream says, and a failed
// task is refunded once although both instances could have noticed it.
// Runs in the PostgreSQL pass when a Redis is given (CI sets TEST_REDIS_URL).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rootSession, type ApiSession } from "../helpers/api-session.ts";
import { seedUsers } from "../helpers/seeded-users.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, testDialect, type TestStore } from "../helpers/test-store.ts";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { addToken } from "../helpers/relay-world.ts";
import { balances, charged, chargedEverywhere, eventually, relayCall } from "../helpers/task-helpers.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";
import { sharedRedisEnv } from "../helpers/shared-redis-env.ts";

setDefaultTimeout(90_000);

const enabled = testDialect === "pg" && Boolean(process.env.TEST_REDIS_URL);

describe.if(enabled)("the task poller on two instances sharing PostgreSQL and Redis", () => {
  let store: TestStore;
  let mj: MidjourneyUpstream;
  let first: TestServer;
  let second: TestServer;
  let root: ApiSession;

  beforeAll(async () => {
    store = await createTestStore();
    mj = await startMidjourneyUpstream({ secrets: ["twin-mj"], finishAfterMs: 200 });
    const env = {
      ...sharedRedisEnv(),
      TASK_POLL_INTERVAL: "1",
    };
    first = await startTestServer({ store, env });
    second = await startTestServer({ store, env });
    root = await rootSession(first.url);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await mj?.stop();
    await store?.dispose();
  });

  test("one instance polls at a time, and a failure is refunded once", async () => {
    const created = await root.post("/api/channel/", {
      name: "twin-mj",
      type: ChannelType.Midjourney,
      key: "twin-mj",
      base_url: mj.url,
      models: "mj_imagine",
      group: "default",
    });
    const channelId = created.body.data[0].id as number;
    const [user] = await seedUsers(first, "twinmj", 1, { quota: 1_000_000 });
    const token = await addToken(user!.session, { name: "twin", unlimited_quota: false, remain_quota: 1_000_000 });
    const before = await balances(first, user!.id, token.id, channelId);
    // Each poll answer takes longer than the polling period of either instance.
    mj.holdPolls(2500);
    const ids: string[] = [];
    // The last task never ends, so both instances keep wanting to poll.
    for (const [index, prompt] of ["one", "two [fail]", "three", "four [never]"].entries()) {
      const server = index % 2 ? second : first;
      // The second instance learns of the new channel through Redis; give it a moment.
      const answer = await eventually(
        () => relayCall(server.url, "POST", "/mj/submit/imagine", { authorization: `Bearer sk-${token.key}` }, { prompt }),
        (result) => result.json?.code === 1,
        `submission through instance ${index % 2 ? 2 : 1}`,
      );
      ids.push(String(answer.json.result));
    }
    expect(charged(before, await balances(first, user!.id, token.id, channelId))).toEqual(chargedEverywhere(4 * 50_000));

    const statuses = () => store.query<{ mj_id: string; status: string }>("select mj_id, status from midjourneys order by id");
    const ended = (rows: { status: string }[]) => rows.slice(0, 3).every((row) => row.status === "SUCCESS" || row.status === "FAILURE");
    await eventually(statuses, ended, "three tasks ended", 60_000);
    expect((await statuses()).map((row) => row.status)).toEqual(["SUCCESS", "FAILURE", "SUCCESS", "SUBMITTED"]);
    await eventually(
      () => balances(first, user!.id, token.id, channelId),
      (now) => now.quota === before.quota - 3 * 50_000,
      "refund",
    );
    // More periods pass on both instances (the unfinished task keeps them polling): still one
    // refund, and never two polls at once.
    const polls = () => Promise.resolve(mj.receivedAt("/mj/task/list-by-condition").length);
    const seen = await polls();
    await eventually(polls, (count) => count >= seen + 2, "two more polls", 60_000);
    expect(charged(before, await balances(first, user!.id, token.id, channelId))).toEqual(chargedEverywhere(3 * 50_000));
    const refunds = await store.query("select quota from logs where type = 4 and content like ?", `%${ids[1]}%`);
    expect(refunds.map((row) => Number(row.quota))).toEqual([50_000]);
    expect(mj.maxConcurrentPolls()).toBe(1);
  });
});
