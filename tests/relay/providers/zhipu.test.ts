// Zhipu ChatGLM v3 (16) and GLM v4 (26) through the real relay and the official openai client,
// against an imitation that verifies each request's JWT: the v3 invoke/sse-invoke format, the v4
// OpenAI-like format with tools and embeddings, usage and quota, and the failures with their
// verdicts (a bad key, rate limits, an account in arrears). Images on v4 follow GLM-4V's reference
// (open.bigmodel.cn "GLM-4V": image_url.url is a link or the image's Base64, its example without a
// data: prefix): a data: URL reaches Zhipu as bare base64, a link as it is.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startZhipuUpstream, type ZhipuUpstream } from "../../fixtures/zhipu-upstream.ts";
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
let zhipu: ZhipuUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  zhipu = await startZhipuUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d", "e", "f"]) zhipu.addKey(`id${name}`, `secret-${name}`);
  const ratios: Record<string, number> = { "embedding-3": 0.5, chatglm_turbo: 1, "glm-4-flash": 1 };
  for (let index = 1; index <= 9; index++) ratios[`glm-${index}`] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), CompletionRatio: JSON.stringify({ "glm-1": 2 }) });
});
afterAll(async () => {
  await world.stop();
  await zhipu.stop();
});
beforeEach(async () => {
  zhipu.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
const glmChannel = (
  type: typeof ChannelType.Zhipu | typeof ChannelType.ZhipuV4,
  name: string,
  alias: string,
  model: string,
  extra: Record<string, unknown> = {},
) =>
  addChannel(world, {
    type,
    key: `id${name}.secret-${name}`,
    base_url: zhipu.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: model }),
    ...extra,
  });

describe("Zhipu ChatGLM v3 (16)", () => {
  test("invoke: the JWT as the Authorization header, the prompt body, the unquoted answer, usage and quota", async () => {
    await glmChannel(16, "a", "glm-1", "chatglm_turbo");
    const answer = await openai(world, key).chat.completions.create({
      model: "glm-1",
      messages: [
        { role: "system", content: "简短" },
        { role: "user", content: "你好" },
      ],
      temperature: 0.4,
    });
    expect(answer.choices[0]!.message.content).toBe("我是智谱清言。");
    expect(answer.usage).toEqual({ prompt_tokens: 6, completion_tokens: 4, total_tokens: 10 });
    const request = zhipu.received[0]!;
    expect(request.path).toBe("/api/paas/v3/model-api/chatglm_turbo/invoke");
    expect(request.headers.authorization).not.toStartWith("Bearer");
    const claims = claimsOf(request.headers.authorization!);
    expect(claims.api_key).toBe("ida");
    expect(claims.exp - claims.timestamp).toBe(30 * 60_000);
    expect(Math.abs(claims.timestamp - Date.now())).toBeLessThan(60_000);
    expect(request.json).toEqual({ prompt: [{ role: "user", content: "简短\n你好" }], temperature: 0.4 });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([6, 4, 6 + 4 * 2]);
  });

  test("sse-invoke: add events become chunks, the finish meta's usage the usage chunk; one signed token serves both calls", async () => {
    await glmChannel(16, "b", "glm-2", "chatglm_pro");
    const stream = await openai(world, key).chat.completions.create({
      model: "glm-2",
      messages: [{ role: "user", content: "你好" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("我是智谱清言。");
    expect(usage).toEqual({ prompt_tokens: 6, completion_tokens: 4, total_tokens: 10 });
    expect(zhipu.received[0]!.path).toBe("/api/paas/v3/model-api/chatglm_pro/sse-invoke");
    expect(zhipu.received[0]!.json.incremental).toBe(true);
    await openai(world, key).chat.completions.create({ model: "glm-2", messages: [{ role: "user", content: "again" }] });
    expect(zhipu.received[1]!.headers.authorization).toBe(zhipu.received[0]!.headers.authorization);
  });

  test("a failure in a 200 body keeps its verdict: a rate limit is retried, an error event ends nothing silently", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await glmChannel(16, "c", "glm-3", "chatglm_std", { priority: 5 });
    await glmChannel(16, "d", "glm-3", "chatglm_std", { priority: 1 });
    zhipu.behave("idc", { errorCode: 1302 });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "glm-3", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(zhipu.received.map((entry) => entry.who)).toEqual(["idc", "idd"]);
    expect(await channelStatus(busy)).toBe(1);
    await setOptions(world, { RetryTimes: 0 });
    zhipu.reset();
    zhipu.behave("idc", { streamError: true });
    zhipu.behave("idd", { streamError: true });
    const failed = await postRelay(world, "/v1/chat/completions", key, {
      model: "glm-3",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    expect(failed.status).toBe(500);
    expect(withoutRequestId(failed.json).error.message).toBe("系统检测到输入或生成内容可能包含不安全或敏感内容");
  });

  test("a key Zhipu does not know: 401, the channel disabled", async () => {
    const id = await addChannel(world, {
      type: ChannelType.Zhipu,
      key: "idzz.secret-zz",
      base_url: zhipu.url,
      models: "glm-4",
      model_mapping: '{"glm-4":"chatglm_lite"}',
    });
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "glm-4", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toMatchObject({ type: "authentication_error", code: "1002" });
    expect(await channelStatus(id)).toBe(3);
  });

  test("the channel test reaches v3 invoke", async () => {
    const id = await addChannel(world, { type: ChannelType.Zhipu, key: "ide.secret-e", base_url: zhipu.url, models: "chatglm_turbo" });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(zhipu.received.at(-1)!.path).toBe("/api/paas/v3/model-api/chatglm_turbo/invoke");
  });
});

describe("Zhipu GLM v4 (26)", () => {
  test("chat whole and streamed: Bearer JWT, only documented fields, usage from the last chunk", async () => {
    await glmChannel(26, "a", "glm-5", "glm-4-plus");
    const answer = await openai(world, key).chat.completions.create({
      model: "glm-5",
      messages: [{ role: "user", content: "你好" }],
      presence_penalty: 0.5,
      user: "u1",
      max_tokens: 20,
    });
    expect(answer.choices[0]!.message.content).toBe("我是 GLM-4。");
    expect(answer.object).toBe("chat.completion");
    const request = zhipu.received[0]!;
    expect(request.path).toBe("/api/paas/v4/chat/completions");
    expect(request.headers.authorization).toStartWith("Bearer ");
    expect(claimsOf(request.headers.authorization!.slice(7)).api_key).toBe("ida");
    expect(request.json).toEqual({ model: "glm-4-plus", messages: [{ role: "user", content: "你好" }], max_tokens: 20 });
    const stream = await openai(world, key).chat.completions.create({
      model: "glm-5",
      messages: [{ role: "user", content: "你好" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("我是 GLM-4。");
    expect(usage).toEqual({ prompt_tokens: 13, completion_tokens: 5, total_tokens: 18 });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([13, 5, 18]);
  });

  test("images: a data: URL goes as bare base64, a link as it is", async () => {
    await glmChannel(26, "a", "glm-4", "glm-4v-plus");
    await openai(world, key).chat.completions.create({
      model: "glm-4",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "两张图" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.com/b.jpg" } },
          ],
        },
      ],
    });
    expect(zhipu.received.at(-1)!.json.messages[0].content).toEqual([
      { type: "text", text: "两张图" },
      { type: "image_url", image_url: { url: "iVBORw0KGgo=" } },
      { type: "image_url", image_url: { url: "https://example.com/b.jpg" } },
    ]);
  });

  test("tools and embeddings", async () => {
    await glmChannel(26, "b", "glm-6", "glm-4");
    zhipu.behave("idb", { toolCall: { name: "search", arguments: '{"q":"天气"}' } });
    const tools = [{ type: "function" as const, function: { name: "search", parameters: { type: "object", properties: {} } } }];
    const answer = await openai(world, key).chat.completions.create({
      model: "glm-6",
      messages: [{ role: "user", content: "天气" }],
      tools,
      tool_choice: "auto",
    });
    expect(zhipu.received[0]!.json.tools).toEqual(tools);
    expect(answer.choices[0]!.message.tool_calls).toEqual([
      { id: "call_zp1", index: 0, type: "function", function: { name: "search", arguments: '{"q":"天气"}' } },
    ] as never);
    await addChannel(world, { type: ChannelType.ZhipuV4, key: "idb.secret-b", base_url: zhipu.url, models: "embedding-3" });
    const embedded = await openai(world, key).embeddings.create({ model: "embedding-3", input: ["一", "二"], dimensions: 256 });
    expect(embedded.data.map((item) => item.embedding)).toEqual([
      [0.125, 0],
      [0.125, 1],
    ]);
    expect(zhipu.received.at(-1)!.path).toBe("/api/paas/v4/embeddings");
    expect(zhipu.received.at(-1)!.json).toEqual({ model: "embedding-3", input: ["一", "二"], dimensions: 256 });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([13, 7]);
  });

  test("an account in arrears (1113, sent as 429) disables; a rate limit (1302) is retried and disables nothing", async () => {
    const owing = await glmChannel(26, "c", "glm-7", "glm-4-flash");
    zhipu.behave("idc", { errorCode: 1113 });
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "glm-7", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(429);
    expect(withoutRequestId(refused.json).error).toMatchObject({ type: "insufficient_quota", code: "1113" });
    expect(await channelStatus(owing)).toBe(3);

    zhipu.reset();
    await setOptions(world, { RetryTimes: 1 });
    const busy = await glmChannel(26, "d", "glm-8", "glm-4-flash", { priority: 5 });
    await glmChannel(26, "f", "glm-8", "glm-4-flash", { priority: 1 });
    zhipu.behave("idd", { errorCode: 1302 });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "glm-8", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(zhipu.received.map((entry) => entry.who)).toEqual(["idd", "idf"]);
    expect(await channelStatus(busy)).toBe(1);
  });

  test("a key Zhipu does not know (1002 with 401): the channel disabled, nothing retried", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const dead = await addChannel(world, {
      type: ChannelType.ZhipuV4,
      key: "idyy.secret-yy",
      base_url: zhipu.url,
      models: "glm-9",
      model_mapping: '{"glm-9":"glm-4-flash"}',
      priority: 5,
    });
    await glmChannel(26, "f", "glm-9", "glm-4-flash", { priority: 1 });
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "glm-9", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toMatchObject({ type: "authentication_error", code: "1002" });
    expect(zhipu.received).toHaveLength(1);
    expect(await channelStatus(dead)).toBe(3);
  });

  test("the channel test reaches v4", async () => {
    const id = await addChannel(world, { type: ChannelType.ZhipuV4, key: "ide.secret-e", base_url: zhipu.url, models: "glm-4-flash" });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(zhipu.received.at(-1)!.json).toEqual({ model: "glm-4-flash", messages: [{ role: "user", content: "hi" }], max_tokens: 10 });
  });
});
