// The request inspector (issue 27 item 5): an admin opens a capture window on a token or a user;
// while it is open and the site's switch is on, each relayed call keeps its request and answer
// beside its log entry (whole answers as sent, streams as the text the client received, each
// cut at 256 KB with a marker, headers without credentials), readable by the entry's user and
// the admins only. The window ends when capture_until passes (on the test-controlled clock) or
// the switch goes off (which deletes every capture); captures go after their retention. Each
// restart shares the store; the ledger invariants hold at the end.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { checkLedger, ledgerCheckEnv } from "../helpers/ledger-invariants.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";

const cap = 256 * 1024;
const notFound = { success: false, message: "该日志没有请求记录" };

let store: TestStore;
let upstream: Upstream;
let server: TestServer;
let root: ApiSession;
let offsetMs = 0;
let rootToken: { id: number; key: string };

const serverNow = () => Math.floor((Date.now() + offsetMs) / 1000);

async function start(offset: number): Promise<void> {
  offsetMs = offset;
  server = await startTestServer({ store, env: { ...ledgerCheckEnv, STREAMING_TIMEOUT: "5", SWITCHYARD_CLOCK_OFFSET_MS: String(offset) } });
  root = await rootSession(server.url);
}

async function restart(offset: number): Promise<void> {
  await server.stop();
  await start(offset);
}

async function setOption(key: string, value: string | number | boolean) {
  const answer = await root.put("/api/option/", { key, value: String(value) });
  if (!answer.body.success) throw new Error(JSON.stringify(answer.body));
}

async function addToken(session: ApiSession, name: string) {
  const answer = await session.post("/api/token/", { name, remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  if (!answer.body.success) throw new Error(JSON.stringify(answer.body));
  return { id: answer.body.data[0].id as number, key: answer.body.data[0].key as string };
}

const setTokenCapture = (session: ApiSession, token: { id: number }, captureUntil: unknown) =>
  session.put("/api/token/", { id: token.id, capture_until: captureUntil });

const client = (key: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: `sk-${key}`, maxRetries: 0, timeout: 20_000 });

async function rawCall(key: string, body: unknown) {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer sk-${key}`, "x-api-key": `sk-${key}`, "x-trace": "kept" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), requestId: response.headers.get("x-oneapi-request-id") ?? "" };
}

/** The log entry of a request (consumption entries carry the request id in their own column). */
async function logOf(requestId: string): Promise<{ id: number; other: any }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const [row] = await store.query<{ id: number; other: string }>(
      "select id, other from logs where request_id = ? or other like ?",
      requestId,
      `%"request_id":"${requestId}"%`,
    );
    if (row) return { id: Number(row.id), other: JSON.parse(row.other || "{}") };
    await Bun.sleep(50);
  }
  throw new Error(`no log entry for ${requestId}`);
}

/** The capture of a log entry as the session reads it, waiting for it to be written. */
async function captureOf(session: ApiSession, logId: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await session.get(`/api/log/${logId}/capture`);
    if (answer.body.success) return answer.body.data;
    await Bun.sleep(50);
  }
  return (await session.get(`/api/log/${logId}/capture`)).body;
}

const captureRows = async () => Number((await store.query<{ n: number }>("select count(*) as n from log_captures"))[0]!.n);

beforeAll(async () => {
  store = await createTestStore();
  upstream = await startUpstream();
  await start(0);
  const channel = await root.post("/api/channel/", {
    name: "capture",
    type: 1,
    key: "sk-capture",
    base_url: upstream.url,
    models: "gpt-4o-mini",
    group: "default",
  });
  if (!channel.body.success) throw new Error(JSON.stringify(channel.body));
  rootToken = await addToken(root, "inspected");
  await store.query("update users set quota = 100000000000 where username = 'root'");
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await upstream?.stop();
  await store?.dispose();
});

describe("turning a capture on", () => {
  test("is refused while the site's switch is off, off by default", async () => {
    const answer = await setTokenCapture(root, rootToken, serverNow() + 3600);
    expect(answer.body).toMatchObject({ success: false, message: "请求记录功能已在系统设置中关闭，请先开启" });
    expect(Number((await store.query<{ c: number }>("select capture_until as c from tokens where id = ?", rootToken.id))[0]!.c)).toBe(0);
  });

  test("takes unix seconds within 7 days ahead, or 0; from admins only", async () => {
    await setOption("RequestCaptureEnabled", true);
    const range = "请求记录截止时间必须在现在之后的 7 天之内，0 表示关闭";
    expect((await setTokenCapture(root, rootToken, serverNow() + 8 * 86_400)).body).toMatchObject({ success: false, message: range });
    expect((await setTokenCapture(root, rootToken, serverNow() - 10)).body).toMatchObject({ success: false, message: range });
    expect((await setTokenCapture(root, rootToken, "soon")).body).toMatchObject({
      success: false,
      message: "请求记录截止时间必须是整数（Unix 秒），0 表示关闭",
    });
    const user = await newUserSession(server.url, "plainuser");
    const own = await addToken(user, "own");
    expect((await setTokenCapture(user, own, serverNow() + 60)).body).toMatchObject({
      success: false,
      message: "只有管理员可以开启请求记录",
    });
    // Turning it off, or sending the stored value back, is anyone's.
    expect((await setTokenCapture(user, own, 0)).body.success).toBe(true);
    const until = serverNow() + 3600;
    const set = await setTokenCapture(root, rootToken, until);
    expect(set.body.success).toBe(true);
    expect(set.body.data.capture_until).toBe(until);
    expect((await root.get(`/api/token/${rootToken.id}`)).body.data.capture_until).toBe(until);
  });
});

describe("while a capture is on", () => {
  test("a whole answer: the request and the answer as sent, headers without credentials", async () => {
    const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "inspect me 你好" }] };
    const call = await rawCall(rootToken.key, body);
    expect(call.status).toBe(200);
    const log = await logOf(call.requestId);
    expect(log.other.captured).toBe(true);
    const capture = await captureOf(root, log.id);
    expect(JSON.parse(capture.request_body)).toEqual(body);
    expect(capture.request_size).toBe(Buffer.byteLength(JSON.stringify(body)));
    expect(capture.response_body).toBe(call.text);
    expect(capture).toMatchObject({ method: "POST", path: "/v1/chat/completions", response_status: 200, is_stream: false });
    expect(capture.request_truncated).toBe(false);
    expect(capture.request_headers["x-trace"]).toBe("kept");
    expect(capture.request_headers.authorization).toBeUndefined();
    expect(capture.request_headers["x-api-key"]).toBeUndefined();
    const stored = (await store.query<Record<string, string>>("select * from log_captures where log_id = ?", log.id))[0]!;
    expect(JSON.stringify(stored)).not.toContain(rootToken.key);
  });

  test("a stream: the text exactly as the client received it", async () => {
    upstream.behave("sk-capture", { chunks: 6, content: "streamed words for the inspector to keep " });
    const call = await rawCall(rootToken.key, {
      model: "gpt-4o-mini",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "stream please" }],
    });
    upstream.behave("sk-capture", {});
    expect(call.status).toBe(200);
    expect(call.text).toContain("data: [DONE]");
    const capture = await captureOf(root, (await logOf(call.requestId)).id);
    expect(capture.is_stream).toBe(true);
    expect(capture.response_body).toBe(call.text);
    expect(capture.response_size).toBe(Buffer.byteLength(call.text));
  });

  test("bodies past 256 KB are cut at the cap with a marker, between characters", async () => {
    // 3-byte characters, so the cap falls inside one; the answer is long too.
    const content = "界".repeat(100_000);
    upstream.behave("sk-capture", { content: "x".repeat(300_000) });
    const answer = await client(rootToken.key).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content }] });
    upstream.behave("sk-capture", {});
    const requestId = (await store.query<{ request_id: string }>("select request_id from logs where type = 2 order by id desc limit 1"))[0]!
      .request_id;
    expect(answer.choices[0]!.message.content).toHaveLength(300_000);
    const capture = await captureOf(root, (await logOf(requestId)).id);
    expect(capture.request_truncated).toBe(true);
    expect(capture.response_truncated).toBe(true);
    expect(capture.request_size).toBeGreaterThan(cap);
    const requestMarker = /\n…\[cut: (\d+) bytes in all, the first (\d+) kept\]$/.exec(capture.request_body)!;
    expect(Number(requestMarker[1])).toBe(capture.request_size);
    const kept = capture.request_body.slice(0, requestMarker.index);
    expect(Buffer.byteLength(kept)).toBe(Number(requestMarker[2]));
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(cap);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(cap - 3);
    expect(kept).not.toContain("\uFFFD");
    expect(capture.response_body).toEndWith(`kept]`);
    expect(Buffer.byteLength(capture.response_body)).toBeLessThan(cap + 100);
  });

  test("a failed call keeps its request and the error the client received", async () => {
    upstream.behave("sk-capture", { status: 400, errorBody: { error: { message: "bad field foo", type: "invalid_request_error" } } });
    const call = await rawCall(rootToken.key, { model: "gpt-4o-mini", foo: 1, messages: [{ role: "user", content: "fail" }] });
    upstream.behave("sk-capture", {});
    expect(call.status).toBe(400);
    const log = await logOf(call.requestId);
    expect(log.other.captured).toBe(true);
    const capture = await captureOf(root, log.id);
    expect(JSON.parse(capture.request_body).foo).toBe(1);
    expect(capture.response_status).toBe(400);
    expect(capture.response_body).toBe(call.text);
  });

  test("never readable by another user; the owner and the admins read it", async () => {
    const call = await rawCall(rootToken.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "private" }] });
    const log = await logOf(call.requestId);
    await captureOf(root, log.id);
    const other = await newUserSession(server.url, "nosy");
    expect((await other.get(`/api/log/${log.id}/capture`)).body).toEqual(notFound);
    expect((await other.get("/api/log/999999/capture")).body).toEqual(notFound);
    // A user whose calls an admin inspects reads their own captures, and the admin reads them too.
    const watched = await newUserSession(server.url, "watched");
    await store.query("update users set quota = 100000000 where username = 'watched'");
    const watchedToken = await addToken(watched, "watched-token");
    const edit = await root.put("/api/user/", { id: watched.userId, capture_until: serverNow() + 600 });
    expect(edit.body.success).toBe(true);
    const own = await rawCall(watchedToken.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "mine" }] });
    expect(own.status).toBe(200);
    const ownLog = await logOf(own.requestId);
    expect(JSON.parse((await captureOf(watched, ownLog.id)).request_body).messages[0].content).toBe("mine");
    expect((await captureOf(root, ownLog.id)).response_body).toBe(own.text);
    expect((await other.get(`/api/log/${ownLog.id}/capture`)).body).toEqual(notFound);
    expect((await watched.get(`/api/log/${log.id}/capture`)).body).toEqual(notFound);
  });
});

describe("the end of a capture", () => {
  test("once capture_until passes, calls are no longer kept", async () => {
    expect((await setTokenCapture(root, rootToken, serverNow() + 60)).body.success).toBe(true);
    await restart(120_000);
    const call = await rawCall(rootToken.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "after the window" }] });
    expect(call.status).toBe(200);
    const log = await logOf(call.requestId);
    expect(log.other.captured).toBeUndefined();
    await Bun.sleep(300);
    expect((await store.query("select log_id from log_captures where log_id = ?", log.id)).length).toBe(0);
  }, 60_000);

  test("captures are gone after their retention (3 days by default)", async () => {
    const before = await captureRows();
    expect(before).toBeGreaterThan(0);
    const [kept] = await store.query<{ log_id: number }>("select log_id from log_captures limit 1");
    await restart(3 * 86_400_000 + 3_600_000);
    // Unreadable at once, and removed by the retention job at start.
    expect((await root.get(`/api/log/${kept!.log_id}/capture`)).body).toEqual(notFound);
    for (let attempt = 0; attempt < 100 && (await captureRows()) > 0; attempt++) await Bun.sleep(50);
    expect(await captureRows()).toBe(0);
  }, 60_000);

  test("the site's switch turned off ends every capture and deletes what was kept", async () => {
    expect((await setTokenCapture(root, rootToken, serverNow() + 3600)).body.success).toBe(true);
    const call = await rawCall(rootToken.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "kept, then gone" }] });
    const log = await logOf(call.requestId);
    expect((await captureOf(root, log.id)).response_body).toBe(call.text);
    await setOption("RequestCaptureEnabled", false);
    expect((await root.get(`/api/log/${log.id}/capture`)).body).toEqual(notFound);
    for (let attempt = 0; attempt < 100 && (await captureRows()) > 0; attempt++) await Bun.sleep(50);
    expect(await captureRows()).toBe(0);
    expect((await root.get(`/api/token/${rootToken.id}`)).body.data.capture_until).toBe(0);
    const after = await rawCall(rootToken.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "not kept" }] });
    expect((await logOf(after.requestId)).other.captured).toBeUndefined();
    // Turning it on again starts nothing: every window ended.
    await setOption("RequestCaptureEnabled", true);
    const again = await rawCall(rootToken.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "still not kept" }] });
    expect((await logOf(again.requestId)).other.captured).toBeUndefined();
    await Bun.sleep(300);
    expect(await captureRows()).toBe(0);
  });

  test("the ledger invariants hold", async () => {
    await checkLedger(store, server.url);
  });
});
