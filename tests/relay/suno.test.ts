// Music tasks through /suno against an imitation Suno API proxy: the charge of suno_music and
// suno_lyrics, the channel's key upstream as Bearer, polling to SUCCESS with the clips, the exact
// refund of a FAILURE and of a timeout, a refused submission costing nothing, continuations on
// the original channel, and the store-backed fetches and /api/task lists.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { startSunoUpstream, type SunoUpstream } from "../fixtures/suno-upstream.ts";
import { addChannel, addToken, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { balances, charged, chargedEverywhere, eventually, logsOf, relayCall } from "../helpers/task-helpers.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

setDefaultTimeout(60_000);

let world: RelayWorld;
let suno: SunoUpstream;
let channelA: number;
let singer: SeededUser;
let other: SeededUser;
let token: { id: number; key: string };
let otherToken: { id: number; key: string };

const music = 50_000; // suno_music 0.1 $
const lyrics = 5_000; // suno_lyrics 0.01 $

beforeAll(async () => {
  suno = await startSunoUpstream({ keys: ["suno-key-a", "suno-key-b"] });
  world = await startRelayWorld({ TASK_POLL_INTERVAL: "1" });
  channelA = await addChannel(world, {
    name: "suno-a",
    type: ChannelType.Suno,
    key: "suno-key-a",
    base_url: suno.url,
    models: "suno_music,suno_lyrics",
  });
  [singer, other] = await seedUsers(world.server, "singer", 2, { quota: 10_000_000 });
  token = await addToken(singer!.session, { name: "singer-key", unlimited_quota: false, remain_quota: 5_000_000 });
  otherToken = await addToken(other!.session, { name: "other-key" });
});
afterAll(async () => {
  await world?.stop();
  await suno?.stop();
});

const call = (method: string, path: string, body?: unknown, key = token.key) =>
  relayCall(world.server.url, method, path, { authorization: `Bearer sk-${key}` }, body);
const mine = () => balances(world.server, singer.id, token.id, channelA);
const finished = (id: string) =>
  eventually(
    () => call("GET", `/suno/fetch/${id}`),
    (answer) => answer.json?.data?.progress === "100%",
    `task ${id} finished`,
  );

describe("music and lyrics", () => {
  test("a song is charged suno_music once, sent with the channel's key, and polled to SUCCESS with its clips", async () => {
    const before = await mine();
    const answer = await call("POST", "/suno/submit/music", { gpt_description_prompt: "a song about tests", make_instrumental: false });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ code: "success", message: "" });
    const id = answer.json.data as string;
    expect(charged(before, await mine())).toEqual(chargedEverywhere(music));
    const sent = suno.receivedAt("/suno/submit/music").at(-1)!;
    expect(sent.key).toBe("suno-key-a");
    expect(sent.json).toEqual({ gpt_description_prompt: "a song about tests", make_instrumental: false, mv: "chirp-v3-0" });

    const done = await finished(id);
    expect(done.json.data).toMatchObject({ task_id: id, action: "MUSIC", status: "SUCCESS", progress: "100%", fail_reason: "" });
    expect(done.json.data.data.map((clip: any) => clip.audio_url)).toEqual([1, 2].map((n) => `${suno.url}/audio/${id}-clip${n}.wav`));
    const [log] = await logsOf(world.server, "select * from logs where type = 2 and model_name = 'suno_music' and user_id = ?", singer.id);
    expect([Number(log!.quota), log!.content]).toEqual([music, `模型价格 0.10，分组倍率 1.00，操作 MUSIC，ID ${id}`]);
    const [row] = await logsOf(world.server, "select * from tasks where task_id = ?", id);
    expect([row!.platform, row!.action, Number(row!.quota), Number(row!.channel_id)]).toEqual(["suno", "MUSIC", music, channelA]);
  });

  test("lyrics cost suno_lyrics and need a prompt", async () => {
    const before = await mine();
    const refused = await call("POST", "/suno/submit/lyrics", {});
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: "prompt_missing", data: null });
    expect(charged(before, await mine())).toEqual(chargedEverywhere(0));
    const answer = await call("POST", "/suno/submit/lyrics", { prompt: "a short verse" });
    expect(charged(before, await mine())).toEqual(chargedEverywhere(lyrics));
    const done = await finished(answer.json.data);
    expect(done.json.data.data).toMatchObject({ text: "[Verse]\nLa la la", title: "Song of tests" });
  });

  test("unknown actions and rejected submissions cost nothing; the upstream's reason passes on", async () => {
    const before = await mine();
    expect((await call("POST", "/suno/submit/video", { prompt: "x" })).json).toMatchObject({ code: "invalid_action", data: null });
    const rejected = await call("POST", "/suno/submit/music", { prompt: "[reject] this", mv: "chirp-v3-5" });
    expect(rejected.status).toBe(400);
    expect(rejected.json).toEqual({ code: "error", message: "Invalid prompt: rejected by upstream", data: null });
    expect(charged(before, await mine())).toEqual(chargedEverywhere(0));
  });

  test("a FAILURE is refunded exactly once to user and token, with a log entry", async () => {
    const before = await mine();
    const id = (await call("POST", "/suno/submit/music", { prompt: "doomed [fail]", tags: "rock", title: "No" })).json.data as string;
    expect(charged(before, await mine())).toEqual(chargedEverywhere(music));
    const done = await finished(id);
    expect(done.json.data).toMatchObject({ status: "FAILURE", fail_reason: "Unable to generate: content policy" });
    await eventually(
      () => mine(),
      (now) => now.quota === before.quota,
      "refund",
    );
    await Bun.sleep(2500);
    expect(charged(before, await mine())).toEqual(chargedEverywhere(0));
    const refunds = await logsOf(world.server, "select * from logs where type = 4 and content like ?", `%${id}%`);
    expect(refunds.map((log) => [Number(log.quota), log.token_name])).toEqual([[music, "singer-key"]]);
    expect(refunds[0]!.content).toStartWith(`异步任务执行失败 ${id}`);
  });

  test("a task unfinished past TASK_TIMEOUT fails and is refunded once", async () => {
    const before = await mine();
    const id = (await call("POST", "/suno/submit/music", { gpt_description_prompt: "endless [never]" })).json.data as string;
    await world.server.store.query("update tasks set submit_time = submit_time - 7200 where task_id = ?", id);
    const done = await finished(id);
    expect(done.json.data).toMatchObject({ status: "FAILURE", fail_reason: "上游任务超时（超过 3600 秒）" });
    await eventually(
      () => mine(),
      (now) => now.quota === before.quota,
      "timeout refund",
    );
    expect(await logsOf(world.server, "select id from logs where type = 4 and content like ?", `%${id}%`)).toHaveLength(1);
  });

  test("a continuation goes to the channel of the task it continues, which must be the caller's", async () => {
    const origin = (await call("POST", "/suno/submit/music", { gpt_description_prompt: "part one" })).json.data as string;
    // A second channel with a higher priority would take new songs, not this continuation.
    const channelB = await addChannel(world, {
      name: "suno-b",
      type: ChannelType.Suno,
      key: "suno-key-b",
      base_url: suno.url,
      models: "suno_music",
      priority: 5,
    });
    await eventually(
      () => call("POST", "/suno/submit/music", { gpt_description_prompt: "fresh" }),
      () => suno.receivedAt("/suno/submit/music").at(-1)!.key === "suno-key-b",
      "channel b in use",
    );
    const continued = await call("POST", "/suno/submit/music", {
      prompt: "part two",
      continue_clip_id: `${origin}-clip1`,
      continue_at: 10,
      task_id: origin,
    });
    expect(continued.json.code).toBe("success");
    expect(suno.receivedAt("/suno/submit/music").at(-1)!.key).toBe("suno-key-a");
    const stolen = await call("POST", "/suno/submit/music", { prompt: "mine now", continue_clip_id: "x", task_id: origin }, otherToken.key);
    expect(stolen.status).toBe(404);
    await world.root.put("/api/channel/", { id: channelB, status: 2 });
  });
});

describe("reading tasks", () => {
  test("fetches read our store and only the caller's own tasks", async () => {
    const id = (await call("POST", "/suno/submit/music", { gpt_description_prompt: "private" })).json.data as string;
    expect((await call("GET", `/suno/fetch/${id}`, undefined, otherToken.key)).status).toBe(404);
    const batch = await call("POST", "/suno/fetch", { ids: [id, "unknown"] });
    expect(batch.json.data.map((task: any) => task.task_id)).toEqual([id]);
    expect(suno.receivedAt("/suno/fetch").every((entry) => entry.key === "suno-key-a" || entry.key === "suno-key-b")).toBe(true);
  });

  test("/api/task/self lists the user's tasks; /api/task/ lists all, admins only, with filters", async () => {
    await call("POST", "/suno/submit/lyrics", { prompt: "other's verse" }, otherToken.key);
    const own = await other.session.get("/api/task/self?p=0");
    expect(own.body.data.map((row: any) => [row.platform, row.action, row.channel_id])).toEqual([["suno", "LYRICS", 0]]);
    expect((await other.session.get("/api/task/")).body.success).toBe(false);
    const all = await world.root.get(`/api/task/?channel_id=${channelA}`);
    expect(all.body.data.length).toBeGreaterThan(5);
    expect(all.body.data.every((row: any) => row.channel_id === channelA)).toBe(true);
    const one = all.body.data[0];
    expect((await world.root.get(`/api/task/?task_id=${one.task_id}`)).body.data.map((row: any) => row.id)).toEqual([one.id]);
    const startOfTomorrow = Math.floor(Date.now() / 1000) + 86_400;
    expect((await world.root.get(`/api/task/?start_timestamp=${startOfTomorrow}`)).body.data).toEqual([]);
  });
});

describe("the channel test button", () => {
  test("fetches no task with the channel's key: passes, and a wrong key fails with the upstream's reason", async () => {
    const passed = await world.root.get(`/api/channel/test/${channelA}`);
    expect(passed.body.success).toBe(true);
    expect(passed.body.message).toStartWith("通道 suno-a 测试成功");
    expect(suno.received.at(-1)).toMatchObject({ path: "/suno/fetch", key: "suno-key-a", json: { ids: [], action: "" } });

    const wrong = await addChannel(world, {
      name: "suno-wrong",
      type: ChannelType.Suno,
      key: "suno-key-wrong",
      base_url: suno.url,
      models: "suno_probe_only",
    });
    const failed = await world.root.get(`/api/channel/test/${wrong}`);
    expect(failed.body).toMatchObject({ success: false, message: "status 401: invalid key" });
    expect(suno.received.at(-1)).toMatchObject({ path: "/suno/fetch", key: "suno-key-wrong" });
  });
});
