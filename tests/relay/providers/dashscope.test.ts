// Alibaba Qwen on DashScope's native API (17) through the real relay and the official openai
// client: the native body and headers (incremental SSE, the plugin header), answers whole and
// streamed, tools, vision, embeddings, image tasks polled to their end, usage and quota, and
// the failures with their verdicts. Images by the model's capability (Model Studio's "视觉理解",
// "全模态" and "Add visual understanding capabilities" pages): vision models on the multimodal
// endpoint, Qwen3.5 there only when the call has images, a text model's images refused (400).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startDashScopeUpstream, type DashScopeUpstream } from "../../fixtures/dashscope-upstream.ts";
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
let dash: DashScopeUpstream;
let key: string;

beforeAll(async () => {
  // RELAY_TIMEOUT bounds an image task's polling within the call.
  world = await startRelayWorld({ RELAY_TIMEOUT: "4" });
  dash = await startDashScopeUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["one", "two", "three", "four", "five", "six"]) dash.addKey(`sk-ds-${name}`);
  const ratios: Record<string, number> = { "qwen-vl-plus": 1, "text-embedding-v1": 0.5, "qwen-plus": 1, "qwen3.5-plus": 1 };
  for (let index = 1; index <= 8; index++) ratios[`qwen-${index}`] = 1;
  await setOptions(world, {
    ModelRatio: JSON.stringify(ratios),
    CompletionRatio: JSON.stringify({ "qwen-1": 3 }),
    ModelPrice: JSON.stringify({ "wanx-v1": 0.02 }),
  });
});
afterAll(async () => {
  await world.stop();
  await dash.stop();
});
beforeEach(async () => {
  dash.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
const generations = () => dash.received.filter((entry) => entry.path.endsWith("/generation"));
/** A DashScope channel serving `alias` as the Qwen model `model`. */
const qwenChannel = (apiKey: string, alias: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.DashScope,
    key: apiKey,
    base_url: dash.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: model }),
    ...extra,
  });

describe("Alibaba Qwen on DashScope (17)", () => {
  test("a whole answer: the native body, Bearer key, the plugin header; usage and quota", async () => {
    await qwenChannel("sk-ds-one", "qwen-1", "qwen-plus", { other: '{"pdf_extracter":{}}' });
    const answer = await openai(world, key).chat.completions.create({
      model: "qwen-1",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "你好" },
      ],
      top_p: 0.8,
      max_tokens: 30,
    });
    expect(answer.choices[0]!.message.content).toBe("我是通义千问。");
    expect(answer.usage).toEqual({ prompt_tokens: 8, completion_tokens: 5, total_tokens: 13 });
    const request = generations()[0]!;
    expect(request.path).toBe("/api/v1/services/aigc/text-generation/generation");
    expect(request.headers.authorization).toBe("Bearer sk-ds-one");
    expect(request.headers["x-dashscope-plugin"]).toBe('{"pdf_extracter":{}}');
    expect(request.headers["x-dashscope-sse"]).toBeUndefined();
    expect(request.json).toEqual({
      model: "qwen-plus",
      input: {
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: "你好" },
        ],
      },
      parameters: { result_format: "message", top_p: 0.8, max_tokens: 30 },
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([8, 5, 8 + 5 * 3]);
  });

  test("a stream: X-DashScope-SSE with incremental output, OpenAI chunks, the usage chunk", async () => {
    await qwenChannel("sk-ds-one", "qwen-2", "qwen-turbo");
    const stream = await openai(world, key).chat.completions.create({
      model: "qwen-2",
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
    expect(text).toBe("我是通义千问。");
    expect(usage).toEqual({ prompt_tokens: 8, completion_tokens: 5, total_tokens: 13 });
    expect(generations()[0]!.headers["x-dashscope-sse"]).toBe("enable");
    expect(generations()[0]!.json.parameters).toEqual({ result_format: "message", incremental_output: true });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([8, 5, 13]);
  });

  test("tools, and vision models on the multimodal endpoint", async () => {
    await qwenChannel("sk-ds-two", "qwen-3", "qwen-max");
    dash.behave("sk-ds-two", { toolCall: { name: "weather", arguments: '{"city":"杭州"}' } });
    const tools = [{ type: "function" as const, function: { name: "weather", parameters: { type: "object", properties: {} } } }];
    const answer = await openai(world, key).chat.completions.create({
      model: "qwen-3",
      messages: [{ role: "user", content: "杭州天气" }],
      tools,
    });
    expect(generations()[0]!.json.parameters.tools).toEqual(tools);
    expect(answer.choices[0]!.finish_reason).toBe("tool_calls");
    expect(answer.choices[0]!.message.tool_calls).toEqual([
      { id: "call_ds1", type: "function", function: { name: "weather", arguments: '{"city":"杭州"}' } },
    ]);

    await addChannel(world, { type: ChannelType.DashScope, key: "sk-ds-two", base_url: dash.url, models: "qwen-vl-plus" });
    dash.behave("sk-ds-two", {});
    await openai(world, key).chat.completions.create({
      model: "qwen-vl-plus",
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
            { type: "text", text: "这是什么" },
          ],
        },
      ],
    });
    const vision = generations().at(-1)!;
    expect(vision.path).toBe("/api/v1/services/aigc/multimodal-generation/generation");
    expect(vision.json.input.messages).toEqual([
      { role: "user", content: [{ image: "https://example.com/cat.png" }, { text: "这是什么" }] },
    ]);
  });

  test("images follow the model's capability: a text model refuses them, Qwen3.5 takes them on the multimodal endpoint", async () => {
    await addChannel(world, { type: ChannelType.DashScope, key: "sk-ds-two", base_url: dash.url, models: "qwen-plus,qwen3.5-plus" });
    const withImage = (model: string) => ({
      model,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Describe" },
            { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
          ],
        },
      ],
    });
    const before = dash.received.length;
    const refused = await postRelay(world, "/v1/chat/completions", key, withImage("qwen-plus"));
    expect([refused.status, withoutRequestId(refused.json).error.message]).toEqual([400, "模型 qwen-plus 不支持图片输入"]);
    expect(dash.received.length).toBe(before);
    await postRelay(world, "/v1/chat/completions", key, withImage("qwen3.5-plus"));
    expect(dash.received.at(-1)!.path).toBe("/api/v1/services/aigc/multimodal-generation/generation");
    expect(dash.received.at(-1)!.json.input.messages).toEqual([
      { role: "user", content: [{ image: "https://example.com/cat.png" }, { text: "Describe" }] },
    ]);
    await openai(world, key).chat.completions.create({ model: "qwen3.5-plus", messages: [{ role: "user", content: "Describe" }] });
    expect(dash.received.at(-1)!.path).toBe("/api/v1/services/aigc/text-generation/generation");
    expect(dash.received.at(-1)!.json.input.messages).toEqual([{ role: "user", content: "Describe" }]);
  });

  test("embeddings: input.texts out, vectors back in input order (base64 for the SDK)", async () => {
    await addChannel(world, { type: ChannelType.DashScope, key: "sk-ds-three", base_url: dash.url, models: "text-embedding-v1" });
    const result = await openai(world, key).embeddings.create({ model: "text-embedding-v1", input: ["甲", "乙"] });
    expect(result.data.map((item) => item.embedding)).toEqual([
      [0.5, -1],
      [1.5, -1],
    ]);
    const request = dash.received.at(-1)!;
    expect(request.path).toBe("/api/v1/services/embeddings/text-embedding/text-embedding");
    expect(request.json).toEqual({ model: "text-embedding-v1", input: { texts: ["甲", "乙"] }, parameters: {} });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.quota)]).toEqual([6, 3]);
  });

  test("image generation: an asynchronous task polled to its end in one call, billed per image", async () => {
    await addChannel(world, { type: ChannelType.DashScope, key: "sk-ds-four", base_url: dash.url, models: "wanx-v1" });
    const before = n((await one(world, "select used_quota from users where id = 1")).used_quota);
    const result = await openai(world, key).images.generate({ model: "wanx-v1", prompt: "一只猫", size: "1024x1024", n: 2 });
    expect(result.data!.map((image) => image.url)).toEqual([
      expect.stringMatching(/\/files\/.+-0\.png$/),
      expect.stringMatching(/\/files\/.+-1\.png$/),
    ]);
    const [submit, ...polls] = dash.received;
    expect(submit!.headers["x-dashscope-async"]).toBe("enable");
    expect(submit!.json).toEqual({ model: "wanx-v1", input: { prompt: "一只猫" }, parameters: { size: "1024*1024", n: 2 } });
    expect(polls.length).toBe(2);
    expect(
      polls.every(
        (poll) => poll.method === "GET" && poll.path.startsWith("/api/v1/tasks/") && poll.headers.authorization === "Bearer sk-ds-four",
      ),
    ).toBe(true);
    const after = n((await one(world, "select used_quota from users where id = 1")).used_quota);
    expect(after - before).toBe(0.02 * 500_000 * 2);

    const encoded = await postRelay(world, "/v1/images/generations", key, {
      model: "wanx-v1",
      prompt: "一只狗",
      response_format: "b64_json",
    });
    expect(encoded.json.data).toEqual([{ b64_json: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString("base64") }]);
    expect(dash.received.some((entry) => "x-relay-image-format" in entry.headers)).toBe(false);
  });

  test("a failed task is the answer's error with the status its code stands for", async () => {
    await setOptions(world, { RetryTimes: 2 });
    await addChannel(world, { type: ChannelType.DashScope, key: "sk-ds-five", base_url: dash.url, models: "wanx-v1", priority: 100 });
    dash.behave("sk-ds-five", { taskFails: "DataInspectionFailed" });
    const response = await postRelay(world, "/v1/images/generations", key, { model: "wanx-v1", prompt: "x" });
    expect(response.status).toBe(400);
    expect(withoutRequestId(response.json).error).toMatchObject({ message: "imitated task failure", code: "DataInspectionFailed" });
    expect(dash.received.filter((entry) => entry.method === "POST").length).toBe(1);
  });

  test("a task that does not finish is given up at RELAY_TIMEOUT: polling stops, nothing is charged", async () => {
    await addChannel(world, { type: ChannelType.DashScope, key: "sk-ds-six", base_url: dash.url, models: "wanx-v1", priority: 200 });
    dash.behave("sk-ds-six", { pendingPolls: 1000 });
    const before = await one(world, "select used_quota, (select count(*) from logs where type = 2) as logs from users where id = 1");
    const response = await postRelay(world, "/v1/images/generations", key, { model: "wanx-v1", prompt: "一座永远画不完的山" });
    expect(response.status).toBe(504);
    const polls = () => dash.received.filter((entry) => entry.method === "GET" && entry.path.startsWith("/api/v1/tasks/")).length;
    const polled = polls();
    expect(polled).toBeGreaterThan(0);
    // Polls are two seconds apart by now: one more would have come if polling went on.
    await Bun.sleep(2500);
    expect(polls()).toBe(polled);
    const after = await one(world, "select used_quota, (select count(*) from logs where type = 2) as logs from users where id = 1");
    expect([n(after.used_quota), n(after.logs)]).toEqual([n(before.used_quota), n(before.logs)]);
  });

  test("an invalid key disables; a rate limit is retried and disables nothing; an error event at the start is not retried", async () => {
    const dead = await qwenChannel("sk-ds-unknown", "qwen-5", "qwen-plus");
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "qwen-5", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(401);
    expect(withoutRequestId(refused.json).error).toMatchObject({
      message: "Invalid API-key provided.",
      type: "authentication_error",
      code: "InvalidApiKey",
    });
    expect(await channelStatus(dead)).toBe(3);

    dash.reset();
    await setOptions(world, { RetryTimes: 1 });
    const busy = await qwenChannel("sk-ds-one", "qwen-6", "qwen-plus", { priority: 5 });
    await qwenChannel("sk-ds-two", "qwen-6", "qwen-plus", { priority: 1 });
    dash.behave("sk-ds-one", { status: 429 });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "qwen-6", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(generations().map((entry) => entry.who)).toEqual(["sk-ds-one", "sk-ds-two"]);
    expect(await channelStatus(busy)).toBe(1);

    dash.reset();
    await qwenChannel("sk-ds-six", "qwen-7", "qwen-plus");
    dash.behave("sk-ds-six", { errorInStream: true });
    const filtered = await postRelay(world, "/v1/chat/completions", key, {
      model: "qwen-7",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    expect(filtered.status).toBe(400);
    expect(withoutRequestId(filtered.json).error).toMatchObject({ code: "DataInspectionFailed", type: "content_filter" });
    expect(generations()).toHaveLength(1);
  });

  test("the channel test reaches DashScope through the adaptor", async () => {
    const id = await addChannel(world, { type: ChannelType.DashScope, key: "sk-ds-three", base_url: dash.url, models: "qwen-8" });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(generations().at(-1)!.json).toEqual({
      model: "qwen-8",
      input: { messages: [{ role: "user", content: "hi" }] },
      parameters: { result_format: "message", max_tokens: 10 },
    });
  });
});
