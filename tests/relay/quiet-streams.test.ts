// A stream may stay silent as long as STREAMING_TIMEOUT allows (a model thinking before it
// answers). Bun's server closes a connection on which nothing moved for its idle timeout (30 s,
// Elysia's default), and it did so to such streams: the client saw a reset connection after 30 s
// and was billed as a client that left. A stream now turns that timer off for its request and
// keeps its own (src/relay/pipeline/connection-idle.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { addChannel, addToken, n, one, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld({ STREAMING_TIMEOUT: "90" });
  await addChannel(world, { key: "sk-thinking", models: "gpt-4o-mini" });
  key = (await addToken(world.root, { name: "patient" })).key;
});
afterAll(() => world.stop());

test("a stream silent for 33 s, within STREAMING_TIMEOUT, reaches its end and is billed whole", async () => {
  // The role chunk at once, then 33 s of silence before the content.
  world.upstream.behave("sk-thinking", { chunks: 1, chunkDelayMs: 33_000, content: "Finally. ", completionTokens: 2 });
  const response = await fetch(`${world.server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "think first" }] }),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text).toContain("Finally.");
  expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  const log = await one(world, "select completion_tokens, content from logs where type = 2 order by id desc limit 1");
  expect(n(log.completion_tokens)).toBe(2);
  expect(String(log.content)).not.toContain("客户端断开");
}, 60_000);
