// SharedState over Redis, for several instances. Windows are sorted sets trimmed and checked in
// one Lua script, so two instances cannot both take the last slot.
import { RedisClient } from "bun";
import type { RedisScripts, SharedState } from "./shared-state.ts";

const slidingWindowScript = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local member = ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return {1, 0}
`;

/** EVALSHA with the script's digest (the script text travels once), EVAL when the server lost it. */
function scriptRunner(client: RedisClient, prefix: string): RedisScripts {
  const digests = new Map<string, string>();
  return {
    prefix,
    async run(script, keys, args) {
      let digest = digests.get(script);
      if (!digest) digests.set(script, (digest = new Bun.CryptoHasher("sha1").update(script).digest("hex")));
      try {
        return await client.send("EVALSHA", [digest, String(keys.length), ...keys, ...args]);
      } catch (error) {
        if (!String((error as Error)?.message ?? error).includes("NOSCRIPT")) throw error;
        return client.send("EVAL", [script, String(keys.length), ...keys, ...args]);
      }
    },
  };
}

export async function createRedisState(url: string, prefix = "switchyard:"): Promise<SharedState> {
  const client = new RedisClient(url);
  await client.connect();
  let subscriber: RedisClient | undefined;
  let sequence = 0;
  const uniqueMember = () => `${Date.now()}-${process.pid}-${sequence++}-${Math.random().toString(36).slice(2, 8)}`;

  return {
    kind: "redis",
    scripts: scriptRunner(client, prefix),
    async hitWindow(key, limit, windowSeconds) {
      const windowMs = windowSeconds * 1000;
      const [allowed, retryAfterMs] = (await client.send("EVAL", [
        slidingWindowScript, "1", prefix + key, String(Date.now()), String(windowMs), String(limit), uniqueMember(),
      ])) as [number, number];
      return { allowed: allowed === 1, retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    },
    async recordHit(key, windowSeconds) {
      const now = Date.now();
      await client.send("ZADD", [prefix + key, String(now), uniqueMember()]);
      await client.send("ZREMRANGEBYSCORE", [prefix + key, "-inf", String(now - windowSeconds * 1000)]);
      await client.send("PEXPIRE", [prefix + key, String(windowSeconds * 1000)]);
    },
    async countWindow(key, windowSeconds) {
      await client.send("ZREMRANGEBYSCORE", [prefix + key, "-inf", String(Date.now() - windowSeconds * 1000)]);
      return Number(await client.send("ZCARD", [prefix + key]));
    },
    async get(key) {
      return (await client.get(prefix + key)) ?? null;
    },
    async set(key, value, ttlSeconds) {
      await client.send("SET", [prefix + key, value, "EX", String(Math.max(1, Math.ceil(ttlSeconds)))]);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      const reply = await client.send("SET", [prefix + key, value, "NX", "EX", String(Math.max(1, Math.ceil(ttlSeconds)))]);
      return reply === "OK";
    },
    async delete(key) {
      await client.del(prefix + key);
    },
    async publish(topic, message) {
      await client.publish(prefix + topic, message);
    },
    subscribe(topic, handler) {
      // A subscribed connection cannot run other commands, so notices get their own.
      subscriber ??= new RedisClient(url);
      void subscriber.subscribe(prefix + topic, (message: string) => handler(message));
    },
    async close() {
      subscriber?.close();
      client.close();
    },
  };
}
