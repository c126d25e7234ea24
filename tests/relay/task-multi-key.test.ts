// Multi-key drawing and music channels (issue 26): a Midjourney or Suno channel holding several
// keys takes them in turn or at random like a chat channel; a key the upstream refuses (401) is
// skipped within the same submission and disabled alone, with its reason; a task is followed
// (polled, upscaled, continued) with the key that took it; the channel test checks one key at a
// time; and the ledger is exact: one charge per task taken, nothing for a refused attempt.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { startSunoUpstream, type SunoUpstream } from "../fixtures/suno-upstream.ts";
import { checkLedger, ledgerCheckEnv } from "../helpers/ledger-invariants.ts";
import { addToken, n, one, setOptions, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { balances, charged, chargedEverywhere, eventually, logsOf, relayCall } from "../helpers/task-helpers.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

setDefaultTimeout(60_000);

let world: RelayWorld;
let mj: MidjourneyUpstream;
let suno: SunoUpstream;
let painter: SeededUser;
let token: { id: number; key: string };

const imagine = 50_000; // mj_imagine 0.1 $
const upscale = 25_000; // mj_upscale 0.05 $
const song = 50_000; // suno_music 0.1 $

beforeAll(async () => {
  // The imitations accept only the good keys: the others answer 401, as a revoked key does.
  mj = await startMidjourneyUpstream({ secrets: ["mj-good-a", "mj-good-c"] });
  suno = await startSunoUpstream({ keys: ["suno-good-a", "suno-good-c"] });
  world = await startRelayWorld({ ...ledgerCheckEnv, TASK_POLL_INTERVAL: "1" });
  await setOptions(world, { AutomaticDisableChannelEnabled: true });
  [painter] = await seedUsers(world.server, "keyed", 1, { quota: 10_000_000 });
  token = await addToken(painter!.session, { name: "keyed-tasks", unlimited_quota: false, remain_quota: 5_000_000 });
});
afterAll(async () => {
  await world?.stop();
  await mj?.stop();
  await suno?.stop();
});

async function createPool(name: string, type: number, keys: string[], mode: "random" | "polling", base: string, models: string) {
  const created = await world.root.post("/api/channel/", {
    mode: "multi_to_single",
    multi_key_mode: mode,
    channel: { name, type, key: keys.join("\n"), base_url: base, models, group: "default" },
  });
  if (!created.body.success) throw new Error(JSON.stringify(created.body));
  return Number(created.body.data[0].id);
}

async function keyStates(channelId: number) {
  const answer = await world.root.post("/api/channel/multi_key/manage", { channel_id: channelId, action: "get_key_status" });
  if (!answer.body.success) throw new Error(JSON.stringify(answer.body));
  return answer.body.data.keys as { index: number; status: number; reason?: string }[];
}

const post = (path: string, body: unknown) => relayCall(world.server.url, "POST", path, { authorization: `Bearer sk-${token.key}` }, body);
const get = (path: string) => relayCall(world.server.url, "GET", path, { authorization: `Bearer sk-${token.key}` });

async function exactLedger(channelId: number, model: string, calls: number, price: number) {
  const logs = await one(
    world,
    "select count(*) as c, coalesce(sum(quota), 0) as q from logs where type = 2 and channel_id = ? and model_name = ?",
    channelId,
    model,
  );
  expect([n(logs.c), n(logs.q)]).toEqual([calls, calls * price]);
  await checkLedger(world.server.store, world.server.url);
}

describe("a Midjourney channel with several keys", () => {
  const keys = ["mj-good-a", "mj-dead-b", "mj-good-c"];
  let channelId: number;

  test("a refused key is skipped within the submission and disabled alone; every task is charged once", async () => {
    channelId = await createPool("mj-keys", ChannelType.Midjourney, keys, "polling", mj.url, "mj_imagine,mj_upscale");
    const before = await balances(world.server, painter.id, token.id, channelId);
    const ids: string[] = [];
    for (let call = 0; call < 6; call++) {
      const answer = await post("/mj/submit/imagine", { prompt: `keyed lighthouse ${call}` });
      expect([answer.status, answer.json.code]).toEqual([200, 1]);
      ids.push(String(answer.json.result));
    }
    const states = await keyStates(channelId);
    expect(states.map((key) => key.status)).toEqual([1, 3, 1]);
    expect(states[1]!.reason).toContain("status 401");
    expect(n((await one(world, "select status from channels where id = ?", channelId)).status)).toBe(1);
    const submitted = mj.receivedAt("/mj/submit/imagine").map((received) => received.secret);
    // The dead key was asked once; the good ones took all six, in turn.
    expect(submitted.filter((secret) => secret === "mj-dead-b")).toHaveLength(1);
    expect(submitted.filter((secret) => secret !== "mj-dead-b")).toHaveLength(6);
    expect(charged(before, await balances(world.server, painter.id, token.id, channelId))).toEqual(chargedEverywhere(6 * imagine));
    const rows = await logsOf(world.server, "select mj_id, key_index from midjourneys where channel_id = ? order by id", channelId);
    expect(rows.map((row) => row.mj_id)).toEqual(ids);
    // Each task remembers its key: the one its submission went out with.
    for (const row of rows) expect(mj.tasks.has(row.mj_id)).toBe(true);
    expect(new Set(rows.map((row) => n(row.key_index)))).toEqual(new Set([0, 2]));
    await exactLedger(channelId, "mj_imagine", 6, imagine);
  });

  test("tasks are polled, and followed up, with the key that took them", async () => {
    const rows = await logsOf(world.server, "select mj_id, key_index from midjourneys where channel_id = ? order by id", channelId);
    for (const row of rows)
      await eventually(
        () => get(`/mj/task/${row.mj_id}/fetch`),
        (answer) => answer.json?.progress === "100%",
        `task ${row.mj_id} finished`,
      );
    const polls = mj.receivedAt("/mj/task/list-by-condition");
    for (const row of rows) {
      const askedWith = new Set(polls.filter((poll) => poll.json?.ids?.includes(row.mj_id)).map((poll) => poll.secret));
      expect([...askedWith]).toEqual([keys[n(row.key_index)]!]);
    }
    const onThird = rows.find((row) => n(row.key_index) === 2)!;
    const before = await balances(world.server, painter.id, token.id, channelId);
    const answer = await post("/mj/submit/action", { customId: `MJ::JOB::upsample::1::${onThird.mj_id}`, taskId: onThird.mj_id });
    expect(answer.json.code).toBe(1);
    expect(mj.receivedAt("/mj/submit/action").at(-1)!.secret).toBe("mj-good-c");
    expect(charged(before, await balances(world.server, painter.id, token.id, channelId))).toEqual(chargedEverywhere(upscale));
    const [follow] = await logsOf(world.server, "select key_index from midjourneys where mj_id = ?", String(answer.json.result));
    expect(n(follow!.key_index)).toBe(2);
  });

  test("the channel test checks one key at a time; the disabled key fails it, a good one passes", async () => {
    const dead = await world.root.get(`/api/channel/test/${channelId}?key_index=1`);
    expect(dead.body.success).toBe(false);
    expect(dead.body.message).toContain("status 401");
    const good = await world.root.get(`/api/channel/test/${channelId}?key_index=2`);
    expect(good.body.success).toBe(true);
    expect(mj.receivedAt("/mj/task/list-by-condition").at(-1)!.secret).toBe("mj-good-c");
    expect((await keyStates(channelId)).map((key) => key.status)).toEqual([1, 3, 1]);
  });

  test("the channel is disabled only with its last key; nothing is charged for refused submissions", async () => {
    const id = await createPool("mj-all-dead", ChannelType.Midjourney, ["mj-dead-x", "mj-dead-y"], "random", mj.url, "mj_blend");
    const before = await balances(world.server, painter.id, token.id, id);
    const answer = await post("/mj/submit/blend", { base64Array: ["data:image/png;base64,AAAA", "data:image/png;base64,BBBB"] });
    expect(answer.status).toBe(502);
    expect((await keyStates(id)).map((key) => key.status)).toEqual([3, 3]);
    expect(n((await one(world, "select status from channels where id = ?", id)).status)).toBe(3);
    expect(charged(before, await balances(world.server, painter.id, token.id, id))).toEqual(chargedEverywhere(0));
    await checkLedger(world.server.store, world.server.url);
  });
});

describe("a Suno channel with several keys", () => {
  test("a refused key is skipped and disabled alone; a continuation keeps the task's key; the ledger is exact", async () => {
    const keys = ["suno-dead-b", "suno-good-a", "suno-good-c"];
    const id = await createPool("suno-keys", ChannelType.Suno, keys, "polling", suno.url, "suno_music");
    const before = await balances(world.server, painter.id, token.id, id);
    const taskIds: string[] = [];
    for (let call = 0; call < 8; call++) {
      const answer = await post("/suno/submit/music", { gpt_description_prompt: `keyed song ${call}`, make_instrumental: true });
      expect([answer.status, answer.json.code]).toEqual([200, "success"]);
      taskIds.push(answer.json.data);
    }
    const states = await keyStates(id);
    expect(states[0]).toMatchObject({ status: 3 });
    expect(states[0]!.reason).toContain("status 401");
    expect([states[1]!.status, states[2]!.status]).toEqual([1, 1]);
    expect(suno.receivedAt("/suno/submit/music").filter((received) => received.key === "suno-dead-b")).toHaveLength(1);
    expect(charged(before, await balances(world.server, painter.id, token.id, id))).toEqual(chargedEverywhere(8 * song));
    const rows = await logsOf(world.server, "select task_id, key_index from tasks where channel_id = ? order by id", id);
    expect(rows.map((row) => row.task_id)).toEqual(taskIds);
    expect(rows.every((row) => [1, 2].includes(n(row.key_index)))).toBe(true);
    // A continuation goes with the key of the task it continues.
    const origin = rows[0]!;
    await eventually(
      () => get(`/suno/fetch/${origin.task_id}`),
      (answer) => answer.json?.data?.progress === "100%",
      `task ${origin.task_id} finished`,
    );
    const more = await post("/suno/submit/music", { prompt: "more", task_id: origin.task_id, continue_clip_id: "clip-1", continue_at: 30 });
    expect(more.json.code).toBe("success");
    expect(suno.receivedAt("/suno/submit/music").at(-1)!.key).toBe(keys[n(origin.key_index)]);
    await exactLedger(id, "suno_music", 9, song);
  });
});
