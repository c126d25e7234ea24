// Dify (37) through the real relay and the official openai client, against an imitation of a
// Dify app's chat-messages API: streaming mode always (agent apps too), the conversation carried
// in the query, the end user, answers folded for clients that want them whole, message_end usage
// and quota, and Dify's failures with their verdicts (a bad app key, a rate limit, the app's model
// quota running out in the stream). Inline images follow Dify's "上传文件" API: each is uploaded
// (POST /v1/files/upload, multipart file and user) and the message names it as a local_file.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startDifyUpstream, type DifyUpstream } from "../../fixtures/dify-upstream.ts";
import { catBase64, catPng } from "../../fixtures/image-host.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  openai,
  postRelay,
  setOptions,
  startRelayWorld,
  withoutRequestId,
  type RelayWorld,
} from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let dify: DifyUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  dify = await startDifyUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d", "e"]) dify.addApp(`app-${name}`);
  dify.addApp("app-agent", "agent");
  const ratios: Record<string, number> = {};
  for (let index = 1; index <= 9; index++) ratios[`dify-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "dify-1": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await dify.stop();
});
beforeEach(async () => {
  dify.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const difyChannel = (appKey: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, { type: ChannelType.Dify, key: appKey, base_url: dify.url, models: model, ...extra });

describe("Dify (37)", () => {
  test("a base64 image is uploaded through Dify's file upload for the same end user and attached as local_file; a link stays remote_url", async () => {
    await difyChannel("app-a", "dify-8");
    const answer = await openai(world, key).chat.completions.create({
      model: "dify-8",
      user: "alice",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "两张图是什么？" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${catBase64}` } },
            { type: "image_url", image_url: { url: "https://example.com/b.jpg" } },
          ],
        },
      ],
    });
    expect(answer.choices[0]!.message.content).toBe("你好，我是 Dify 应用。");
    expect(dify.uploads).toHaveLength(1);
    const [upload] = dify.uploads;
    expect([upload!.app, upload!.user, upload!.mimeType, upload!.name]).toEqual(["app-a", "alice", "image/png", "image.png"]);
    expect(upload!.bytes).toEqual(catPng);
    const message = dify.received.find((entry) => entry.path === "/v1/chat-messages")!;
    expect(message.json.files).toEqual([
      { type: "image", transfer_method: "local_file", upload_file_id: upload!.id },
      { type: "image", transfer_method: "remote_url", url: "https://example.com/b.jpg" },
    ]);
  });

  test("an upload Dify refuses is the call's answer (an unsupported type is the client's 415); no message is sent", async () => {
    await difyChannel("app-b", "dify-9");
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "dify-9",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/svg+xml;base64,PHN2Zy8+" } }] }],
    });
    expect(response.status).toBe(415);
    expect(dify.received.filter((entry) => entry.path === "/v1/chat-messages")).toHaveLength(0);
  });

  test("a whole answer for a client that wants one: streamed from Dify and folded; usage from message_end", async () => {
    await difyChannel("app-a", "dify-1");
    const answer = await openai(world, key).chat.completions.create({ model: "dify-1", messages: [{ role: "user", content: "你好" }] });
    expect(answer.object).toBe("chat.completion");
    expect(answer.choices[0]!.message.content).toBe("你好，我是 Dify 应用。");
    expect(answer.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 });
    const request = dify.received[0]!;
    expect(request.path).toBe("/v1/chat-messages");
    expect(request.headers.authorization).toBe("Bearer app-a");
    expect(request.json).toEqual({ inputs: {}, query: "你好", response_mode: "streaming", user: "switchyard", auto_generate_name: false });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([20, 8, 20 + 8 * 2]);
  });

  test("a stream: the earlier turns travel in the query, the client's user is Dify's user", async () => {
    await difyChannel("app-b", "dify-2");
    const stream = await openai(world, key).chat.completions.create({
      model: "dify-2",
      messages: [
        { role: "system", content: "用中文" },
        { role: "user", content: "我叫小明" },
        { role: "assistant", content: "你好小明" },
        { role: "user", content: "我叫什么？" },
      ],
      user: "user-42",
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("你好，我是 Dify 应用。");
    expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 8 });
    expect(dify.received[0]!.json).toMatchObject({
      query: "SYSTEM:\n用中文\n\nUSER:\n我叫小明\n\nASSISTANT:\n你好小明\n\nUSER:\n我叫什么？",
      user: "user-42",
      response_mode: "streaming",
    });
    expect(dify.received[0]!.json.conversation_id).toBeUndefined();
  });

  test("an agent app: agent_message pieces, the thought events skipped", async () => {
    await difyChannel("app-agent", "dify-3");
    const answer = await openai(world, key).chat.completions.create({ model: "dify-3", messages: [{ role: "user", content: "查天气" }] });
    expect(answer.choices[0]!.message.content).toBe("你好，我是 Dify 应用。");
  });

  test("an invalid app key: 401, the channel disabled", async () => {
    const id = await difyChannel("app-zz", "dify-4");
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "dify-4", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toMatchObject({
      message: "Access token is invalid",
      type: "authentication_error",
      code: "unauthorized",
    });
    expect(await channelStatus(id)).toBe(3);
  });

  test("a rate limit is retried elsewhere and disables nothing; the app's model quota running out disables", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await difyChannel("app-c", "dify-5", { priority: 5 });
    const spare = await difyChannel("app-d", "dify-5", { priority: 1 });
    dify.behave("app-c", { status: 429, code: "too_many_requests" });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "dify-5", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(dify.received.map((entry) => entry.who)).toEqual(["app-c", "app-d"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);

    await setOptions(world, { RetryTimes: 0 });
    const spent = await difyChannel("app-e", "dify-6");
    dify.behave("app-e", { errorEvent: "provider_quota_exceeded" });
    const refused = await postRelay(world, "/v1/chat/completions", key, {
      model: "dify-6",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    expect(refused.status).toBe(429);
    expect(withoutRequestId(refused.json).error).toMatchObject({ type: "insufficient_quota", code: "provider_quota_exceeded" });
    expect(await channelStatus(spent)).toBe(3);
  });

  test("the channel test reaches chat-messages", async () => {
    const id = await difyChannel("app-b", "dify");
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(dify.received.at(-1)!.json).toMatchObject({ query: "hi", response_mode: "streaming" });
  });
});
