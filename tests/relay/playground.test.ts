// POST /pg/chat/completions: a signed-in console user, streamed, billed to that user in the
// chosen group with no token involved, logged as playground-<group>.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ApiSession, newUserSession } from "../helpers/api-session.ts";
import { addChannel, n, one, setOptions, startRelayWorld, withoutRequestId, type RelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let user: ApiSession;

beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, { key: "sk-playground", models: "gpt-4o-mini", group: "default,vip" });
  await setOptions(world, { GroupRatio: JSON.stringify({ default: 1, vip: 2, svip: 1 }) });
  user = await newUserSession(world.server.url, "player");
  await world.server.store.query("update users set quota = 1000000 where id = ?", user.userId);
});
afterAll(() => world.stop());

const body = (extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: "hi" }],
  stream: true,
  max_tokens: 0,
  temperature: 0.7,
  ...extra,
});

async function play(session: ApiSession, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${world.server.url}/pg/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: session.cookie, "New-Api-User": String(session.userId) },
    body: JSON.stringify(body(extra)),
  });
  return { status: response.status, text: await response.text() };
}

test("a signed-in user chats in the chosen group, billed alone, logged as playground-<group>", async () => {
  world.upstream.behave("sk-playground", { promptTokens: 40, completionTokens: 20 });
  const answer = await play(user, { group: "vip" });
  expect(answer.status).toBe(200);
  const content = answer.text
    .split("\n\n")
    .filter((event) => event.startsWith("data: {"))
    .map((event) => JSON.parse(event.slice(6)).choices[0]?.delta?.content ?? "")
    .join("");
  expect(content).toBe("Hello from the ");
  expect(answer.text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  // Our own field never reaches the upstream.
  expect(world.upstream.received[0]!.json.group).toBeUndefined();
  const quota = Math.round((40 + 20 * 4) * 0.075 * 2);
  const log = await one(world, "select * from logs where type = 2 and user_id = ? order by id desc limit 1", user.userId);
  expect([log.token_name, n(log.token_id), log.group, n(log.quota)]).toEqual(["playground-vip", 0, "vip", quota]);
  const row = await one(world, "select quota, used_quota, request_count from users where id = ?", user.userId);
  expect([n(row.quota), n(row.used_quota), n(row.request_count)]).toEqual([1_000_000 - quota, quota, 1]);
});

test("without a group, the user's own", async () => {
  await play(user);
  expect(
    (await one(world, "select token_name from logs where type = 2 and user_id = ? order by id desc limit 1", user.userId)).token_name,
  ).toBe("playground-default");
});

test("a group the user may not use is refused", async () => {
  const answer = await play(user, { group: "svip" });
  expect(answer.status).toBe(403);
  expect(withoutRequestId(JSON.parse(answer.text)).error.message).toBe("令牌分组 svip 已被禁用");
});

test("no session, or no New-Api-User, is refused", async () => {
  const anonymous = await fetch(`${world.server.url}/pg/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body()),
  });
  expect(anonymous.status).toBe(401);
  expect((await anonymous.json()).error.message).toBe("无权进行此操作，未登录且未提供 access token");
  const noHeader = await fetch(`${world.server.url}/pg/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: user.cookie },
    body: JSON.stringify(body()),
  });
  expect(noHeader.status).toBe(401);
});

test("the playground's parameters reach the upstream as sent; a stream asked for its usage ends with it", async () => {
  world.upstream.behave("sk-playground", { promptTokens: 12, completionTokens: 3 });
  const extra = {
    top_p: 0.5,
    stop: ["END"],
    presence_penalty: 0.2,
    frequency_penalty: -0.2,
    reasoning_effort: "low",
    stream_options: { include_usage: true },
  };
  const answer = await play(user, extra);
  expect(answer.status).toBe(200);
  const sent = world.upstream.received.at(-1)!.json;
  expect({ ...sent, stream_options: undefined }).toEqual({ ...body(extra), stream_options: undefined });
  const usage = answer.text
    .split("\n\n")
    .filter((event) => event.startsWith("data: {"))
    .map((event) => JSON.parse(event.slice(6)))
    .filter((chunk) => chunk.usage)
    .map((chunk) => [chunk.usage.prompt_tokens, chunk.usage.completion_tokens]);
  expect(usage).toEqual([[12, 3]]);
});
