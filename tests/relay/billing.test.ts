// Billing to the last quota unit: ratio, completion ratio, group ratio, fixed price,
// mapped models, images, speech, local counting when the upstream reports no usage, refunds on
// failure, and the one settlement moving user, token, channel and log together.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { countChatPromptTokens, countTextTokens } from "../../src/services/billing/token-counter.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  openai,
  postRelay,
  reservedFor,
  setOptions,
  startRelayWorld,
  type RelayWorld,
} from "../helpers/relay-world.ts";

let world: RelayWorld;
let channelId: number;
/** Root's unlimited token for the reservation probe. */
let probe: { key: string };
const messages = [{ role: "user", content: "How much does this cost?" }];

beforeAll(async () => {
  world = await startRelayWorld();
  channelId = await addChannel(world, {
    key: "sk-billing",
    models: "gpt-4o,gpt-4o-mini,o3-mini,my-fixed-model,dall-e-2,dall-e-3,tts-1,text-embedding-3-small,alias-4o",
    group: "default,vip",
    model_mapping: '{"alias-4o":"gpt-4o"}',
  });
  await setOptions(world, { ModelPrice: JSON.stringify({ "my-fixed-model": 0.02 }), ModelRatio: JSON.stringify({ "alias-4o": 0.5 }) });
  probe = await addToken(world.root, { name: "probe" });
});

const nothingReserved = async () => expect(await reservedFor(world, { userId: 1, tokenKey: probe.key })).toBe(false);
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

type Balances = {
  userQuota: number;
  userUsed: number;
  requests: number;
  tokenRemain: number;
  tokenUsed: number;
  channelUsed: number;
  logs: number;
};

async function balances(tokenId: number): Promise<Balances> {
  const user = await one(world, "select quota, used_quota, request_count from users where id = 1");
  const token = await one(world, "select remain_quota, used_quota from tokens where id = ?", tokenId);
  const channel = await one(world, "select used_quota from channels where id = ?", channelId);
  const logs = await one(world, "select count(*) as count from logs where type = 2");
  return {
    userQuota: n(user.quota),
    userUsed: n(user.used_quota),
    requests: n(user.request_count),
    tokenRemain: n(token.remain_quota),
    tokenUsed: n(token.used_quota),
    channelUsed: n(channel.used_quota),
    logs: n(logs.count),
  };
}

/** Runs a call and checks that exactly `quota` moved everywhere, with one log of that amount. */
async function expectCharge(tokenId: number, quota: number, call: () => Promise<unknown>) {
  const before = await balances(tokenId);
  await call();
  const after = await balances(tokenId);
  expect({
    user: before.userQuota - after.userQuota,
    used: after.userUsed - before.userUsed,
    requests: after.requests - before.requests,
    tokenRemain: before.tokenRemain - after.tokenRemain,
    tokenUsed: after.tokenUsed - before.tokenUsed,
    channel: after.channelUsed - before.channelUsed,
    logs: after.logs - before.logs,
  }).toEqual({ user: quota, used: quota, requests: 1, tokenRemain: quota, tokenUsed: quota, channel: quota, logs: 1 });
  const log = await one(world, "select * from logs where type = 2 order by id desc limit 1");
  expect(n(log.quota)).toBe(quota);
  await nothingReserved();
  return log;
}

describe("the ratio formula", () => {
  let token: { id: number; key: string };
  beforeAll(async () => {
    token = await addToken(world.root, { name: "limited", unlimited_quota: false, remain_quota: 10_000_000 });
  });

  test("model ratio and completion ratio: (100 + 50 x 4) x 1.25 = 375", async () => {
    world.upstream.behave("sk-billing", { promptTokens: 100, completionTokens: 50 });
    const log = await expectCharge(token.id, 375, () =>
      openai(world, token.key).chat.completions.create({ model: "gpt-4o", messages: messages as never }),
    );
    expect(log.content).toBe("模型倍率 1.25，补全倍率 4.00，分组倍率 1.00");
    const other = JSON.parse(log.other);
    expect(other).toMatchObject({
      model_ratio: 1.25,
      completion_ratio: 4,
      group_ratio: 1,
      model_price: -1,
      admin_info: { use_channel: [String(channelId)] },
    });
    expect(other.frt).toBeGreaterThanOrEqual(0);
    expect([n(log.prompt_tokens), n(log.completion_tokens), log.token_name, log.username, log.group]).toEqual([
      100,
      50,
      "limited",
      "root",
      "default",
    ]);
    // The token's last use is recorded with the settlement.
    expect(n((await one(world, "select accessed_time from tokens where id = ?", token.id)).accessed_time)).toBeGreaterThanOrEqual(
      n(log.created_at),
    );
  });

  test("options override the built-in ratios", async () => {
    await setOptions(world, { CompletionRatio: JSON.stringify({ "gpt-4o": 2 }) });
    world.upstream.behave("sk-billing", { promptTokens: 100, completionTokens: 50 });
    await expectCharge(token.id, 250, () =>
      openai(world, token.key).chat.completions.create({ model: "gpt-4o", messages: messages as never }),
    );
    await setOptions(world, { CompletionRatio: "{}", ModelRatio: JSON.stringify({ "alias-4o": 0.5, "gpt-4o": 2 }) });
    world.upstream.behave("sk-billing", { promptTokens: 100, completionTokens: 50 });
    await expectCharge(token.id, 600, () =>
      openai(world, token.key).chat.completions.create({ model: "gpt-4o", messages: messages as never }),
    );
    await setOptions(world, { ModelRatio: JSON.stringify({ "alias-4o": 0.5 }) });
  });

  test("the group ratio of the token's group", async () => {
    await setOptions(world, { GroupRatio: JSON.stringify({ default: 1, vip: 1.5, svip: 1 }) });
    const vip = await addToken(world.root, { name: "vip", group: "vip", unlimited_quota: false, remain_quota: 1_000_000 });
    world.upstream.behave("sk-billing", { promptTokens: 100, completionTokens: 50 });
    const log = await expectCharge(vip.id, 563, () =>
      openai(world, vip.key).chat.completions.create({ model: "gpt-4o", messages: messages as never }),
    );
    expect(log.group).toBe("vip");
    expect(JSON.parse(log.other).group_ratio).toBe(1.5);
    await setOptions(world, { GroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }) });
  });

  test("a fixed price per call wins, whatever the tokens", async () => {
    world.upstream.behave("sk-billing", { promptTokens: 9999, completionTokens: 9999 });
    const log = await expectCharge(token.id, 10_000, () =>
      openai(world, token.key).chat.completions.create({ model: "my-fixed-model", messages: messages as never }),
    );
    expect(log.content).toBe("模型价格 0.02，分组倍率 1.00");
    expect(JSON.parse(log.other).model_price).toBe(0.02);
  });

  test("a mapped model is priced by the name the client asked for", async () => {
    world.upstream.behave("sk-billing", { promptTokens: 100, completionTokens: 50 });
    // alias-4o has ratio 0.5 (gpt-4o would be 1.25) and the family completion ratio 1.
    const log = await expectCharge(token.id, 75, () =>
      openai(world, token.key).chat.completions.create({ model: "alias-4o", messages: messages as never }),
    );
    expect(world.upstream.received[0]!.json.model).toBe("gpt-4o");
    expect(JSON.parse(log.other)).toMatchObject({ is_model_mapped: true, upstream_model_name: "gpt-4o" });
  });

  test("the reasoning effort is logged", async () => {
    world.upstream.behave("sk-billing", { promptTokens: 10, completionTokens: 10 });
    const log = await expectCharge(token.id, Math.round((10 + 10 * 4) * 0.55), () =>
      openai(world, token.key).chat.completions.create({ model: "o3-mini", messages: messages as never, reasoning_effort: "high" }),
    );
    expect(JSON.parse(log.other).reasoning_effort).toBe("high");
  });
});

describe("other endpoints", () => {
  let token: { id: number; key: string };
  beforeAll(async () => {
    token = await addToken(world.root, { name: "media", unlimited_quota: false, remain_quota: 10_000_000 });
  });

  test("images: price per image x size x quality x count", async () => {
    // dall-e-3 has a price of $0.04; 1024x1792 counts twice, hd 1.5 for tall sizes.
    await expectCharge(token.id, 60_000, () =>
      openai(world, token.key).images.generate({ model: "dall-e-3", prompt: "x", size: "1024x1792", quality: "hd" }),
    );
    // dall-e-2 has ratio 8 = $0.02 per image; 512x512 counts 0.45; two pictures.
    await expectCharge(token.id, 9_000, () =>
      openai(world, token.key).images.generate({ model: "dall-e-2", prompt: "x", size: "512x512", n: 2 }),
    );
    const wrong = await postRelay(world, "/v1/images/generations", token.key, { model: "dall-e-3", prompt: "x", size: "512x512" });
    expect(wrong.status).toBe(400);
  });

  test("speech: characters at the model ratio", async () => {
    await expectCharge(token.id, Math.round(11 * 7.5), () =>
      openai(world, token.key)
        .audio.speech.create({ model: "tts-1", voice: "alloy", input: "Hello there" })
        .then((answer) => answer.arrayBuffer()),
    );
  });

  test("embeddings: prompt tokens, at least one unit", async () => {
    world.upstream.behave("sk-billing", { promptTokens: 8 });
    await expectCharge(token.id, 1, () => openai(world, token.key).embeddings.create({ model: "text-embedding-3-small", input: "hello" }));
  });
});

describe("usage the upstream did not report", () => {
  let token: { id: number; key: string };
  beforeAll(async () => {
    token = await addToken(world.root, { name: "counted", unlimited_quota: false, remain_quota: 10_000_000 });
  });
  const prompt = () => countChatPromptTokens(messages, "gpt-4o");

  test("non-streamed: prompt and completion counted locally", async () => {
    world.upstream.behave("sk-billing", { omitUsage: true, content: "Counted locally, token by token." });
    const completion = countTextTokens("Counted locally, token by token.", "gpt-4o");
    const quota = Math.round((prompt() + completion * 4) * 1.25);
    const log = await expectCharge(token.id, quota, () =>
      openai(world, token.key).chat.completions.create({ model: "gpt-4o", messages: messages as never }),
    );
    expect([n(log.prompt_tokens), n(log.completion_tokens)]).toEqual([prompt(), completion]);
    expect(log.content).toContain("本地计数");
  });

  test("streamed: counted from the chunks; a client that asked gets a usage chunk", async () => {
    world.upstream.behave("sk-billing", { usage: "none", chunks: 4, content: "one two three four " });
    const completion = countTextTokens("one two three four ", "gpt-4o");
    const quota = Math.round((prompt() + completion * 4) * 1.25);
    let usage: unknown;
    await expectCharge(token.id, quota, async () => {
      const stream = await openai(world, token.key).chat.completions.create({
        model: "gpt-4o",
        messages: messages as never,
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    });
    expect(usage).toEqual({ prompt_tokens: prompt(), completion_tokens: completion, total_tokens: prompt() + completion });
  });

  test("the same request costs the same while CPU hogs run beside the gateway (issue 29)", async () => {
    // A prompt larger than one count's work budget: counted in part, the rest estimated.
    let seed = 29;
    const bytes = Array.from({ length: 600_000 }, () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
    const big = [{ role: "user", content: Buffer.from(bytes).toString("base64") }];
    const promptTokens = countChatPromptTokens(big, "gpt-4o");
    expect(promptTokens).not.toBe(countChatPromptTokens(big, "gpt-4o", undefined, Number.POSITIVE_INFINITY));
    const quota = Math.round((promptTokens + countTextTokens("Counted locally.", "gpt-4o") * 4) * 1.25);
    const call = () => openai(world, token.key).chat.completions.create({ model: "gpt-4o", messages: big as never });
    world.upstream.behave("sk-billing", { omitUsage: true, content: "Counted locally." });
    const quiet = await expectCharge(token.id, quota, call);
    // A busy loop per core, in processes of their own: the gateway gets a share of the CPU at best.
    const hogs = Array.from({ length: Math.max(2, availableParallelism()) }, () =>
      Bun.spawn({ cmd: [process.execPath, "-e", "for (;;) {}"], stdout: "ignore", stderr: "ignore" }),
    );
    try {
      const busy = await expectCharge(token.id, quota, call);
      expect(n(busy.prompt_tokens)).toBe(n(quiet.prompt_tokens));
      expect(n(busy.prompt_tokens)).toBe(promptTokens);
    } finally {
      for (const hog of hogs) hog.kill();
    }
  });

  test("usage inside the last content chunk is used and the chunk still forwarded", async () => {
    world.upstream.behave("sk-billing", { usage: "last-chunk", promptTokens: 40, completionTokens: 20 });
    let finish = "";
    await expectCharge(token.id, Math.round((40 + 80) * 1.25), async () => {
      const stream = await openai(world, token.key).chat.completions.create({ model: "gpt-4o", messages: messages as never, stream: true });
      for await (const chunk of stream) finish = chunk.choices[0]?.finish_reason ?? finish;
    });
    expect(finish).toBe("stop");
  });
});

describe("streams settle before they end", () => {
  test("when [DONE] reaches the client, the request is already in the balance and the log", async () => {
    const token = await addToken(world.root, { name: "done-first", unlimited_quota: false, remain_quota: 1_000_000 });
    world.upstream.behave("sk-billing", { promptTokens: 100, completionTokens: 50, chunks: 3 });
    await expectCharge(token.id, 375, async () => {
      const response = await fetch(`${world.server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer sk-${token.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o", messages, stream: true }),
      });
      const reader = response.body!.getReader();
      let text = "";
      // Stop reading at [DONE], without waiting for the stream to close.
      while (!text.includes("data: [DONE]")) text += new TextDecoder().decode((await reader.read()).value);
    });
  });
});

describe("failures cost nothing", () => {
  test("an upstream error refunds the hold: balances and logs unchanged", async () => {
    const token = await addToken(world.root, { name: "refund", unlimited_quota: false, remain_quota: 500_000 });
    const before = await balances(token.id);
    world.upstream.behave("sk-billing", { status: 500 });
    const response = await postRelay(world, "/v1/chat/completions", token.key, { model: "gpt-4o", messages, max_tokens: 1000 });
    expect(response.status).toBe(500);
    expect(await balances(token.id)).toEqual(before);
    await nothingReserved();
  });
});

describe("the client leaves mid-stream", () => {
  test("the upstream call ends at once; the prompt and the completion delivered are billed, once", async () => {
    const token = await addToken(world.root, { name: "leaver", unlimited_quota: false, remain_quota: 1_000_000 });
    const before = await balances(token.id);
    // Three content chunks, then the upstream keeps the stream open without sending more.
    world.upstream.behave("sk-billing", { chunks: 8, stallAfterChunks: 3, promptTokens: 30, completionTokens: 8 });
    const abort = new AbortController();
    const response = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer sk-${token.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", messages, stream: true }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes('"content":"the "')) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    // Settled well before the relay's own silence timeout (3 s here) could have ended the call.
    // The settlement and the upstream's view of the cut arrive in either order on a busy machine.
    const settledAndCut = async () =>
      (await balances(token.id)).logs !== before.logs && world.upstream.receivedBy("sk-billing")[0]?.streamEnd !== undefined;
    for (let wait = 0; wait < 40 && !(await settledAndCut()); wait++) await Bun.sleep(50);
    const [call] = world.upstream.receivedBy("sk-billing");
    expect(call!.streamEnd).toBe("cancelled");
    const prompt = countChatPromptTokens(messages, "gpt-4o");
    const completion = countTextTokens("Hello from the ", "gpt-4o");
    const quota = Math.round((prompt + completion * 4) * 1.25);
    const after = await balances(token.id);
    expect([before.userQuota - after.userQuota, after.logs - before.logs, before.tokenRemain - after.tokenRemain]).toEqual([
      quota,
      1,
      quota,
    ]);
    const log = await one(world, "select content, prompt_tokens, completion_tokens from logs where type = 2 order by id desc limit 1");
    expect([n(log.prompt_tokens), n(log.completion_tokens)]).toEqual([prompt, completion]);
    expect(log.content).toEndWith("客户端断开");
    await nothingReserved();
  });
});

describe("logging switched off", () => {
  test("money still moves exactly, without a log entry", async () => {
    await setOptions(world, { LogConsumeEnabled: false });
    const token = await addToken(world.root, { name: "silent", unlimited_quota: false, remain_quota: 1_000_000 });
    const before = await balances(token.id);
    world.upstream.behave("sk-billing", { promptTokens: 100, completionTokens: 50 });
    await openai(world, token.key).chat.completions.create({ model: "gpt-4o", messages: messages as never });
    const after = await balances(token.id);
    expect([
      before.userQuota - after.userQuota,
      after.userUsed - before.userUsed,
      after.tokenUsed - before.tokenUsed,
      after.logs - before.logs,
    ]).toEqual([375, 375, 375, 0]);
    await setOptions(world, { LogConsumeEnabled: true });
  });
});
