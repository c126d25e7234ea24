// Multi-key channels (issue 26): several keys in one channel, used in turn (polling) or at random;
// a key that fails as a dead key does (401 invalid_api_key) is skipped within the same request
// and disabled alone, with its reason; a rate-limited key hands over without being disabled; the
// channel is disabled only with its last key; the operator and the automatic re-test bring keys
// back; keys are managed through new-api's multi_key/manage route and never shown whole; and the
// ledger is exact throughout (failed attempts cost nothing, each served call is charged once).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkLedger, ledgerCheckEnv } from "../helpers/ledger-invariants.ts";
import { addToken, n, one, postRelay, type RelayWorld, setOptions, startRelayWorld } from "../helpers/relay-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let token: { id: number; key: string };

const chat = (model = "gpt-4o-mini") => ({ model, messages: [{ role: "user", content: "hi" }] });

async function createPool(name: string, keys: string[], mode: "random" | "polling", models = "gpt-4o-mini"): Promise<number> {
  // new-api's form: one channel holding every key.
  const created = await world.root.post("/api/channel/", {
    mode: "multi_to_single",
    multi_key_mode: mode,
    channel: { name, type: ChannelType.OpenAI, key: keys.join("\n"), base_url: world.upstream.url, models, group: "default" },
  });
  if (!created.body.success) throw new Error(JSON.stringify(created.body));
  expect(created.body.data).toHaveLength(1);
  return created.body.data[0].id;
}

async function keyStatus(channelId: number) {
  const answer = await world.root.post("/api/channel/multi_key/manage", { channel_id: channelId, action: "get_key_status" });
  if (!answer.body.success) throw new Error(JSON.stringify(answer.body));
  return answer.body.data as {
    mode: string;
    total: number;
    enabled: number;
    keys: { index: number; key: string; status: number; reason?: string }[];
  };
}

const usedKeys = (keys: string[]) => world.upstream.received.map((received) => received.key).filter((key) => keys.includes(key));

async function channelRow(id: number) {
  return one(world, "select status, other_info, used_quota, channel_info from channels where id = ?", id);
}

beforeAll(async () => {
  world = await startRelayWorld(ledgerCheckEnv);
  token = await addToken(world.root, { name: "pool-user" });
  // Each test has its own model, so its channel alone serves it; all priced like gpt-4o-mini.
  const models = ["turn", "random", "masked", "health", "rush", "busy", "last", "retest"].map((name) => `${name}-model`);
  await setOptions(world, { ModelRatio: JSON.stringify(Object.fromEntries(models.map((model) => [model, 0.075]))) });
});
afterAll(async () => {
  await world?.stop();
});

describe("choosing keys", () => {
  test("in turn: each key once per round, in order", async () => {
    const keys = ["sk-turn-a", "sk-turn-b", "sk-turn-c"];
    const id = await createPool("turns", keys, "polling", "turn-model");
    world.upstream.reset();
    for (let call = 0; call < 7; call++)
      expect((await postRelay(world, "/v1/chat/completions", token.key, chat("turn-model"))).status).toBe(200);
    const used = usedKeys(keys);
    expect(used).toHaveLength(7);
    // Whatever key starts, the order is the keys' own, round after round.
    const start = keys.indexOf(used[0]!);
    expect(used).toEqual(Array.from({ length: 7 }, (_, call) => keys[(start + call) % 3]));
    const channel = await channelRow(id);
    expect(n(channel.status)).toBe(1);
  });

  test("at random: every key serves, none always", async () => {
    const keys = ["sk-random-a", "sk-random-b", "sk-random-c"];
    await createPool("randoms", keys, "random", "random-model");
    world.upstream.reset();
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(
        Array.from({ length: 15 }, () => postRelay(world, "/v1/chat/completions", token.key, chat("random-model"))),
      );
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    }
    const used = usedKeys(keys);
    expect(used).toHaveLength(60);
    for (const key of keys) expect(used.filter((one) => one === key).length).toBeGreaterThanOrEqual(5);
  });

  test("the keys are managed masked; the mode can be switched", async () => {
    const id = await createPool("masked", ["sk-masked-secret-0001", "sk-masked-secret-0002"], "random", "masked-model");
    const status = await keyStatus(id);
    expect(status).toMatchObject({ mode: "random", total: 2, enabled: 2 });
    expect(status.keys.map((key) => key.key)).toEqual(["sk-mas…0001", "sk-mas…0002"]);
    const view = await world.root.get(`/api/channel/${id}`);
    expect(JSON.stringify(view.body)).not.toContain("sk-masked-secret");
    expect(JSON.parse(view.body.data.channel_info)).toMatchObject({ is_multi_key: true, multi_key_size: 2, multi_key_mode: "random" });
    expect((await world.root.put("/api/channel/", { id, multi_key_mode: "polling" })).body.success).toBe(true);
    expect((await keyStatus(id)).mode).toBe("polling");
    // Appending adds keys; replacing starts over.
    await world.root.put("/api/channel/", { id, key: "sk-masked-secret-0003", key_mode: "append" });
    expect((await keyStatus(id)).total).toBe(3);
    await world.root.put("/api/channel/", { id, key: "sk-new-only-0009" });
    expect((await keyStatus(id)).keys.map((key) => key.key)).toEqual(["sk-new…0009"]);
  });
});

describe("a failing key", () => {
  test("is skipped within the request and disabled alone; the client is served; the ledger is exact", async () => {
    await setOptions(world, { AutomaticDisableChannelEnabled: true });
    const keys = ["sk-health-a", "sk-health-dead", "sk-health-c"];
    const id = await createPool("health", keys, "polling", "health-model");
    world.upstream.behave("sk-health-dead", { status: 401 });
    world.upstream.reset();
    world.upstream.behave("sk-health-dead", { status: 401 });
    const before = await one(world, "select used_quota, request_count from users where id = 1");
    for (let call = 0; call < 6; call++) {
      const answer = await postRelay(world, "/v1/chat/completions", token.key, chat("health-model"));
      expect(answer.status).toBe(200);
    }
    const status = await keyStatus(id);
    expect(status.enabled).toBe(2);
    expect(status.keys[1]).toMatchObject({ index: 1, status: 3 });
    expect(status.keys[1]!.reason).toContain("status 401");
    expect([status.keys[0]!.status, status.keys[2]!.status]).toEqual([1, 1]);
    expect(n((await channelRow(id)).status)).toBe(1);
    // The dead key was asked once (then disabled); the others served all six calls.
    expect(world.upstream.receivedBy("sk-health-dead")).toHaveLength(1);
    expect(world.upstream.receivedBy("sk-health-a").length + world.upstream.receivedBy("sk-health-c").length).toBe(6);
    // Six calls served, six charges, nothing for the failed attempt.
    const after = await one(world, "select used_quota, request_count from users where id = 1");
    const logs = await one(world, "select count(*) as c, coalesce(sum(quota), 0) as q from logs where type = 2 and channel_id = ?", id);
    expect(n(after.request_count) - n(before.request_count)).toBe(6);
    expect(n(logs.c)).toBe(6);
    expect(n(after.used_quota) - n(before.used_quota)).toBe(n(logs.q));
    expect(n((await channelRow(id)).used_quota)).toBe(n(logs.q));
    await checkLedger(world.server.store, world.server.url);
  });

  test("many calls at once meet the dead key: all are served, it is disabled once", async () => {
    const keys = ["sk-rush-a", "sk-rush-dead", "sk-rush-c", "sk-rush-d"];
    const id = await createPool("rush", keys, "random", "rush-model");
    world.upstream.behave("sk-rush-dead", { status: 401 });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => postRelay(world, "/v1/chat/completions", token.key, chat("rush-model"))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    const status = await keyStatus(id);
    expect(status.keys.map((key) => key.status)).toEqual([1, 3, 1, 1]);
    await checkLedger(world.server.store, world.server.url);
  });

  test("a rate-limited key hands the call to the next one and stays enabled", async () => {
    const keys = ["sk-busy-a", "sk-busy-b"];
    const id = await createPool("busy", keys, "polling", "busy-model");
    world.upstream.behave("sk-busy-a", { status: 429 });
    for (let call = 0; call < 4; call++)
      expect((await postRelay(world, "/v1/chat/completions", token.key, chat("busy-model"))).status).toBe(200);
    expect((await keyStatus(id)).enabled).toBe(2);
  });

  test("the channel is disabled only with its last key", async () => {
    const keys = ["sk-last-a", "sk-last-b"];
    const id = await createPool("last", keys, "polling", "last-model");
    world.upstream.behave("sk-last-a", { status: 401 });
    world.upstream.behave("sk-last-b", { status: 401 });
    const answer = await postRelay(world, "/v1/chat/completions", token.key, chat("last-model"));
    expect(answer.status).toBe(401);
    const status = await keyStatus(id);
    expect(status.keys.map((key) => key.status)).toEqual([3, 3]);
    const channel = await channelRow(id);
    expect(n(channel.status)).toBe(3);
    expect(JSON.parse(channel.other_info).status_reason).toStartWith("所有密钥均已禁用");
    // Disabled: the model now has no channel.
    expect((await postRelay(world, "/v1/chat/completions", token.key, chat("last-model"))).status).toBe(503);
    await checkLedger(world.server.store, world.server.url);
  });
});

describe("bringing keys back", () => {
  test("the operator enables a key; the channel disabled for its keys comes back with it", async () => {
    const [row] = await world.server.store.query<{ id: number }>("select id from channels where name = 'last'");
    const id = Number(row!.id);
    world.upstream.reset();
    const enabled = await world.root.post("/api/channel/multi_key/manage", { channel_id: id, action: "enable_key", key_index: 0 });
    expect(enabled.body.data.keys.map((key: { status: number }) => key.status)).toEqual([1, 3]);
    expect(n((await channelRow(id)).status)).toBe(1);
    for (let call = 0; call < 3; call++)
      expect((await postRelay(world, "/v1/chat/completions", token.key, chat("last-model"))).status).toBe(200);
    expect(world.upstream.receivedBy("sk-last-b")).toHaveLength(0);
    // By hand: disabled stays disabled for the relay (status 2), and a key can be deleted.
    const disabled = await world.root.post("/api/channel/multi_key/manage", { channel_id: id, action: "disable_key", key_index: 0 });
    expect(disabled.body.data.keys.map((key: { status: number }) => key.status)).toEqual([2, 3]);
    expect(n((await channelRow(id)).status)).toBe(2);
    const refused = await world.root.post("/api/channel/multi_key/manage", { channel_id: id, action: "delete_key" });
    expect(refused.body).toMatchObject({ success: false, message: "无效的密钥序号" });
  });

  test("the automatic re-test brings a passing key back (AutomaticEnableChannelEnabled)", async () => {
    await setOptions(world, { AutomaticEnableChannelEnabled: true });
    const keys = ["sk-retest-a", "sk-retest-b"];
    const id = await createPool("retest", keys, "polling", "retest-model");
    world.upstream.behave("sk-retest-b", { status: 401 });
    for (let call = 0; call < 3; call++) await postRelay(world, "/v1/chat/completions", token.key, chat("retest-model"));
    expect((await keyStatus(id)).keys.map((key) => key.status)).toEqual([1, 3]);
    // Its upstream account is fixed: the channel's test re-tests the disabled key, which passes.
    world.upstream.reset();
    const tested = await world.root.get(`/api/channel/test/${id}`);
    expect(tested.body.success).toBe(true);
    expect((await keyStatus(id)).keys.map((key) => key.status)).toEqual([1, 1]);
    expect(world.upstream.receivedBy("sk-retest-b")).toHaveLength(1);
    // One key tested on its own.
    world.upstream.reset();
    expect((await world.root.get(`/api/channel/test/${id}?key_index=1`)).body.success).toBe(true);
    expect(world.upstream.received.map((received) => received.key)).toEqual(["sk-retest-b"]);
    world.upstream.behave("sk-retest-a", { status: 401 });
    const failed = await world.root.get(`/api/channel/test/${id}?key_index=0`);
    expect(failed.body.success).toBe(false);
    expect((await keyStatus(id)).keys.map((key) => key.status)).toEqual([3, 1]);
    await setOptions(world, { AutomaticEnableChannelEnabled: false, AutomaticDisableChannelEnabled: false });
    // (No ledger check here: a channel test writes new-api's "模型测试" entry, a consumption entry
    // of root's that no request counts.)
  });
});
