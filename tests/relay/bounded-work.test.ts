// No input stalls the event loop (issue 15 §1): each of these prompts goes through
// /v1/chat/completions while /api/status is asked at the same time, and the status must come
// back before the big request does. Counting the prompt for the hold used to take minutes for
// the first two (the tokenizer's cost on long runs without spaces grows far faster than their
// length), during which the gateway answered nobody.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { addChannel, addToken, n, one, setOptions, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let key: string;

beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, { key: "sk-bounded", models: "gpt-4o-mini" });
  key = (await addToken(world.root, { name: "bounded" })).key;
  // The sensitive-word check reads every prompt too: a long list makes it part of the test.
  const words = Array.from({ length: 3000 }, (_, i) => `forbidden-word-${i}`);
  await setOptions(world, { SensitiveWords: words.join("\n") });
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

/** Sends the big request, then asks /api/status; returns which finished first and the big answer. */
async function raceStatus(body: unknown) {
  const order: string[] = [];
  const payload = JSON.stringify(body);
  const big = fetch(`${world.server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer sk-${key}` },
    body: payload,
  }).then(async (response) => {
    order.push("big");
    return { status: response.status, json: await response.json() };
  });
  // The status call leaves once the big request is on its way (its first bytes have left).
  await Bun.sleep(1);
  const status = fetch(`${world.server.url}/api/status`).then(async (response) => {
    order.push("status");
    return (await response.json()) as { success: boolean };
  });
  const [bigAnswer, statusAnswer] = await Promise.all([big, status]);
  expect(statusAnswer.success).toBe(true);
  return { order, bigAnswer, bytes: payload.length };
}

async function expectServedWithoutStall(body: unknown) {
  const { order, bigAnswer } = await raceStatus(body);
  expect(bigAnswer.status).toBe(200);
  expect(order).toEqual(["status", "big"]);
  // The request was held, billed and logged like any other.
  const log = await one(world, "select prompt_tokens, quota from logs where type = 2 order by id desc limit 1");
  expect(n(log.quota)).toBeGreaterThan(0);
  expect(world.upstream.received).toHaveLength(1);
}

describe("prompts that used to stall the gateway", () => {
  test("10 MB of one character", async () => {
    await expectServedWithoutStall({ model: "gpt-4o-mini", messages: [{ role: "user", content: "x".repeat(10 * 1024 * 1024) }] });
  });

  test("a 5 MB base64 image pasted into a text part", async () => {
    const image = new Uint8Array(3_750_000);
    for (let offset = 0; offset < image.length; offset += 65536) crypto.getRandomValues(image.subarray(offset, offset + 65536));
    const text = `data:image/png;base64,${Buffer.from(image).toString("base64")}`;
    await expectServedWithoutStall({
      model: "gpt-4o-mini",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is in this picture?" },
            { type: "text", text },
          ],
        },
      ],
    });
  });

  test("1 MB of Chinese", async () => {
    const clause = "在这个快速发展的时代人工智能技术正在深刻地改变着我们的生活方式和工作方式";
    let text = "";
    for (let i = 0; text.length < 1024 * 1024; i++) text += clause + (i % 7 === 0 ? "。" : "");
    await expectServedWithoutStall({ model: "gpt-4o-mini", messages: [{ role: "user", content: text }] });
  });

  test("100 000 short messages", async () => {
    const messages = Array.from({ length: 100_000 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `message ${i}` }));
    await expectServedWithoutStall({ model: "gpt-4o-mini", messages });
  });
});

describe("bodies the gateway cannot walk", () => {
  test("a body nested deeper than any request is refused with 400, not a stack overflow", async () => {
    const nested = `${"[".repeat(200_000)}"deep"${"]".repeat(200_000)}`;
    const body = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":${nested}}]}`;
    const response = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer sk-${key}` },
      body,
    });
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: { message: string; code: string } };
    expect(json.error.code).toBe("invalid_request");
    expect(json.error.message).toStartWith("请求体嵌套超过 128 层");
    expect(world.upstream.received).toHaveLength(0);
  });
});
