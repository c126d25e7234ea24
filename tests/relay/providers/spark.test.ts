// iFlytek Spark (18) through the real relay and the official openai client, against an in-process
// WebSocket imitation that verifies the signed URL and the request frame: the version's path and
// domain, the frames as a stream or folded into a whole answer, usage and quota, and each failure
// (a refused handshake, an error frame, a cut connection) with its verdict. Tools both ways as
// xfyun.cn's Web API documents function calling ("Spark 4.0Ultra、Max现已支持 … Function Call":
// payload.functions.text out, a text item's function_call back), refused on the other versions.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startSparkUpstream, type SparkUpstream } from "../../fixtures/spark-upstream.ts";
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
let spark: SparkUpstream;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  spark = await startSparkUpstream();
  key = (await addToken(world.root)).key;
  for (const name of ["a", "b", "c", "d", "e"]) spark.addApp(`app-${name}`, `key-${name}`, `secret-${name}`);
  const ratios: Record<string, number> = { "SparkDesk-v3.5": 1 };
  for (let index = 1; index <= 8; index++) ratios[`spark-${index}`] = 1;
  ratios["spark-tools"] = 1;
  ratios["spark-lite-tools"] = 1;
  await setOptions(world, { ModelRatio: JSON.stringify(ratios) });
});
afterAll(async () => {
  await world.stop();
  await spark.stop();
});
beforeEach(async () => {
  spark.reset();
  await setOptions(world, { RetryTimes: 0, AutomaticDisableChannelEnabled: true });
});

const frames = () => spark.received.filter((entry) => entry.method === "FRAME");
const handshakes = () => spark.received.filter((entry) => entry.method === "GET");
const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");
const channelStatus = async (id: number) => n((await one(world, "select status from channels where id = ?", id)).status);
/** A Spark channel (APPID|APISecret|APIKey) serving `alias` as `model`. */
const sparkChannel = (app: string, alias: string, model: string, extra: Record<string, unknown> = {}) =>
  addChannel(world, {
    type: ChannelType.Spark,
    key: `app-${app}|secret-${app}|key-${app}`,
    base_url: spark.url,
    models: alias,
    model_mapping: JSON.stringify({ [alias]: model }),
    ...extra,
  });

describe("iFlytek Spark (18)", () => {
  const weather = {
    type: "function" as const,
    function: { name: "weather", description: "城市天气", parameters: { type: "object", properties: { city: { type: "string" } } } },
  };

  test("tools both ways on Max: functions out, the function call back as tool_calls (whole and streamed), results carried as text", async () => {
    await sparkChannel("a", "spark-tools", "SparkDesk-v3.5");
    spark.behave("app-a", { functionCall: { name: "weather", arguments: '{"city":"合肥"}' } });
    const messages: any[] = [{ role: "user", content: "合肥天气怎样？" }];
    const answer = await openai(world, key).chat.completions.create({ model: "spark-tools", messages, tools: [weather] });
    expect(frames()[0]!.json.payload.functions).toEqual({
      text: [{ name: "weather", description: "城市天气", parameters: { type: "object", properties: { city: { type: "string" } } } }],
    });
    expect(answer.choices[0]!.finish_reason).toBe("tool_calls");
    const call = answer.choices[0]!.message.tool_calls![0]! as { id: string; function: { name: string; arguments: string } };
    expect([call.function.name, call.function.arguments]).toEqual(["weather", '{"city":"合肥"}']);
    expect([n((await lastLog()).prompt_tokens), n((await lastLog()).completion_tokens)]).toEqual([30, 12]);

    const stream = await openai(world, key).chat.completions.create({ model: "spark-tools", messages, tools: [weather], stream: true });
    let finish: string | null = null;
    const names: string[] = [];
    for await (const chunk of stream) {
      for (const tool of chunk.choices[0]?.delta?.tool_calls ?? []) if (tool.function?.name) names.push(tool.function.name);
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect([names, finish]).toEqual([["weather"], "tool_calls"]);

    spark.behave("app-a", {});
    messages.push({ role: "assistant", content: null, tool_calls: [call] }, { role: "tool", tool_call_id: call.id, content: "晴，25 度" });
    const final = await openai(world, key).chat.completions.create({ model: "spark-tools", messages, tools: [weather] });
    expect(final.choices[0]!.message.content).toBe("星火认知大模型，为您服务。");
    expect(frames().at(-1)!.json.payload.message.text).toEqual([
      { role: "user", content: "合肥天气怎样？" },
      { role: "assistant", content: '[调用 weather] {"city":"合肥"}' },
      { role: "user", content: "[weather 返回] 晴，25 度" },
    ]);
  });

  test("tools on a version without function calling, or a forced tool, are refused with 400 and nothing is sent", async () => {
    await sparkChannel("b", "spark-lite-tools", "SparkDesk-v1.1");
    const lite = await postRelay(world, "/v1/chat/completions", key, {
      model: "spark-lite-tools",
      messages: [{ role: "user", content: "hi" }],
      tools: [weather],
    });
    expect([lite.status, withoutRequestId(lite.json).error.message]).toEqual([
      400,
      "该星火版本不支持工具调用（只有 Max、Max-32K 和 4.0 Ultra 支持）",
    ]);
    await sparkChannel("c", "spark-tools", "SparkDesk-v4.0");
    const forced = await postRelay(world, "/v1/chat/completions", key, {
      model: "spark-tools",
      messages: [{ role: "user", content: "hi" }],
      tools: [weather],
      tool_choice: { type: "function", function: { name: "weather" } },
    });
    expect(forced.status).toBe(400);
    expect(frames()).toHaveLength(0);
  });

  test("a signed URL the imitation verifies; the model's version picks path and domain; the whole answer folded from frames", async () => {
    await sparkChannel("a", "spark-1", "SparkDesk-v3.5");
    const answer = await openai(world, key).chat.completions.create({
      model: "spark-1",
      messages: [
        { role: "system", content: "简短" },
        { role: "user", content: "你好" },
      ],
      temperature: 0.5,
      max_tokens: 64,
    });
    expect(answer.object).toBe("chat.completion");
    expect(answer.choices[0]!.message.content).toBe("星火认知大模型，为您服务。");
    expect(answer.usage).toEqual({ prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 });
    const handshake = handshakes()[0]!;
    expect(handshake.path).toBe("/v3.5/chat");
    expect(Object.keys(handshake.query).sort()).toEqual(["authorization", "date", "host"]);
    expect(Buffer.from(handshake.query.authorization!, "base64").toString()).toMatch(
      /^api_key="key-a", algorithm="hmac-sha256", headers="host date request-line", signature="[A-Za-z0-9+/]+=*"$/,
    );
    expect(frames()[0]!.json).toEqual({
      header: { app_id: "app-a" },
      parameter: { chat: { domain: "generalv3.5", temperature: 0.5, max_tokens: 64 } },
      payload: {
        message: {
          text: [
            { role: "system", content: "简短" },
            { role: "user", content: "你好" },
          ],
        },
      },
    });
    const log = await lastLog();
    expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([7, 9, 16]);
  });

  test("without a version in the model name, the channel's (default v2.1) decides", async () => {
    const id = await sparkChannel("b", "spark-2", "SparkDesk");
    expect((await one(world, "select other from channels where id = ?", id)).other).toBe("v2.1");
    await openai(world, key).chat.completions.create({ model: "spark-2", messages: [{ role: "user", content: "hi" }] });
    expect(handshakes()[0]!.path).toBe("/v2.1/chat");
    expect(frames()[0]!.json.parameter.chat.domain).toBe("generalv2");
    await sparkChannel("b", "spark-3", "SparkDesk", { other: "max-32k" });
    await openai(world, key).chat.completions.create({ model: "spark-3", messages: [{ role: "user", content: "hi" }] });
    expect(handshakes()[1]!.path).toBe("/chat/max-32k");
  });

  test("a stream: one chunk per frame, and the usage chunk from the last frame", async () => {
    await sparkChannel("c", "spark-4", "SparkDesk-v4.0");
    const stream = await openai(world, key).chat.completions.create({
      model: "spark-4",
      messages: [{ role: "user", content: "你好" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    let usage: unknown;
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta?.content;
      if (text) pieces.push(text);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces).toEqual(["星火认知", "大模型，", "为您服务。"]);
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 });
    expect(handshakes()[0]!.path).toBe("/v4.0/chat");
    expect(frames()[0]!.json.parameter.chat.domain).toBe("4.0Ultra");
  });

  test("a wrong APISecret: the handshake's 401 and iFlytek's words, the channel disabled", async () => {
    const id = await addChannel(world, {
      type: ChannelType.Spark,
      key: "app-d|not-the-secret|key-d",
      base_url: spark.url,
      models: "spark-5",
      model_mapping: '{"spark-5":"SparkDesk-v3.5"}',
    });
    const response = await postRelay(world, "/v1/chat/completions", key, { model: "spark-5", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(401);
    expect(withoutRequestId(response.json).error).toMatchObject({ message: "HMAC signature does not match", type: "authentication_error" });
    expect(frames()).toHaveLength(0);
    expect(await channelStatus(id)).toBe(3);
  });

  test("a rate-limit frame (11202) is a 429 retried elsewhere; an exhausted allowance (11200) disables", async () => {
    await setOptions(world, { RetryTimes: 1 });
    const busy = await sparkChannel("d", "spark-6", "SparkDesk-v3.5", { priority: 5 });
    await sparkChannel("e", "spark-6", "SparkDesk-v3.5", { priority: 1 });
    spark.behave("app-d", { errorCode: 11202 });
    const answered = await postRelay(world, "/v1/chat/completions", key, { model: "spark-6", messages: [{ role: "user", content: "hi" }] });
    expect(answered.status).toBe(200);
    expect(frames().map((entry) => entry.who)).toEqual(["app-d", "app-e"]);
    expect(await channelStatus(busy)).toBe(1);
    await setOptions(world, { RetryTimes: 0 });
    spark.behave("app-d", { errorCode: 11200 });
    const refused = await postRelay(world, "/v1/chat/completions", key, { model: "spark-6", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(403);
    expect(withoutRequestId(refused.json).error).toMatchObject({
      message: "imitated error 11200",
      type: "insufficient_quota",
      code: 11200,
    });
    expect(await channelStatus(busy)).toBe(3);
  });

  test("a connection cut mid-answer ends the client's stream with an error event, billed for what came", async () => {
    await sparkChannel("c", "spark-7", "SparkDesk-v3.1");
    spark.behave("app-c", { cutAfter: 2 });
    const response = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "spark-7", messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    const text = await response.text();
    expect(text).toContain('"content":"大模型，"');
    expect(text).toContain('"code":"upstream_stream_broken"');
    expect(text).not.toContain("[DONE]");
    const log = await lastLog();
    expect(n(log.completion_tokens)).toBeGreaterThan(0);
    expect(log.content).toContain("上游中断");
  });

  test("an endpoint Spark does not serve fails locally (501), nothing reaches iFlytek", async () => {
    await addChannel(world, { type: ChannelType.Spark, key: "app-a|secret-a|key-a", base_url: spark.url, models: "spark-8" });
    const response = await postRelay(world, "/v1/embeddings", key, { model: "spark-8", input: "x" });
    expect(response.status).toBe(501);
    expect(withoutRequestId(response.json).error).toEqual({
      message: "尚未实现",
      type: "new_api_error",
      param: "",
      code: "convert_request_failed",
    });
    expect(spark.received).toHaveLength(0);
  });

  test("the channel test goes through the WebSocket", async () => {
    const id = await addChannel(world, {
      type: ChannelType.Spark,
      key: "app-a|secret-a|key-a",
      base_url: spark.url,
      models: "SparkDesk-v3.5",
    });
    const result = await world.root.get(`/api/channel/test/${id}`);
    expect(result.body.success).toBe(true);
    expect(frames().at(-1)!.json.parameter.chat).toEqual({ domain: "generalv3.5", max_tokens: 10 });
  });
});
