// Drawing tasks through /mj against an imitation midjourney-proxy: the charge per action, the
// channel's secret upstream (never the client's token), polling to SUCCESS, the exact refund of
// a FAILURE and of a timeout, follow-ups on the original channel, the answer codes (1 submitted
// and 22 queued are charged real tasks; 21 waiting and failures are not), the store-backed
// fetches and the /api/mj lists, and the
// drawing options (account filter, mode clear, success check, forwarded images, callbacks).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { addChannel, addToken, setOptions, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { balances, charged, chargedEverywhere, eventually, logsOf, relayCall } from "../helpers/task-helpers.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

setDefaultTimeout(60_000);

let world: RelayWorld;
let mj: MidjourneyUpstream;
let channelA: number;
let channelB: number;
let alice: SeededUser;
let bob: SeededUser;
let aliceToken: { id: number; key: string };
let bobToken: { id: number; key: string };
const sink: { bodies: any[]; server?: ReturnType<typeof Bun.serve> } = { bodies: [] };

const imagine = 50_000; // mj_imagine 0.1 $ x 500 000
const upscale = 25_000; // mj_upscale 0.05 $

beforeAll(async () => {
  mj = await startMidjourneyUpstream({ secrets: ["mj-secret-a", "mj-secret-b"] });
  world = await startRelayWorld({ TASK_POLL_INTERVAL: "1", OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" });
  channelA = await addChannel(world, {
    name: "mj-a",
    type: ChannelType.Midjourney,
    key: "mj-secret-a",
    base_url: mj.url,
    models: "mj_imagine,mj_upscale,mj_variation,mj_blend,mj_describe,mj_modal,mj_upload",
  });
  // Higher priority and able to upscale: a new upscale would go here, a follow-up must not.
  channelB = await addChannel(world, {
    name: "mj-b",
    type: ChannelType.MidjourneyPlus,
    key: "mj-secret-b",
    base_url: mj.url,
    models: "mj_upscale",
    priority: 10,
  });
  [alice, bob] = await seedUsers(world.server, "drawer", 2, { quota: 10_000_000 });
  aliceToken = await addToken(alice!.session, { name: "alice-mj", unlimited_quota: false, remain_quota: 5_000_000 });
  bobToken = await addToken(bob!.session, { name: "bob-mj", unlimited_quota: false, remain_quota: 5_000_000 });
  sink.server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      sink.bodies.push(await request.json());
      return new Response("ok");
    },
  });
});
afterAll(async () => {
  sink.server?.stop(true);
  await world?.stop();
  await mj?.stop();
});

const submit = (path: string, body: unknown, key = aliceToken.key) =>
  relayCall(world.server.url, "POST", path, { authorization: `Bearer sk-${key}` }, body);
const fetchTask = (id: string, key = aliceToken.key) =>
  relayCall(world.server.url, "GET", `/mj/task/${id}/fetch`, { authorization: `Bearer sk-${key}` });
const aliceBalances = () => balances(world.server, alice.id, aliceToken.id, channelA);
const finished = (id: string) =>
  eventually(
    () => fetchTask(id),
    (answer) => answer.json?.progress === "100%",
    `task ${id} finished`,
  );

describe("submitting and charging", () => {
  test("an imagine is charged its price once everywhere, with the channel's secret upstream", async () => {
    const before = await aliceBalances();
    const answer = await submit("/mj/submit/imagine", {
      prompt: "a lighthouse at dusk",
      notifyHook: "https://client.example/hook",
      accountFilter: { modes: ["FAST"] },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ code: 1, description: "提交成功" });
    const id = String(answer.json.result);
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(imagine));

    const sent = mj.received.find((entry) => entry.path === "/mj/submit/imagine" && entry.json.prompt === "a lighthouse at dusk")!;
    expect(sent.secret).toBe("mj-secret-a");
    expect(JSON.stringify(sent)).not.toContain(aliceToken.key);
    // Callbacks and account filters are off by default: neither reaches the upstream.
    expect(sent.json.notifyHook).toBeUndefined();
    expect(sent.json.accountFilter).toBeUndefined();

    const [log] = await logsOf(
      world.server,
      "select * from logs where type = 2 and model_name = 'mj_imagine' and user_id = ? order by id desc limit 1",
      alice.id,
    );
    expect(Number(log!.quota)).toBe(imagine);
    expect(log!.content).toBe(`模型价格 0.10，分组倍率 1.00，操作 IMAGINE，ID ${id}`);
    expect([log!.token_name, Number(log!.channel_id)]).toEqual(["alice-mj", channelA]);
    const [row] = await logsOf(world.server, "select * from midjourneys where mj_id = ?", id);
    expect([row!.action, Number(row!.code), Number(row!.quota), row!.status, Number(row!.channel_id)]).toEqual([
      "IMAGINE",
      1,
      imagine,
      "SUBMITTED",
      channelA,
    ]);
  });

  test("the poller brings a task to SUCCESS: progress, image, buttons; fetch reads it from our store", async () => {
    const answer = await submit("/mj/submit/imagine", { prompt: "a red fox" });
    const id = String(answer.json.result);
    const done = await finished(id);
    expect(done.json).toMatchObject({ id, action: "IMAGINE", status: "SUCCESS", progress: "100%", failReason: "", prompt: "a red fox" });
    expect(done.json.imageUrl).toBe(`${mj.url}/attachments/${id}.png`);
    expect(done.json.buttons).toHaveLength(8);
    expect(done.json.finishTime).toBeGreaterThan(0);
    // Fetches never went upstream: the imitation saw none.
    expect(mj.received.filter((entry) => entry.path.endsWith("/fetch"))).toEqual([]);
    const listed = await relayCall(
      world.server.url,
      "POST",
      "/mj/task/list-by-condition",
      { authorization: `Bearer sk-${aliceToken.key}` },
      { ids: [id, "nope"] },
    );
    expect(listed.json.map((task: any) => [task.id, task.status])).toEqual([[id, "SUCCESS"]]);
  });

  test("a FAILURE is refunded exactly once to user and token, with a log entry", async () => {
    const before = await aliceBalances();
    const answer = await submit("/mj/submit/imagine", { prompt: "something [fail]" });
    const id = String(answer.json.result);
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(imagine));
    const done = await finished(id);
    expect(done.json).toMatchObject({ status: "FAILURE", failReason: "[Invalid parameter] banned prompt" });
    await eventually(
      () => aliceBalances(),
      (now) => now.quota === before.quota,
      "refund",
    );
    // Several more polls happen; the refund stays single.
    await Bun.sleep(2500);
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(0));
    const refunds = await logsOf(world.server, "select * from logs where type = 4 and user_id = ? and content like ?", alice.id, `%${id}%`);
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0]!.quota)).toBe(imagine);
    expect(refunds[0]!.content).toContain(`构图失败 ${id}`);
    expect(JSON.parse(refunds[0]!.other)).toMatchObject({ refund: true, task_id: id });
    const [row] = await logsOf(world.server, "select refunded from midjourneys where mj_id = ?", id);
    expect(Boolean(row!.refunded)).toBe(true);
    // The request count keeps the request that was made.
    const counted = await logsOf(world.server, "select request_count from users where id = ?", alice.id);
    expect(Number(counted[0]!.request_count)).toBe(before.requests + 1);
  });

  test("a task unfinished past TASK_TIMEOUT fails and is refunded once", async () => {
    const before = await aliceBalances();
    const answer = await submit("/mj/submit/imagine", { prompt: "slow one [never]" });
    const id = String(answer.json.result);
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(imagine));
    // Submitted two hours ago, as far as the store knows (the default timeout is one hour).
    await world.server.store.query("update midjourneys set submit_time = submit_time - 7200000 where mj_id = ?", id);
    const done = await finished(id);
    expect(done.json).toMatchObject({ status: "FAILURE", failReason: "上游任务超时（超过 3600 秒）" });
    await eventually(
      () => aliceBalances(),
      (now) => now.quota === before.quota,
      "timeout refund",
    );
    await Bun.sleep(1500);
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(0));
    expect(await logsOf(world.server, "select id from logs where type = 4 and content like ?", `%${id}%`)).toHaveLength(1);
  });

  test("22 (queued, midjourney-proxy's '排队中') is an accepted task: charged, followed to SUCCESS, refunded never", async () => {
    mj.answerNext(22);
    const before = await aliceBalances();
    const answer = await submit("/mj/submit/imagine", { prompt: "queued one" });
    expect(answer.json).toMatchObject({ code: 22, description: "排队中，前面还有1个任务" });
    const id = String(answer.json.result);
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(imagine));
    const [row] = await logsOf(world.server, "select * from midjourneys where mj_id = ?", id);
    expect([Number(row!.code), Number(row!.quota), row!.status]).toEqual([22, imagine, "SUBMITTED"]);
    const done = await finished(id);
    expect(done.json).toMatchObject({ status: "SUCCESS", progress: "100%" });
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(imagine));
    expect(await logsOf(world.server, "select id from logs where type = 2 and content like ?", `%ID ${id}`)).toHaveLength(1);
    expect(await logsOf(world.server, "select id from logs where type = 4 and content like ?", `%${id}%`)).toHaveLength(0);
  });

  test("answer codes pass through: 21 (waiting) and failures are not charged", async () => {
    for (const [code, price] of [
      [21, 0],
      [24, 0],
    ] as const) {
      mj.answerNext(code);
      const before = await aliceBalances();
      const answer = await submit("/mj/submit/imagine", { prompt: `code ${code}` });
      expect(answer.json.code).toBe(code);
      expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(price));
      const [row] = await logsOf(world.server, "select * from midjourneys where prompt = ? order by id desc limit 1", `code ${code}`);
      expect(Number(row!.code)).toBe(code);
      expect(Number(row!.quota)).toBe(price);
      if (code === 24) expect([row!.status, row!.progress, row!.fail_reason]).toEqual(["FAILURE", "100%", "可能包含敏感词"]);
    }
  });

  test("the mode prefix is accepted and dropped; mj-api-secret authenticates like Authorization", async () => {
    const before = await aliceBalances();
    const answer = await relayCall(
      world.server.url,
      "POST",
      "/mj-fast/mj/submit/imagine",
      { "mj-api-secret": `sk-${aliceToken.key}` },
      { prompt: "prefixed" },
    );
    expect(answer.json.code).toBe(1);
    expect(mj.received.at(-1)).toMatchObject({ path: "/mj/submit/imagine", secret: "mj-secret-a" });
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(imagine));
    const refused = await relayCall(
      world.server.url,
      "POST",
      "/mj/submit/imagine",
      { authorization: "Bearer sk-not-a-token" },
      { prompt: "x" },
    );
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe(4);
  });
});

describe("follow-up actions", () => {
  let origin: string;
  beforeAll(async () => {
    origin = String((await submit("/mj/submit/imagine", { prompt: "origin task" })).json.result);
    await finished(origin);
  });

  test("an upscale goes to the channel that ran the original task and is priced as mj_upscale", async () => {
    const before = await aliceBalances();
    const answer = await submit("/mj/submit/action", { customId: `MJ::JOB::upsample::2::${origin}`, taskId: origin });
    expect(answer.json.code).toBe(1);
    const sent = mj.received.at(-1)!;
    expect([sent.path, sent.secret]).toEqual(["/mj/submit/action", "mj-secret-a"]);
    expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(upscale));
    const [row] = await logsOf(world.server, "select action, channel_id from midjourneys where mj_id = ?", String(answer.json.result));
    expect([row!.action, Number(row!.channel_id)]).toEqual(["UPSCALE", channelA]);
    const simple = await submit("/mj/submit/simple-change", { content: `${origin} U3` });
    expect(simple.json.code).toBe(1);
    expect(mj.received.at(-1)!.secret).toBe("mj-secret-a");
  });

  test("a follow-up of an unknown task is refused", async () => {
    const answer = await submit("/mj/submit/change", { action: "UPSCALE", index: 1, taskId: "unknown-task" });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: 3 });
    expect(answer.json.description).toStartWith("任务不存在");
  });

  test("another user's task cannot be acted on, and costs nothing", async () => {
    const before = await balances(world.server, bob.id, bobToken.id, channelA);
    const answer = await submit("/mj/submit/change", { action: "UPSCALE", index: 1, taskId: origin }, bobToken.key);
    expect(answer.status).toBe(404);
    expect(charged(before, await balances(world.server, bob.id, bobToken.id, channelA))).toEqual(chargedEverywhere(0));
  });

  test("with MjActionCheckSuccessEnabled a follow-up waits for the original's success", async () => {
    await setOptions(world, { MjActionCheckSuccessEnabled: true });
    try {
      const pending = String((await submit("/mj/submit/imagine", { prompt: "still drawing [never]" })).json.result);
      const before = await aliceBalances();
      const refused = await submit("/mj/submit/change", { action: "VARIATION", index: 1, taskId: pending });
      expect(refused.status).toBe(400);
      expect(refused.json.description).toStartWith("原任务尚未成功，不能进行该操作");
      expect(charged(before, await aliceBalances())).toEqual(chargedEverywhere(0));
      expect((await submit("/mj/submit/change", { action: "VARIATION", index: 1, taskId: origin })).json.code).toBe(1);
    } finally {
      await setOptions(world, { MjActionCheckSuccessEnabled: false });
    }
  });

  test("unknown buttons are refused before anything is charged", async () => {
    const answer = await submit("/mj/submit/action", { customId: "MJ::BOOKMARK::x", taskId: origin });
    expect(answer.status).toBe(400);
    expect(answer.json.description).toStartWith("不支持的操作：MJ::BOOKMARK::x");
  });
});

describe("reading tasks", () => {
  test("a user fetches only their own tasks; an admin fetches any", async () => {
    const id = String((await submit("/mj/submit/imagine", { prompt: "alice only" })).json.result);
    expect((await fetchTask(id, bobToken.key)).status).toBe(404);
    const rootToken = await addToken(world.root, { name: "root-mj" });
    expect((await fetchTask(id, rootToken.key)).json.id).toBe(id);
  });

  test("/api/mj/self lists the user's tasks; /api/mj/ lists all with the channel filter, admins only", async () => {
    await submit("/mj/submit/imagine", { prompt: "bob draws" }, bobToken.key);
    const own = await bob.session.get("/api/mj/self/?p=0");
    expect(own.body.success).toBe(true);
    expect(own.body.data.map((row: any) => row.prompt)).toEqual(["bob draws"]);
    expect(own.body.data[0].channel_id).toBe(0);
    expect(own.body.data[0]).not.toHaveProperty("request_id");
    const denied = await bob.session.get("/api/mj/");
    expect(denied.body.success).toBe(false);
    const all = await world.root.get(`/api/mj/?p=0&channel_id=${channelA}`);
    expect(all.body.data).toHaveLength(10);
    expect(new Set(all.body.data.map((row: any) => row.user_id))).toEqual(new Set([alice.id, bob.id]));
    expect((await world.root.get(`/api/mj/?channel_id=${channelB}`)).body.data).toEqual([]);
    const page2 = await world.root.get("/api/mj/?p=1");
    expect(page2.body.data.length).toBeGreaterThan(0);
    expect(page2.body.data[0].id).toBeLessThan(all.body.data[9].id);
    const byId = await alice.session.get(`/api/mj/self/?mj_id=${all.body.data.find((row: any) => row.user_id === alice.id).mj_id}`);
    expect(byId.body.data).toHaveLength(1);
    const future = Date.now() + 86_400_000;
    expect((await alice.session.get(`/api/mj/self/?start_timestamp=${Math.floor(future / 1000)}`)).body.data).toEqual([]);
  });

  test("image seeds are asked from the task's own channel", async () => {
    const id = String((await submit("/mj/submit/imagine", { prompt: "seeded" })).json.result);
    const seed = await relayCall(world.server.url, "GET", `/mj/task/${id}/image-seed`, { authorization: `Bearer sk-${aliceToken.key}` });
    expect(seed.json).toEqual({ code: 1, description: "成功", result: `seed-${id}` });
    expect(mj.received.at(-1)).toMatchObject({ path: `/mj/task/${id}/image-seed`, secret: "mj-secret-a" });
  });
});

describe("drawing options", () => {
  test("account filters pass only when allowed; mode clear strips the speed flags", async () => {
    await setOptions(world, { MjAccountFilterEnabled: true, MjModeClearEnabled: true });
    try {
      await submit("/mj/submit/imagine", { prompt: "a boat --fast --ar 16:9 --relax", accountFilter: { modes: ["RELAX"] } });
      const sent = mj.received.at(-1)!;
      expect(sent.json.prompt).toBe("a boat --ar 16:9");
      expect(sent.json.accountFilter).toEqual({ modes: ["RELAX"] });
    } finally {
      await setOptions(world, { MjAccountFilterEnabled: false, MjModeClearEnabled: false });
    }
  });

  test("forwarded image URLs point at us, and /mj/image serves the picture", async () => {
    await setOptions(world, { MjForwardUrlEnabled: true, ServerAddress: world.server.url });
    try {
      const id = String((await submit("/mj/submit/imagine", { prompt: "forwarded" })).json.result);
      const done = await finished(id);
      expect(done.json.imageUrl).toBe(`${world.server.url}/mj/image/${id}`);
      const image = await fetch(done.json.imageUrl);
      expect([image.status, image.headers.get("content-type")]).toEqual([200, "image/png"]);
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(50);
      expect((await fetch(`${world.server.url}/mj/image/no-such-task`)).status).toBe(404);
    } finally {
      await setOptions(world, { MjForwardUrlEnabled: false });
    }
  });

  test("callbacks: the upstream calls our signed notify URL, the client's hook gets the task; forged notices change nothing", async () => {
    await setOptions(world, { MjNotifyEnabled: true, ServerAddress: world.server.url, TaskEnabled: true });
    try {
      const hook = `${sink.server!.url.origin}/my-hook`;
      const answer = await submit("/mj/submit/imagine", { prompt: "call me back", notifyHook: hook });
      const id = String(answer.json.result);
      const sent = mj.received.at(-1)!;
      expect(sent.json.notifyHook).toStartWith(`${world.server.url}/mj/notify?channel_id=${channelA}&signature=`);
      expect(sent.json.notifyHook).not.toContain("my-hook");
      await eventually(
        async () => sink.bodies.filter((body) => body.id === id && body.status === "SUCCESS"),
        (list) => list.length > 0,
        "client callback",
      );
      const forged = await relayCall(
        world.server.url,
        "POST",
        `/mj/notify?channel_id=${channelA}&signature=0000`,
        {},
        { id, status: "FAILURE", progress: "100%", failReason: "forged" },
      );
      expect(forged.status).toBe(403);
      const other = String((await submit("/mj/submit/imagine", { prompt: "not yours [never]" })).json.result);
      const wrongChannel = `${sent.json.notifyHook.replace(`channel_id=${channelA}`, `channel_id=${channelB}`)}`;
      expect((await relayCall(wrongChannel, "POST", "", {}, { id: other, status: "FAILURE", progress: "100%" })).status).toBe(403);
      expect((await fetchTask(other)).json.status).toBe("SUBMITTED");
      // The genuine address may end it, though: the upstream said so.
      const genuine = await relayCall(
        sent.json.notifyHook,
        "POST",
        "",
        {},
        { id: other, status: "FAILURE", progress: "100%", failReason: "account banned" },
      );
      expect(genuine.json.applied).toBe(1);
      expect((await fetchTask(other)).json).toMatchObject({ status: "FAILURE", failReason: "account banned" });
    } finally {
      await setOptions(world, { MjNotifyEnabled: false });
    }
  });
});

describe("the channel test button", () => {
  test("asks the proxy for no task with the channel's secret: passes, and a wrong secret fails with the upstream's reason", async () => {
    const before = mj.received.length;
    const passed = await world.root.get(`/api/channel/test/${channelB}`);
    expect(passed.body.success).toBe(true);
    expect(passed.body.message).toStartWith("通道 mj-b 测试成功");
    expect(typeof passed.body.time).toBe("number");
    // The background poller may ask about tasks meanwhile: the test's request is among the new ones.
    expect(mj.received.slice(before)).toContainEqual(
      expect.objectContaining({ method: "POST", path: "/mj/task/list-by-condition", secret: "mj-secret-b", json: { ids: [] } }),
    );
    const [row] = await world.server.store.query("select test_time from channels where id = ?", channelB);
    expect(Number(row!.test_time)).toBeGreaterThan(0);

    const wrong = await addChannel(world, {
      name: "mj-wrong",
      type: ChannelType.Midjourney,
      key: "mj-secret-wrong",
      base_url: mj.url,
      models: "mj_shorten",
    });
    const failed = await world.root.get(`/api/channel/test/${wrong}`);
    expect(failed.body).toMatchObject({ success: false, message: "status 401: 无效的 mj-api-secret" });
    // Only the test asks with the wrong secret (no task was taken with it).
    expect(mj.received.filter((entry) => entry.secret === "mj-secret-wrong").map((entry) => entry.path)).toEqual([
      "/mj/task/list-by-condition",
    ]);
    // Nothing was submitted, nothing charged: no log of a test call.
    expect(await logsOf(world.server, "select id from logs where channel_id = ?", wrong)).toEqual([]);
  });
});
