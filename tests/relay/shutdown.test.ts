// Stopping without losing money (issue 10): SIGTERM arrives while 50 streams from five users are
// being relayed from a slow upstream. The server stops accepting connections, lets the streams
// finish (or, past SHUTDOWN_GRACE_PERIOD, cuts them with an error event and bills what was
// delivered), exits 0, and leaves a ledger that adds up: every user's, token's and channel's used
// quota equals the sum of its consumption logs, balances moved by exactly that, one log per
// stream, and no hold left.
import { afterEach, describe, expect, test } from "bun:test";
import { newUserSession } from "../helpers/api-session.ts";
import { addChannel, addToken, n, postRelay, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";

const users = 5;
const streamsPerUser = 10;
const startingQuota = 50_000_000;

let world: RelayWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

type StreamResult = { events: string[]; text: string };

/** Opens a stream and resolves `firstChunk` once its first content arrived; `done` at its end. */
function openStream(url: string, key: string) {
  let firstChunk!: () => void;
  const started = new Promise<void>((resolve) => (firstChunk = resolve));
  const done = (async (): Promise<StreamResult> => {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer sk-${key}` },
      body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Count slowly." }] }),
    });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes('"content"')) firstChunk();
    }
    firstChunk();
    const events = text
      .split("\n\n")
      .filter((event) => event.startsWith("data: "))
      .map((event) => event.slice(6));
    return { events, text };
  })();
  return { started, done };
}

async function arrangeUsersAndStreams(upstreamBehaviour: { chunks: number; chunkDelayMs: number }, graceSeconds: string) {
  world = await startRelayWorld({ SHUTDOWN_GRACE_PERIOD: graceSeconds, STREAMING_TIMEOUT: "60" });
  const channelId = await addChannel(world, { key: "sk-slow-upstream" });
  world.upstream.behave("sk-slow-upstream", { ...upstreamBehaviour, content: "one two three four five six seven eight nine ten " });
  const keys: { userId: number; tokenId: number; key: string }[] = [];
  for (let index = 0; index < users; index++) {
    const session = await newUserSession(world.server.url, `stopper${index}`);
    const token = await addToken(session, { name: `stopper${index}` });
    await world.server.store.query("update users set quota = ? where id = ?", startingQuota, session.userId);
    for (let stream = 0; stream < streamsPerUser; stream++) keys.push({ userId: session.userId!, ...token, tokenId: token.id });
  }
  const streams = keys.map(({ key }) => openStream(world!.server.url, key));
  await Promise.all(streams.map((stream) => stream.started));
  return { channelId, userIds: [...new Set(keys.map((entry) => entry.userId))], streams };
}

/** After SIGTERM the port stops answering new connections (while the streams go on). */
async function expectRefusedSoon(url: string) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const refused = await fetch(`${url}/api/status`).then(
      () => false,
      () => true,
    );
    if (refused) return;
    if (Date.now() > deadline) throw new Error("the server still accepts connections after SIGTERM");
    await Bun.sleep(20);
  }
}

async function expectLedgerAddsUp(channelId: number, userIds: number[]) {
  const store = world!.server.store;
  // Reservations live in the process, which has exited: what is left to check is the store.
  const logs = await store.query<{ user_id: number; token_id: number; channel_id: number; quota: number }>(
    "select user_id, token_id, channel_id, quota from logs where type = 2",
  );
  expect(logs.length).toBe(users * streamsPerUser);
  const sum = (rows: typeof logs) => rows.reduce((total, row) => total + n(row.quota), 0);
  for (const userId of userIds) {
    const [user] = await store.query<{ quota: number; used_quota: number; request_count: number }>(
      "select quota, used_quota, request_count from users where id = ?",
      userId,
    );
    const own = logs.filter((log) => n(log.user_id) === userId);
    expect(own.length).toBe(streamsPerUser);
    expect(n(user!.used_quota)).toBe(sum(own));
    expect(n(user!.used_quota)).toBeGreaterThan(0);
    // Nothing held back, nothing lost: the balance moved by exactly what was logged.
    expect(n(user!.quota) + n(user!.used_quota)).toBe(startingQuota);
    expect(n(user!.request_count)).toBe(streamsPerUser);
    const tokens = await store.query<{ id: number; used_quota: number }>("select id, used_quota from tokens where user_id = ?", userId);
    for (const token of tokens) expect(n(token.used_quota)).toBe(sum(own.filter((log) => n(log.token_id) === n(token.id))));
  }
  const [channel] = await store.query<{ used_quota: number }>("select used_quota from channels where id = ?", channelId);
  expect(n(channel!.used_quota)).toBe(sum(logs));
}

describe("SIGTERM with relay requests in flight", () => {
  test("streams that end within the grace period finish whole; the process exits 0; the ledger adds up", async () => {
    const { channelId, userIds, streams } = await arrangeUsersAndStreams({ chunks: 20, chunkDelayMs: 100 }, "30");
    world!.server.signal("SIGTERM");
    await expectRefusedSoon(world!.server.url);
    const results = await Promise.all(streams.map((stream) => stream.done));
    for (const result of results) {
      expect(result.events.at(-1)).toBe("[DONE]");
      expect(result.text).not.toContain('"error"');
    }
    expect(await world!.server.exited).toBe(0);
    expect(world!.server.output()).toContain("stopped: every request settled or released");
    await expectLedgerAddsUp(channelId, userIds);
  }, 120_000);

  test("streams still running after the grace period end with an error event and are billed for what was delivered", async () => {
    const { channelId, userIds, streams } = await arrangeUsersAndStreams({ chunks: 400, chunkDelayMs: 50 }, "1");
    world!.server.signal("SIGTERM");
    const results = await Promise.all(streams.map((stream) => stream.done));
    for (const result of results) {
      expect(result.events).not.toContain("[DONE]");
      const last = JSON.parse(result.events.at(-1)!);
      expect(last.error).toMatchObject({ type: "server_error", code: "server_shutting_down" });
    }
    expect(await world!.server.exited).toBe(0);
    const output = world!.server.output();
    expect(output).toContain("cut relay requests still running after the grace period");
    expect(output).toContain("stopped: every request settled or released");
    await expectLedgerAddsUp(channelId, userIds);
    // Billed on what reached the client (counted locally: the upstream never sent its usage).
    const logs = await world!.server.store.query<{ completion_tokens: number; content: string }>(
      "select completion_tokens, content from logs where type = 2",
    );
    for (const log of logs) {
      expect(n(log.completion_tokens)).toBeGreaterThan(0);
      expect(n(log.completion_tokens)).toBeLessThan(400);
      expect(log.content).toContain("服务停止");
    }
  }, 120_000);

  test("requests still waiting for the upstream's answer after the grace period get 503 and their holds back", async () => {
    world = await startRelayWorld({ SHUTDOWN_GRACE_PERIOD: "1" });
    await addChannel(world, { key: "sk-silent-upstream" });
    world.upstream.behave("sk-silent-upstream", { delayMs: 30_000 });
    const session = await newUserSession(world.server.url, "waiter");
    const token = await addToken(session, { name: "waiter" });
    await world.server.store.query("update users set quota = ? where id = ?", startingQuota, session.userId);
    const calls = Array.from({ length: 10 }, () =>
      postRelay(world!, "/v1/chat/completions", token.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "hello?" }] }),
    );
    const deadline = Date.now() + 10_000;
    while (world.upstream.receivedBy("sk-silent-upstream").length < 10 && Date.now() < deadline) await Bun.sleep(20);
    world.server.signal("SIGTERM");
    for (const answer of await Promise.all(calls)) {
      expect(answer.status).toBe(503);
      expect(answer.json.error.message).toContain("服务正在停止，请稍后重试");
    }
    expect(await world.server.exited).toBe(0);
    const store = world.server.store;
    expect(await store.query("select id from logs where type = 2")).toEqual([]);
    const [user] = await store.query<{ quota: number; used_quota: number }>(
      "select quota, used_quota from users where id = ?",
      session.userId,
    );
    expect([n(user!.quota), n(user!.used_quota)]).toEqual([startingQuota, 0]);
  }, 60_000);
});
