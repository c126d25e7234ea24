// Baidu Wenxin (15) and Qianfan V2 (46) through the real relay and the official openai client,
// against an imitation of Baidu's documented endpoints: the access-token exchange (once for
// concurrent calls, forgotten when Baidu stops accepting it), ERNIE's request rules, answers
// whole and streamed, usage and the billed quota, and each failure with its verdict.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startBaiduUpstream, type BaiduUpstream } from "../../fixtures/baidu-upstream.ts";
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
let baidu: BaiduUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  baidu = await startBaiduUpstream();
  key = (await addToken(world.root)).key;
  for (const app of ["a", "b", "c", "d", "e", "f", "g", "h"]) baidu.addApp(`ak-${app}`, `sk-${app}`);
  baidu.addV2Key("bce-v3/ALTAK-one/secret1");
  baidu.addV2Key("bce-v3/ALTAK-two/secret2");
  // Each test asks for a model name of its own, mapped by its channel to an ERNIE model.
  const ratios: Record<string, number> = {
    "Embedding-V1": 0.5,
    "ernie-4.0-8k": 1,
    "embedding-v1": 1,
    "qianfan-busy": 1,
    "qianfan-dead": 1,
    "qianfan-appid": 1,
  };
  for (let index = 1; index <= 9; index++) ratios[`wenxin-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "wenxin-2": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await baidu.stop();
});
beforeEach(async () => {
  baidu.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const chats = () => baidu.received.filter((entry) => entry.path.includes("/wenxinworkshop/chat/"));
const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
/** A Baidu channel serving `alias` as the ERNIE model `model`. */
const baiduChannel = (apiKey: string, secret: string, alias: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.Baidu,
    key: `${apiKey}|${secret}`,
    base_url: baidu.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: model }),
    ...extra,
  });

describe("Baidu Wenxin (15)", () => {
  test("concurrent calls share one token exchange; the token rides in the URL; the body follows ERNIE's rules", async () => {
    await baiduChannel("ak-a", "sk-a", "wenxin-1", "ERNIE-4.0-8K");
    const client = openai(world, key);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.chat.completions.create({
          model: "wenxin-1",
          messages: [
            { role: "system", content: "be brief" },
            { role: "user", content: "hi" },
          ],
          temperature: 0.5,
          max_tokens: 50,
        }),
      ),
    );
    expect(answers.map((answer) => answer.choices[0]!.message.content)).toEqual(Array(5).fill("你好，我是文心一言。"));
    expect(baidu.exchanges.get("ak-a")).toBe(1);
    const exchange = baidu.received.find((entry) => entry.path === "/oauth/2.0/token")!;
    expect(exchange.query).toEqual({ grant_type: "client_credentials", client_id: "ak-a", client_secret: "sk-a" });
    const tokensUsed = new Set(chats().map((entry) => entry.query.access_token));
    expect(tokensUsed.size).toBe(1);
    expect(chats()[0]!.path).toBe("/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro");
    expect(chats()[0]!.json).toEqual({
      messages: [{ role: "user", content: "hi" }],
      system: "be brief",
      temperature: 0.5,
      max_output_tokens: 50,
    });
  });

  test("a whole answer: OpenAI's shape, Baidu's usage in the log, the quota billed by it", async () => {
    await baiduChannel("ak-b", "sk-b", "wenxin-2", "ERNIE-4.0-8K");
    baidu.behave("ak-b", { promptTokens: 12, completionTokens: 7 });
    const answer = await openai(world, key).chat.completions.create({ model: "wenxin-2", messages: [{ role: "user", content: "hi" }] });
    expect(answer.object).toBe("chat.completion");
    expect(answer.model).toBe("wenxin-2");
    expect(answer.choices[0]!.finish_reason).toBe("stop");
    expect(answer.usage).toEqual({ prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([12, 7, 12 + 7 * 2]);
  });

  test("a stream: OpenAI chunks, and the usage chunk the client asked for", async () => {
    await baiduChannel("ak-c", "sk-c", "wenxin-3", "ERNIE-3.5-8K");
    const stream = await openai(world, key).chat.completions.create({
      model: "wenxin-3",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("你好，我是文心一言。");
    expect(usage).toEqual({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });
    expect(chats()[0]!.path).toEndWith("/chat/completions");
    expect(chats()[0]!.json.stream).toBe(true);
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([9, 6, 15]);
  });

  test("tools go out as ERNIE functions; a function call comes back as a tool call", async () => {
    await baiduChannel("ak-d", "sk-d", "wenxin-4", "ERNIE-4.0-8K");
    baidu.behave("ak-d", { functionCall: { name: "weather", arguments: '{"city":"北京"}' } });
    const answer = await openai(world, key).chat.completions.create({
      model: "wenxin-4",
      messages: [{ role: "user", content: "北京天气" }],
      tools: [
        {
          type: "function",
          function: { name: "weather", description: "查询天气", parameters: { type: "object", properties: { city: { type: "string" } } } },
        },
      ],
    });
    expect(chats()[0]!.json.functions).toEqual([
      { name: "weather", description: "查询天气", parameters: { type: "object", properties: { city: { type: "string" } } } },
    ]);
    expect(answer.choices[0]!.finish_reason).toBe("tool_calls");
    expect(answer.choices[0]!.message.tool_calls![0]).toMatchObject({
      type: "function",
      function: { name: "weather", arguments: '{"city":"北京"}' },
    });
  });

  test("embeddings go to the model's endpoint as a list of texts", async () => {
    await addChannel(world, { type: ChannelType.Baidu, key: "ak-e|sk-e", base_url: baidu.url, models: "Embedding-V1" });
    // The SDK asks for base64 by default and decodes it: Baidu's floats are encoded by the relay.
    const result = await openai(world, key).embeddings.create({ model: "Embedding-V1", input: ["一", "二"] });
    expect(result.data.map((item) => item.embedding)).toEqual([
      [0, 0.5],
      [1, 0.5],
    ]);
    const floats = await openai(world, key).embeddings.create({ model: "Embedding-V1", input: "三", encoding_format: "float" });
    expect(floats.data[0]!.embedding).toEqual([0, 0.5]);
    const request = baidu.received.find((entry) => entry.path.includes("/embeddings/"))!;
    expect(request.path).toBe("/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1");
    expect(request.json).toEqual({ input: ["一", "二"] });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([4, 2]);
  });

  test("a token Baidu stops accepting (110) is forgotten, exchanged again, and disables nothing", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const id = await baiduChannel("ak-f", "sk-f", "wenxin-6", "ERNIE-Speed-8K");
    const ask = () => openai(world, key).chat.completions.create({ model: "wenxin-6", messages: [{ role: "user", content: "hi" }] });
    await ask();
    baidu.revokeTokens("ak-f");
    const answer = await ask();
    expect(answer.choices[0]!.message.content).toBe("你好，我是文心一言。");
    expect(baidu.exchanges.get("ak-f")).toBe(2);
    const [first, refused, retried] = chats().map((entry) => entry.query.access_token);
    expect(refused).toBe(first);
    expect(retried).not.toBe(first);
    expect(await channelStatus(id)).toBe(1);
  });

  test("a wrong secret key: the refused exchange is a 401 that disables the channel", async () => {
    const id = await baiduChannel("ak-g", "not-the-secret", "wenxin-7", "ERNIE-Lite-8K");
    const response = await postRelay(world, "/v1/chat/completions", key, {
      model: "wenxin-7",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toMatchObject({
      message: "Client authentication failed",
      type: "authentication_error",
      code: "invalid_client",
    });
    expect(chats()).toHaveLength(0);
    expect(await channelStatus(id)).toBe(3);
  });

  test("a QPS limit (18) is a 429: retried on another channel, nobody disabled; quota exhausted (17) disables", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await baiduChannel("ak-h", "sk-h", "wenxin-8", "ERNIE-3.5-8K", { priority: 5 });
    const spare = await baiduChannel("ak-c", "sk-c", "wenxin-8", "ERNIE-3.5-8K", { priority: 1 });
    baidu.behave("ak-h", { errorCode: 18 });
    const ask = () => postRelay(world, "/v1/chat/completions", key, { model: "wenxin-8", messages: [{ role: "user", content: "hi" }] });
    expect((await ask()).status).toBe(200);
    expect(chats().map((entry) => entry.who)).toEqual(["ak-h", "ak-c"]);
    expect([await channelStatus(busy), await channelStatus(spare)]).toEqual([1, 1]);
    await setOptions(world, { RetryTimes: 0 });
    const refused = await ask();
    expect(refused.status).toBe(429);
    // A final 429 speaks for the whole group (relay-errors.ts), with Baidu's own reason; its code stays.
    expect(withoutRequestId(refused.json).error).toMatchObject({
      message: expect.stringMatching(/^当前分组上游负载已饱和，请稍后再试（上游原因：.+）$/),
      type: "rate_limit_error",
      code: 18,
    });
    expect(await channelStatus(busy)).toBe(1);
    baidu.behave("ak-h", { errorCode: 17 });
    expect((await ask()).status).toBe(429);
    expect(await channelStatus(busy)).toBe(3);
  });

  test("an error in the middle of a stream ends it with an error event", async () => {
    baidu.addApp("ak-i", "sk-i");
    await baiduChannel("ak-i", "sk-i", "wenxin-9", "ERNIE-4.0-Turbo-8K");
    baidu.behave("ak-i", { errorMidStream: 336100 });
    const response = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "wenxin-9", messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    const text = await response.text();
    expect(chats()[0]!.path).toEndWith("/chat/ernie-4.0-turbo-8k");
    expect(text).toContain('"content":"你好，"');
    expect(text).toContain('"error":{"message":"mid-stream failure"');
    expect(text).not.toContain("[DONE]");
  });

  test("the channel test reaches ERNIE through the adaptor", async () => {
    baidu.addApp("ak-j", "sk-j");
    const id = await addChannel(world, { type: ChannelType.Baidu, key: "ak-j|sk-j", base_url: baidu.url, models: "ERNIE-4.0-8K" });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(chats().at(-1)!.who).toBe("ak-j");
    expect(chats().at(-1)!.json).toEqual({ messages: [{ role: "user", content: "hi" }], max_output_tokens: 10 });
  });
});

describe("Baidu Qianfan V2 (46)", () => {
  const v2 = () => baidu.received.filter((entry) => entry.path.startsWith("/v2/"));

  test("the API key as Bearer, the appid header, OpenAI's format whole and streamed with usage", async () => {
    await addChannel(world, {
      type: ChannelType.BaiduV2,
      key: "bce-v3/ALTAK-one/secret1",
      base_url: baidu.url,
      models: "ernie-4.0-8k",
      other: "app-77",
    });
    const answer = await openai(world, key).chat.completions.create({ model: "ernie-4.0-8k", messages: [{ role: "user", content: "hi" }] });
    expect(answer.choices[0]!.message.content).toBe("千帆 V2 的回答");
    expect(v2()[0]!.headers.authorization).toBe("Bearer bce-v3/ALTAK-one/secret1");
    expect(v2()[0]!.headers.appid).toBe("app-77");
    expect(v2()[0]!.path).toBe("/v2/chat/completions");
    const stream = await openai(world, key).chat.completions.create({
      model: "ernie-4.0-8k",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("千帆 V2 的回答");
    expect(v2()[1]!.json.stream_options).toEqual({ include_usage: true });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([11, 3, 14]);
  });

  test("a key in new-api's key|appid form: the key as Bearer, the app id in the appid header (it wins over the other field)", async () => {
    await addChannel(world, {
      type: ChannelType.BaiduV2,
      key: "bce-v3/ALTAK-one/secret1|app-from-key",
      base_url: baidu.url,
      models: "qianfan-appid",
      model_mapping: '{"qianfan-appid":"ernie-speed-128k"}',
      other: "app-other",
    });
    const answer = await openai(world, key).chat.completions.create({
      model: "qianfan-appid",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(answer.choices[0]!.message.content).toBe("千帆 V2 的回答");
    expect(v2()[0]!.headers.authorization).toBe("Bearer bce-v3/ALTAK-one/secret1");
    expect(v2()[0]!.headers.appid).toBe("app-from-key");
  });

  test("embeddings, the model list, the channel test", async () => {
    const id = await addChannel(world, {
      type: ChannelType.BaiduV2,
      key: "bce-v3/ALTAK-two/secret2",
      base_url: baidu.url,
      models: "embedding-v1",
      other: "",
    });
    const result = await openai(world, key).embeddings.create({ model: "embedding-v1", input: "x" });
    expect(result.data[0]!.embedding).toEqual([0.5, 0.25]);
    expect(v2()[0]!.path).toBe("/v2/embeddings");
    expect(v2()[0]!.json).toEqual({ model: "embedding-v1", input: "x" });
    expect(v2()[0]!.headers.appid).toBeUndefined();
    const models = await world.root.get(`/api/channel/fetch_models/${id}`);
    expect(models.body.data).toEqual(["ernie-4.0-8k", "ernie-speed-128k", "embedding-v1"]);
    const tested = await world.root.get(`/api/channel/test/${id}`);
    expect(tested.body.success).toBe(true);
    expect(v2().at(-1)!.path).toBe("/v2/embeddings");
  });

  test("a wrong key is a 401 that disables; a rate limit is retried and disables nothing", async () => {
    const dead = await addChannel(world, {
      type: ChannelType.BaiduV2,
      key: "bce-v3/ALTAK-unknown/x",
      base_url: baidu.url,
      models: "qianfan-dead",
      model_mapping: '{"qianfan-dead":"ernie-speed-128k"}',
    });
    const refused = await postRelay(world, "/v1/chat/completions", key, {
      model: "qianfan-dead",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(refused.status).toBe(401);
    expect(withoutRequestId(refused.json).error).toMatchObject({ message: "IAM Certification failed", code: "invalid_iam_token" });
    expect(await channelStatus(dead)).toBe(3);
    const busy = await addChannel(world, {
      type: ChannelType.BaiduV2,
      key: "bce-v3/ALTAK-one/secret1",
      base_url: baidu.url,
      models: "qianfan-busy",
      model_mapping: '{"qianfan-busy":"ernie-speed-128k"}',
      priority: 5,
    });
    await addChannel(world, {
      type: ChannelType.BaiduV2,
      key: "bce-v3/ALTAK-two/secret2",
      base_url: baidu.url,
      models: "qianfan-busy",
      model_mapping: '{"qianfan-busy":"ernie-speed-128k"}',
      priority: 1,
    });
    await setOptions(world, { RetryTimes: 1 });
    baidu.behave("bce-v3/ALTAK-one/secret1", { status: 429 });
    const answered = await postRelay(world, "/v1/chat/completions", key, {
      model: "qianfan-busy",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(answered.status).toBe(200);
    expect(
      v2()
        .map((entry) => entry.who)
        .slice(-2),
    ).toEqual(["bce-v3/ALTAK-one/secret1", "bce-v3/ALTAK-two/secret2"]);
    expect(await channelStatus(busy)).toBe(1);
  });
});
