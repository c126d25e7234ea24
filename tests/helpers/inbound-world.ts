// The world of the inbound-format suites: the real gateway and the imitation OpenAI upstream with
// an OpenAI channel (speaks the Responses API itself), a DeepSeek channel (chat only, so every
// vendor format reaches it converted) and an Azure channel, one token, and prices that make
// every charge easy to check: model ratio 2, completion ratio 3.
import { expect } from "bun:test";
import { addChannel, addToken, n, one, reservedFor, setOptions, startRelayWorld, type RelayWorld } from "./relay-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

export type InboundWorld = RelayWorld & { key: string; tokenId: number; channels: { openai: number; deepseek: number; azure: number } };

/** Models per channel: what a test names decides where the call goes. */
export const models = {
  /** OpenAI channel (type 1). */
  openai: ["gpt-pass", "claude-over-openai", "gemini-over-openai"],
  /** DeepSeek channel (type 43): chat completions only. */
  deepseek: ["chat-only"],
  /** Azure channel (type 3). */
  azure: ["gpt-4.1-azure"],
};

export async function startInboundWorld(): Promise<InboundWorld> {
  const world = await startRelayWorld();
  const channels = {
    openai: await addChannel(world, { type: ChannelType.OpenAI, key: "sk-openai-ch", models: models.openai.join(",") }),
    deepseek: await addChannel(world, { type: ChannelType.DeepSeek, key: "sk-deepseek-ch", models: models.deepseek.join(",") }),
    azure: await addChannel(world, { type: ChannelType.Azure, key: "azure-ch-key", models: models.azure.join(","), other: "2024-10-21" }),
  };
  const all = [...models.openai, ...models.deepseek, ...models.azure];
  await setOptions(world, {
    ModelRatio: JSON.stringify(Object.fromEntries(all.map((model) => [model, 2]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(all.map((model) => [model, 3]))),
  });
  const token = await addToken(world.root, { name: "inbound", unlimited_quota: false, remain_quota: 50_000_000 });
  return { ...world, key: token.key, tokenId: token.id, channels };
}

/** The quota a call costs at these prices: (prompt + completion x 3) x 2. */
export const priceOf = (prompt: number, completion: number) => (prompt + completion * 3) * 2;

export async function balances(world: InboundWorld) {
  const user = await one(world, "select quota, used_quota from users where id = 1");
  const token = await one(world, "select remain_quota, used_quota from tokens where id = ?", world.tokenId);
  const channels = await world.server.store.query<{ used_quota: unknown }>("select used_quota from channels order by id");
  return {
    user: n(user.quota),
    userUsed: n(user.used_quota),
    token: n(token.remain_quota),
    channels: channels.map((row) => n(row.used_quota)),
  };
}

export type ConsumeLog = {
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  is_stream: boolean;
  model_name: string;
  channel_id: number;
  other: Record<string, any>;
};

export async function lastLog(world: InboundWorld): Promise<ConsumeLog> {
  const row = await one(world, "select * from logs where type = 2 order by id desc limit 1");
  return {
    quota: n(row.quota),
    prompt_tokens: n(row.prompt_tokens),
    completion_tokens: n(row.completion_tokens),
    is_stream: Boolean(n(row.is_stream)),
    model_name: String(row.model_name),
    channel_id: n(row.channel_id),
    other: JSON.parse(String(row.other)),
  };
}

/**
 * Runs a call and checks the money: exactly `quota` left the user and the token and reached the
 * channel and one new log; no hold remains. Returns the call's result and the log.
 */
export async function expectCharged<T>(
  world: InboundWorld,
  channelId: number,
  quota: number,
  call: () => Promise<T>,
): Promise<{ result: T; log: ConsumeLog }> {
  const logsBefore = n((await one(world, "select count(*) as count from logs where type = 2")).count);
  const before = await balances(world);
  const result = await call();
  // A streamed answer settles before its last event; give the settlement its moment.
  for (let wait = 0; wait < 50 && n((await one(world, "select count(*) as count from logs where type = 2")).count) === logsBefore; wait++)
    await Bun.sleep(20);
  const after = await balances(world);
  const channelIndex = (await world.server.store.query<{ id: unknown }>("select id from channels order by id")).findIndex(
    (row) => n(row.id) === channelId,
  );
  expect({
    user: before.user - after.user,
    userUsed: after.userUsed - before.userUsed,
    token: before.token - after.token,
    channel: after.channels[channelIndex]! - before.channels[channelIndex]!,
    logs: n((await one(world, "select count(*) as count from logs where type = 2")).count) - logsBefore,
  }).toEqual({ user: quota, userUsed: quota, token: quota, channel: quota, logs: 1 });
  const log = await lastLog(world);
  expect(log.quota).toBe(quota);
  // The hold ended with the settlement (asked of the relay: reservations live outside the store).
  expect(await reservedFor(world, { userId: 1, tokenKey: world.key })).toBe(false);
  return { result, log };
}

/** The last request the upstream received with a channel's key. */
export function lastReceived(world: InboundWorld, key: string) {
  const list = world.upstream.receivedBy(key);
  expect(list.length).toBeGreaterThan(0);
  return list[list.length - 1]!;
}
