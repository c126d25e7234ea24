// Stopping with drawing submissions in flight: SIGTERM while a Midjourney proxy is still answering
// a submission. Within the grace period the submission finishes as usual (its task recorded and
// charged once) before the process exits; past it, the stopping server gives the upstream call up,
// the hold goes back and the client gets 503 in the proxy's error shape. Either way the process
// exits 0 and nothing is charged that has no task.
import { afterEach, expect, test } from "bun:test";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { seedUsers } from "../helpers/seeded-users.ts";
import { addChannel, addToken, n, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { relayCall } from "../helpers/task-helpers.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

const startingQuota = 10_000_000;
const imagine = 50_000; // mj_imagine 0.1 $ x 500 000

let world: RelayWorld | undefined;
let mj: MidjourneyUpstream | undefined;
afterEach(async () => {
  await world?.stop();
  await mj?.stop();
  world = mj = undefined;
});

async function submissionInFlight(graceSeconds: string, proxyHoldMs: number) {
  mj = await startMidjourneyUpstream({ secrets: ["mj-secret"] });
  world = await startRelayWorld({ SHUTDOWN_GRACE_PERIOD: graceSeconds });
  await addChannel(world, { name: "mj", type: ChannelType.Midjourney, key: "mj-secret", base_url: mj.url, models: "mj_imagine" });
  const [drawer] = await seedUsers(world.server, "stopping-drawer", 1, { quota: startingQuota });
  const token = await addToken(drawer!.session, { name: "drawer" });
  mj.holdSubmits(proxyHoldMs);
  const answer = relayCall(
    world.server.url,
    "POST",
    "/mj/submit/imagine",
    { authorization: `Bearer sk-${token.key}` },
    { prompt: "a harbour" },
  );
  const deadline = Date.now() + 10_000;
  while (mj.receivedAt("/mj/submit/imagine").length === 0 && Date.now() < deadline) await Bun.sleep(20);
  expect(mj.receivedAt("/mj/submit/imagine")).toHaveLength(1);
  world.server.signal("SIGTERM");
  return { answer, userId: drawer!.id, tokenId: token.id };
}

async function ledgerOf(userId: number) {
  const store = world!.server.store;
  const [user] = await store.query<{ quota: number; used_quota: number }>("select quota, used_quota from users where id = ?", userId);
  const logs = await store.query<{ quota: number }>("select quota from logs where type = 2 and user_id = ?", userId);
  const tasks = await store.query<{ quota: number }>("select quota from midjourneys where user_id = ?", userId);
  return {
    quota: n(user!.quota),
    used: n(user!.used_quota),
    logs: logs.map((log) => n(log.quota)),
    tasks: tasks.map((task) => n(task.quota)),
  };
}

test("a submission the proxy answers within the grace period is recorded and charged once before the process exits", async () => {
  const { answer, userId } = await submissionInFlight("10", 1500);
  const reply = await answer;
  expect(reply.status).toBe(200);
  expect(reply.json).toMatchObject({ code: 1 });
  expect(await world!.server.exited).toBe(0);
  expect(await ledgerOf(userId)).toEqual({ quota: startingQuota - imagine, used: imagine, logs: [imagine], tasks: [imagine] });
}, 60_000);

test("a submission still waiting for the proxy after the grace period gets 503 and its hold back", async () => {
  const { answer, userId } = await submissionInFlight("1", 30_000);
  const reply = await answer;
  expect(reply.status).toBe(503);
  expect(reply.json.description).toContain("服务正在停止，请稍后重试");
  expect(await world!.server.exited).toBe(0);
  expect(await ledgerOf(userId)).toEqual({ quota: startingQuota, used: 0, logs: [], tasks: [] });
}, 60_000);
