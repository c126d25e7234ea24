// Moonshot (channel type 25) streams through the real gateway with the official openai client. The
// imitation follows Moonshot's streaming guide ("使用 Kimi API 的流式输出功能", platform.moonshot.cn
// /docs/guide/utilize-the-streaming-output-feature-of-kimi-api): usage is never asked for, it
// arrives by itself inside the finishing choice (`choices[0].usage` of the last chunk). The relay
// bills that figure, and a client sees one usage figure: OpenAI's usage chunk when it asked for
// usage (the choice's copy taken out), the vendor's chunk as it is when it did not. Images: Kimi's
// chat reference ("创建对话补全", platform.kimi.com/docs/api/chat) takes an image_url as base64 or
// an ms:// file id only, so a link is downloaded and sent as a data: URL.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { catBase64, startImageHost, type ImageHost } from "../../fixtures/image-host.ts";
import { addChannel, addToken, n, one, openai, setOptions, startRelayWorld, type RelayWorld } from "../../helpers/relay-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let key: string;
let images: ImageHost;

beforeAll(async () => {
  images = startImageHost();
  world = await startRelayWorld({ OUTBOUND_ALLOWED_HOSTS: "localhost" });
  key = (await addToken(world.root)).key;
  await setOptions(world, { ModelRatio: JSON.stringify({ "kimi-stream": 1 }), CompletionRatio: JSON.stringify({ "kimi-stream": 2 }) });
  await addChannel(world, { type: ChannelType.Moonshot, key: "moonshot-stream-key", models: "kimi-stream" });
  // Kimi's figures from the guide's example: 19 prompt, 13 completion, 32 in all.
  world.upstream.behave("moonshot-stream-key", { usage: "in-choice", promptTokens: 19, completionTokens: 13, chunks: 2 });
});
afterAll(async () => {
  await world.stop();
  await images.stop();
});
beforeEach(() => world.upstream.received.splice(0));

const lastLog = () => one(world, "select * from logs where type = 2 order by id desc limit 1");

async function chunksOf(includeUsage: boolean) {
  const stream = await openai(world, key).chat.completions.create({
    model: "kimi-stream",
    messages: [{ role: "user", content: "你好，我叫李雷，1+1等于多少？" }],
    stream: true,
    ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
  });
  const chunks: any[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

test("a client asking for usage gets one usage chunk with Kimi's figures; the choice's copy is taken out", async () => {
  const chunks = await chunksOf(true);
  // Moonshot does not document stream_options: the relay does not send it.
  expect(world.upstream.received[0]!.json.stream_options).toBeUndefined();
  const withUsage = chunks.filter((chunk) => chunk.usage);
  expect(withUsage).toHaveLength(1);
  expect(withUsage[0].usage).toEqual({ prompt_tokens: 19, completion_tokens: 13, total_tokens: 32 });
  expect(withUsage[0].choices).toEqual([]);
  expect(chunks.some((chunk) => chunk.choices.some((choice: any) => choice.usage))).toBe(false);
  expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Hello from ");
  const log = await lastLog();
  // Billed from the vendor's figure, not counted locally: 19 + 13 x 2 = 45.
  expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([19, 13, 45]);
  expect(log.content).not.toContain("本地计数");
});

test("a client that did not ask sees Kimi's chunk as sent (its only usage), and the call is billed from it", async () => {
  const chunks = await chunksOf(false);
  expect(chunks.filter((chunk) => chunk.usage)).toHaveLength(0);
  const inChoice = chunks.filter((chunk) => chunk.choices[0]?.usage);
  expect(inChoice).toHaveLength(1);
  expect(inChoice[0].choices[0].usage).toEqual({ prompt_tokens: 19, completion_tokens: 13, total_tokens: 32 });
  expect(inChoice[0].choices[0].finish_reason).toBe("stop");
  const log = await lastLog();
  expect([n(log.prompt_tokens), n(log.completion_tokens), n(log.quota)]).toEqual([19, 13, 45]);
});

test("an image link reaches Kimi as a base64 data: URL (its only inline form)", async () => {
  await openai(world, key).chat.completions.create({
    model: "kimi-stream",
    messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: `${images.url}/cat.png`, detail: "low" } }] }],
  });
  expect(world.upstream.received[0]!.json.messages[0].content).toEqual([
    { type: "image_url", image_url: { url: `data:image/png;base64,${catBase64}`, detail: "low" } },
  ]);
});
