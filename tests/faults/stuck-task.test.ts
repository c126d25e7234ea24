// A task an upstream reports as not finished with progress "100%", for good (issue 23, item 6): a
// drawing on midjourney-proxy and a song on a Suno proxy. The poller keeps asking about them (it
// picks unfinished tasks by status, not by progress), and at TASK_TIMEOUT each ends as FAILURE
// and is refunded exactly once to user and token, the ledger exact. Before, a task at 100% was
// never picked again: never finished, never refunded.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { startSunoUpstream, type SunoUpstream } from "../fixtures/suno-upstream.ts";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { addChannel, addToken } from "../helpers/relay-world.ts";
import { balances, charged, chargedEverywhere, eventually, relayCall } from "../helpers/task-helpers.ts";
import { reportFigures, startFaultWorld, type FaultWorld } from "../helpers/fault-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

setDefaultTimeout(90_000);

const timeoutSeconds = 60;
let world: FaultWorld;
let mj: MidjourneyUpstream;
let suno: SunoUpstream;
let mjChannel: number;
let sunoChannel: number;
let user: SeededUser;
let token: { id: number; key: string };

beforeAll(async () => {
  mj = await startMidjourneyUpstream({ secrets: ["stuck-mj"], finishAfterMs: 200 });
  suno = await startSunoUpstream({ keys: ["stuck-suno"], finishAfterMs: 200 });
  world = await startFaultWorld({ TASK_POLL_INTERVAL: "1", TASK_TIMEOUT: String(timeoutSeconds) });
  mjChannel = await addChannel(world, {
    name: "stuck-mj",
    type: ChannelType.Midjourney,
    key: "stuck-mj",
    base_url: mj.url,
    models: "mj_imagine",
  });
  sunoChannel = await addChannel(world, {
    name: "stuck-suno",
    type: ChannelType.Suno,
    key: "stuck-suno",
    base_url: suno.url,
    models: "suno_music",
  });
  [user] = await seedUsers(world.server, "stuck", 1, { quota: 10_000_000 });
  token = await addToken(user!.session, { name: "stuck-key", unlimited_quota: false, remain_quota: 5_000_000 });
});
afterAll(async () => {
  await world?.stop();
  await mj?.stop();
  await suno?.stop();
});

const call = (method: string, path: string, body?: unknown) =>
  relayCall(world.server.url, method, path, { authorization: `Bearer sk-${token.key}` }, body);

/** Times the poller asked the upstream about this task. */
const askedAbout = (id: string) =>
  mj.receivedAt("/mj/task/list-by-condition").filter((entry) => entry.json?.ids?.includes(id)).length +
  suno.receivedAt("/suno/fetch").filter((entry) => entry.json?.ids?.includes(id)).length;

test("a drawing and a song stuck at 100% are followed by status and refunded once at TASK_TIMEOUT", async () => {
  const drawingBefore = await balances(world.server, user.id, token.id, mjChannel);
  const songBefore = await balances(world.server, user.id, token.id, sunoChannel);
  const drawing = await call("POST", "/mj/submit/imagine", { prompt: "a lighthouse [stuck]" });
  expect(drawing.json.code).toBe(1);
  const drawingId = String(drawing.json.result);
  const song = await call("POST", "/suno/submit/music", { gpt_description_prompt: "a song that never ends [stuck]" });
  expect(song.json.code).toBe("success");
  const songId = String(song.json.data);
  // mj_imagine and suno_music both cost $0.1: user and token paid both, each channel its own.
  const price = 50_000;
  expect(charged(drawingBefore, await balances(world.server, user.id, token.id, mjChannel))).toMatchObject({
    user: 2 * price,
    channel: price,
  });

  // The upstreams say 100% without an end; the store shows it, still unfinished.
  const stuckDrawing = await eventually(
    () => call("GET", `/mj/task/${drawingId}/fetch`),
    (answer) => answer.json?.progress === "100%",
    "the drawing at 100%",
  );
  expect(stuckDrawing.json.status).toBe("IN_PROGRESS");
  const stuckSong = await eventually(
    () => call("GET", `/suno/fetch/${songId}`),
    (answer) => answer.json?.data?.progress === "100%",
    "the song at 100%",
  );
  expect(stuckSong.json.data.status).toBe("IN_PROGRESS");
  // Picked by status: the poller goes on asking about them at 100%.
  const asked = { drawing: askedAbout(drawingId), song: askedAbout(songId) };
  await eventually(
    async () => ({ drawing: askedAbout(drawingId), song: askedAbout(songId) }),
    (now) => now.drawing >= asked.drawing + 2 && now.song >= asked.song + 2,
    "two more polls of each stuck task",
  );
  expect((await call("GET", `/mj/task/${drawingId}/fetch`)).json.status).toBe("IN_PROGRESS");

  // Submitted longer ago than TASK_TIMEOUT, as far as the store knows: both end and are refunded.
  await world.server.store.query(
    "update midjourneys set submit_time = submit_time - ? where mj_id = ?",
    (timeoutSeconds + 5) * 1000,
    drawingId,
  );
  await world.server.store.query("update tasks set submit_time = submit_time - ? where task_id = ?", timeoutSeconds + 5, songId);
  const failed = await eventually(
    () => call("GET", `/mj/task/${drawingId}/fetch`),
    (answer) => answer.json?.status === "FAILURE",
    "the stuck drawing timed out",
  );
  expect(failed.json.failReason).toBe(`上游任务超时（超过 ${timeoutSeconds} 秒）`);
  await eventually(
    () => call("GET", `/suno/fetch/${songId}`),
    (answer) => answer.json?.data?.status === "FAILURE",
    "the stuck song timed out",
  );
  await eventually(
    () => balances(world.server, user.id, token.id, sunoChannel),
    (now) => now.quota === songBefore.quota && now.tokenRemain === songBefore.tokenRemain,
    "both refunds",
  );
  // More polls pass: each refunded exactly once, to user, token and channel.
  await Bun.sleep(2500);
  expect(charged(drawingBefore, await balances(world.server, user.id, token.id, mjChannel))).toEqual(chargedEverywhere(0));
  expect(charged(songBefore, await balances(world.server, user.id, token.id, sunoChannel))).toMatchObject({
    user: 0,
    token: 0,
    channel: 0,
  });
  const refunds = await world.server.store.query<{ quota: number }>(
    "select quota from logs where type = 4 and (content like ? or content like ?)",
    `%${drawingId}%`,
    `%${songId}%`,
  );
  expect(refunds.map((row) => Number(row.quota))).toEqual([price, price]);
  const figures = await world.check({ granted: [{ tokenId: token.id, granted: 5_000_000 }] });
  reportFigures("stuck-task", { timeoutSeconds, polledAt100: asked, refunds: refunds.length, ...figures });
});
