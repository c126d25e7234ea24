// A token's slots and minute in Redis, so every instance counts together (see token-meters.ts).
//
//   <prefix>slots:t:<token>      hash: instance -> slots that instance holds
//   <prefix>slots:alive:<inst>   present while the instance lives (refreshed every 5 s, 15 s TTL)
//   <prefix>tpm:t:<token>        sorted set: "p:<request>:<tokens>" (a reservation) and
//                                "s:<request>:<tokens>" (settled usage), scored by when
//
// A slot counts only while its instance is alive, so an instance killed with requests in flight
// stops holding slots 15 s later. Minute entries leave the window after a minute whatever
// happens to their instance. While Redis is away each instance counts alone, in memory (the
// shared state's windows do the same); slots given back meanwhile are given back in Redis when
// it returns.
import { RedisUnavailable } from "../../cache/redis-link.ts";
import type { RedisScripts } from "../../cache/shared-state.ts";
import { minuteMs } from "./minute-window.ts";
import type { MinuteVerdict, TokenMeters } from "./token-meter-types.ts";

const aliveMs = 15_000;
const heartbeatMs = 5_000;

const takeSlotScript = `
local sum = 0
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  if redis.call('EXISTS', ARGV[3] .. entries[i]) == 1 then
    sum = sum + tonumber(entries[i + 1])
  else
    redis.call('HDEL', KEYS[1], entries[i])
  end
end
if sum >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
return 1
`;

const giveSlotScript = `
if redis.call('HINCRBY', KEYS[1], ARGV[1], -tonumber(ARGV[2])) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
`;

// ARGV: now, window, limit, tokens, member. Replies {1, 0} or {0, milliseconds to wait}.
const reserveMinuteScript = `
local now, window, limit, tokens = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local sum = 0
for i = 1, #entries, 2 do sum = sum + tonumber(string.match(entries[i], ':(%d+)$')) end
if sum + tokens <= limit then
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[1], window * 2)
  return {1, 0}
end
if tokens > limit then return {0, window} end
for i = 1, #entries, 2 do
  sum = sum - tonumber(string.match(entries[i], ':(%d+)$'))
  if sum + tokens <= limit then return {0, tonumber(entries[i + 1]) + window - now} end
end
return {0, 1000}
`;

// ARGV: the reservation's member, now, the settled member or "" when nothing was used, window.
const settleMinuteScript = `
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[1], tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) * 2)
end
return 1
`;

export async function createRedisTokenMeters(redis: RedisScripts, instanceName: string, local: TokenMeters): Promise<TokenMeters> {
  const instance = `${instanceName}:${crypto.randomUUID().slice(0, 8)}`;
  const alivePrefix = `${redis.prefix}slots:alive:`;
  const slotKey = (tokenId: number) => `${redis.prefix}slots:t:${tokenId}`;
  const minuteKey = (tokenId: number) => `${redis.prefix}tpm:t:${tokenId}`;
  /** Slots taken in memory while Redis was away, given back there. */
  const localSlots = new Map<number, number>();
  /** Slots Redis did not hear given back while it was away. */
  const owedSlots = new Map<number, number>();

  const beat = () => redis.run("redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) return 1", [alivePrefix + instance], [String(aliveMs)]);
  await beat().catch(() => undefined);
  const heartbeat = setInterval(() => void beat().catch(() => undefined), heartbeatMs);
  heartbeat.unref?.();

  const payOwed = async () => {
    for (const [tokenId, count] of [...owedSlots]) {
      owedSlots.delete(tokenId);
      await redis.run(giveSlotScript, [slotKey(tokenId)], [instance, String(count)]).catch(() => undefined);
    }
  };
  redis.onHealthChange((healthy) => {
    if (healthy) void beat().then(payOwed, () => undefined);
  });

  /** Runs on Redis, or in memory while it is away. */
  const orLocal = async <T>(onRedis: () => Promise<T>, onLocal: () => Promise<T>): Promise<T> => {
    if (!redis.healthy()) return onLocal();
    try {
      return await onRedis();
    } catch (error) {
      if (error instanceof RedisUnavailable) return onLocal();
      throw error;
    }
  };

  return {
    takeSlot: (tokenId, limit) =>
      orLocal(
        async () => Number(await redis.run(takeSlotScript, [slotKey(tokenId)], [instance, String(limit), alivePrefix])) === 1,
        async () => {
          const taken = await local.takeSlot(tokenId, limit);
          if (taken) localSlots.set(tokenId, (localSlots.get(tokenId) ?? 0) + 1);
          return taken;
        },
      ),
    async giveSlot(tokenId) {
      const inMemory = localSlots.get(tokenId) ?? 0;
      if (inMemory > 0) {
        if (inMemory === 1) localSlots.delete(tokenId);
        else localSlots.set(tokenId, inMemory - 1);
        return local.giveSlot(tokenId);
      }
      const owe = async () => void owedSlots.set(tokenId, (owedSlots.get(tokenId) ?? 0) + 1);
      await orLocal(async () => void (await redis.run(giveSlotScript, [slotKey(tokenId)], [instance, "1"])), owe);
    },
    reserveMinute: (tokenId, requestId, tokens, limit) =>
      orLocal<MinuteVerdict>(
        async () => {
          const now = Date.now();
          const args = [String(now), String(minuteMs), String(limit), String(tokens), `p:${requestId}:${tokens}`];
          const [allowed, waitMs] = (await redis.run(reserveMinuteScript, [minuteKey(tokenId)], args)) as [number, number];
          return { allowed: allowed === 1, retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(Number(waitMs) / 1000)) };
        },
        () => local.reserveMinute(tokenId, requestId, tokens, limit),
      ),
    settleMinute: (tokenId, requestId, reserved, used) =>
      orLocal(
        async () => {
          const settled = used > 0 ? `s:${requestId}:${used}` : "";
          await redis.run(
            settleMinuteScript,
            [minuteKey(tokenId)],
            [`p:${requestId}:${reserved}`, String(Date.now()), settled, String(minuteMs)],
          );
        },
        () => local.settleMinute(tokenId, requestId, reserved, used),
      ),
    dropMinute: (tokenId, requestId, reserved) =>
      orLocal(
        async () => void (await redis.run(settleMinuteScript, [minuteKey(tokenId)], [`p:${requestId}:${reserved}`, "0", "", "0"])),
        () => local.dropMinute(tokenId, requestId, reserved),
      ),
    async close() {
      clearInterval(heartbeat);
      await redis.run("redis.call('DEL', KEYS[1]) return 1", [alivePrefix + instance], []).catch(() => undefined);
      await local.close();
    },
  };
}
