// The OpenAI-compatible family on the wire, through the relay: each kind's URL layout, auth
// header and body quirks as the upstream receives them.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { addChannel, addToken, n, one, openai, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let world: RelayWorld;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  key = (await addToken(world.root)).key;
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const ask = (model: string, extra: Record<string, unknown> = {}) =>
  openai(world, key).chat.completions.create({ model, messages: [{ role: "user", content: "hi" }], ...extra } as never);

async function streamText(model: string) {
  const stream = await openai(world, key).chat.completions.create({ model, messages: [{ role: "user", content: "hi" }], stream: true });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
  return text;
}

test("Azure: deployment URL, api-version from the channel, api-key header", async () => {
  await addChannel(world, { type: ChannelType.Azure, key: "azure-key-1", models: "gpt-4o", other: "2024-10-21" });
  await ask("gpt-4o");
  const received = world.upstream.received[0]!;
  expect(received.path).toBe("/openai/deployments/gpt-4o/chat/completions");
  expect(received.query["api-version"]).toBe("2024-10-21");
  expect(received.headers["api-key"]).toBe("azure-key-1");
  expect(received.headers.authorization).toBeUndefined();
});

test("Azure without a version uses 2023-06-01-preview, which predates stream usage: counted locally", async () => {
  await addChannel(world, { type: ChannelType.Azure, key: "azure-key-2", models: "gpt-35-turbo", other: "" });
  expect(await streamText("gpt-35-turbo")).toBe("Hello from the ");
  const received = world.upstream.received[0]!;
  expect(received.query["api-version"]).toBe("2023-06-01-preview");
  expect(received.json.stream_options).toBeUndefined();
  const log = await one(world, "select completion_tokens, content from logs where type = 2 order by id desc limit 1");
  expect(n(log.completion_tokens)).toBeGreaterThan(0);
  expect(log.content).toContain("本地计数");
});

test("Custom: the full URL with {model}", async () => {
  await addChannel(world, {
    type: ChannelType.Custom,
    key: "custom-key",
    models: "my-custom-model",
    base_url: `${world.upstream.url}/gateway/{model}/chat/completions`,
    model_mapping: '{"my-custom-model":"upstream-name"}',
  });
  await world.root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "my-custom-model": 1 }) });
  await ask("my-custom-model");
  expect(world.upstream.received[0]!.path).toBe("/gateway/upstream-name/chat/completions");
  expect(world.upstream.received[0]!.headers.authorization).toBe("Bearer custom-key");
});

test("OpenAI: the organization header", async () => {
  await addChannel(world, { type: ChannelType.OpenAI, key: "org-key", models: "gpt-4.1", openai_organization: "org-42" });
  await ask("gpt-4.1");
  expect(world.upstream.received[0]!.headers["openai-organization"]).toBe("org-42");
});

test("DeepSeek and Ollama get stream_options; Moonshot, 01.AI and 360 never do", async () => {
  await addChannel(world, { type: ChannelType.DeepSeek, key: "deepseek-key", models: "deepseek-chat" });
  await addChannel(world, { type: ChannelType.Ollama, key: "ollama-key", models: "qwen2.5" });
  await addChannel(world, { type: ChannelType.Moonshot, key: "moonshot-key", models: "moonshot-v1-8k" });
  await addChannel(world, { type: ChannelType.ZeroOne, key: "yi-key", models: "yi-large" });
  await addChannel(world, { type: ChannelType.AI360, key: "360-key", models: "360gpt-pro" });
  for (const model of ["deepseek-chat", "qwen2.5", "moonshot-v1-8k", "yi-large", "360gpt-pro"])
    expect(await streamText(model)).toBe("Hello from the ");
  const options = Object.fromEntries(world.upstream.received.map((entry) => [entry.key, entry.json.stream_options ?? null]));
  expect(options).toEqual({
    "deepseek-key": { include_usage: true },
    "ollama-key": { include_usage: true },
    "moonshot-key": null,
    "yi-key": null,
    "360-key": null,
  });
  expect(world.upstream.received.every((entry) => entry.path === "/v1/chat/completions")).toBe(true);
});

test("Mistral receives only the fields it accepts", async () => {
  await addChannel(world, { type: ChannelType.Mistral, key: "mistral-key", models: "mistral-small-latest" });
  await ask("mistral-small-latest", { user: "someone", temperature: 0.3, logit_bias: { "1": 1 } });
  expect(world.upstream.received[0]!.json).toEqual({
    model: "mistral-small-latest",
    messages: [{ role: "user", content: "hi" }],
    temperature: 0.3,
  });
});

test("SiliconCloud rerank", async () => {
  await addChannel(world, { type: ChannelType.SiliconCloud, key: "silicon-key", models: "BAAI/bge-reranker-v2-m3" });
  await world.root.put("/api/option/", {
    key: "ModelRatio",
    value: JSON.stringify({ "my-custom-model": 1, "BAAI/bge-reranker-v2-m3": 0.1 }),
  });
  const response = await fetch(`${world.server.url}/v1/rerank`, {
    method: "POST",
    headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "BAAI/bge-reranker-v2-m3", query: "q", documents: ["a"] }),
  });
  expect(response.status).toBe(200);
  expect(world.upstream.received[0]!.path).toBe("/v1/rerank");
});

test("balances the vendors report: DeepSeek's USD total, SiliconCloud's totalBalance, Moonshot's available balance", async () => {
  const deepseek = await addChannel(world, { type: ChannelType.DeepSeek, key: "deepseek-balance", models: "deepseek-chat" });
  const silicon = await addChannel(world, { type: ChannelType.SiliconCloud, key: "silicon-balance", models: "Qwen/Qwen2.5-7B-Instruct" });
  const moonshot = await addChannel(world, { type: ChannelType.Moonshot, key: "moonshot-balance", models: "moonshot-v1-8k" });
  const balanceOf = async (id: number) => (await world.root.get(`/api/channel/update_balance/${id}/`)).body.balance;
  expect([await balanceOf(deepseek), await balanceOf(silicon), await balanceOf(moonshot)]).toEqual([12.25, 9.75, 49.58894]);
  expect(world.upstream.received.map((entry) => [entry.key, entry.method, entry.path])).toEqual([
    ["deepseek-balance", "GET", "/user/balance"],
    ["silicon-balance", "GET", "/v1/user/info"],
    ["moonshot-balance", "GET", "/v1/users/me/balance"],
  ]);
  expect(n((await one(world, "select balance from channels where id = ?", moonshot)).balance)).toBe(49.58894);
});
