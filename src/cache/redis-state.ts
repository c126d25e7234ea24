// SharedState over Redis, for several instances. Windows are sorted sets trimmed and checked in
// one Lua script, so two instances cannot both take the last slot. While Redis is away
// (redis-link.ts) every operation runs degraded on this instance (docs/ARCHITECTURE.md, Redis outages).
import { logger } from "../logger.ts";
import { createMemoryState } from "./memory-state.ts";
import { openRedisLink, RedisUnavailable, type RedisLinkOptions, type RedisLink } from "./redis-link.ts";
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
function scriptRunner(link: RedisLink, prefix: string): RedisScripts {
  const digests = new Map<string, string>();
  return {
    prefix,
    healthy: () => link.healthy(),
    onHealthChange: (listener) => link.onHealthChange(listener),
    async run(script, keys, args) {
      let digest = digests.get(script);
      if (!digest) digests.set(script, (digest = new Bun.CryptoHasher("sha1").update(script).digest("hex")));
      try {
        return await link.send("EVALSHA", [digest, String(keys.length), ...keys, ...args]);
      } catch (error) {
        if (!String((error as Error)?.message ?? error).includes("NOSCRIPT")) throw error;
        return link.send("EVAL", [script, String(keys.length), ...keys, ...args]);
      }
    },
  };
}

/** Notices announced while Redis is away, sent when it is back; beyond this many, the resync covers. */
const maxQueuedNotices = 1000;

export async function createRedisState(url: string, prefix = "switchyard:", options?: RedisLinkOptions): Promise<SharedState> {
  const link = await openRedisLink(url, options);
  // While Redis is away: windows count per instance, values live here, notices reach this instance.
  const local = createMemoryState();
  const queued: [string, string][] = [];
  let sequence = 0;
  const uniqueMember = () => `${Date.now()}-${process.pid}-${sequence++}-${Math.random().toString(36).slice(2, 8)}`;

  /** Runs on Redis when it is there, else (or when it fails to answer) on this instance alone. */
  const orLocal = async <T>(onRedis: () => Promise<T>, onLocal: () => Promise<T>): Promise<T> => {
    if (!link.healthy()) return onLocal();
    try {
      return await onRedis();
    } catch (error) {
      if (error instanceof RedisUnavailable) return onLocal();
      throw error;
    }
  };

  link.onHealthChange((healthy) => {
    if (!healthy) {
      logger.warn(
        "shared state degraded: rate limits count per instance, once-per-period jobs are skipped, reservations debit the store, caches resync every few seconds",
      );
      return;
    }
    // Others missed what this instance announced meanwhile. Sent now and once more a second later,
    // for instances whose own reconnection (and so subscription) is a little behind this one's;
    // a notice heard twice only drops a cached copy twice.
    const missed = queued.splice(0);
    const send = () => {
      for (const [topic, message] of missed) void link.send("PUBLISH", [prefix + topic, message]).catch(() => undefined);
    };
    send();
    if (missed.length > 0) setTimeout(send, 1000).unref?.();
  });

  return {
    kind: "redis",
    scripts: scriptRunner(link, prefix),
    hitWindow: (key, limit, windowSeconds) =>
      orLocal(
        async () => {
          const windowMs = windowSeconds * 1000;
          const [allowed, retryAfterMs] = (await link.send("EVAL", [
            slidingWindowScript,
            "1",
            prefix + key,
            String(Date.now()),
            String(windowMs),
            String(limit),
            uniqueMember(),
          ])) as [number, number];
          return { allowed: allowed === 1, retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)) };
        },
        () => local.hitWindow(key, limit, windowSeconds),
      ),
    recordHit: (key, windowSeconds) =>
      orLocal(
        async () => {
          const now = Date.now();
          await link.send("ZADD", [prefix + key, String(now), uniqueMember()]);
          await link.send("ZREMRANGEBYSCORE", [prefix + key, "-inf", String(now - windowSeconds * 1000)]);
          await link.send("PEXPIRE", [prefix + key, String(windowSeconds * 1000)]);
        },
        () => local.recordHit(key, windowSeconds),
      ),
    countWindow: (key, windowSeconds) =>
      orLocal(
        async () => {
          await link.send("ZREMRANGEBYSCORE", [prefix + key, "-inf", String(Date.now() - windowSeconds * 1000)]);
          return Number(await link.send("ZCARD", [prefix + key]));
        },
        () => local.countWindow(key, windowSeconds),
      ),
    get: (key) =>
      orLocal(
        async () => ((await link.send("GET", [prefix + key])) as string | null) ?? (await local.get(key)),
        () => local.get(key),
      ),
    async set(key, value, ttlSeconds) {
      // Kept here too, so this instance still knows it should Redis go away.
      await local.set(key, value, ttlSeconds);
      await orLocal(
        async () => void (await link.send("SET", [prefix + key, value, "EX", String(Math.max(1, Math.ceil(ttlSeconds)))])),
        async () => undefined,
      );
    },
    setIfAbsent: (key, value, ttlSeconds) =>
      orLocal(
        async () => (await link.send("SET", [prefix + key, value, "NX", "EX", String(Math.max(1, Math.ceil(ttlSeconds)))])) === "OK",
        async () => false,
      ),
    async delete(key) {
      await local.delete(key);
      await orLocal(
        async () => void (await link.send("DEL", [prefix + key])),
        async () => undefined,
      );
    },
    async publish(topic, message) {
      await orLocal(
        async () => void (await link.send("PUBLISH", [prefix + topic, message])),
        async () => {
          await local.publish(topic, message);
          if (queued.length >= maxQueuedNotices) queued.shift();
          queued.push([topic, message]);
        },
      );
    },
    subscribe(topic, handler) {
      local.subscribe(topic, handler);
      link.subscribe(prefix + topic, handler);
    },
    healthy: () => link.healthy(),
    onHealthChange: (listener) => link.onHealthChange(listener),
    async close() {
      await link.close();
      await local.close();
    },
  };
}
