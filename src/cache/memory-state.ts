// SharedState for a single process: plain maps with expiry times.
import type { SharedState, WindowVerdict } from "./shared-state.ts";

export function createMemoryState(now: () => number = Date.now): SharedState {
  const values = new Map<string, { value: string; expiresAt: number }>();
  const windows = new Map<string, number[]>();
  const handlers = new Map<string, Set<(message: string) => void>>();

  const live = (key: string) => {
    const entry = values.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      values.delete(key);
      return undefined;
    }
    return entry;
  };

  const recentHits = (key: string, windowSeconds: number) => {
    const since = now() - windowSeconds * 1000;
    const hits = (windows.get(key) ?? []).filter((at) => at > since);
    windows.set(key, hits);
    return hits;
  };

  // Expired entries of keys nobody reads again would otherwise accumulate.
  const sweeper = setInterval(() => {
    const current = now();
    for (const [key, entry] of values) if (entry.expiresAt <= current) values.delete(key);
    for (const [key, hits] of windows) if (hits.length === 0 || hits[hits.length - 1]! < current - 86_400_000) windows.delete(key);
  }, 60_000);
  sweeper.unref?.();

  return {
    kind: "memory",
    async hitWindow(key, limit, windowSeconds): Promise<WindowVerdict> {
      const hits = recentHits(key, windowSeconds);
      if (hits.length >= limit) {
        const retryAfterMs = hits[hits.length - limit]! + windowSeconds * 1000 - now();
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
      }
      hits.push(now());
      return { allowed: true, retryAfterSeconds: 0 };
    },
    async recordHit(key, windowSeconds) {
      recentHits(key, windowSeconds).push(now());
    },
    async countWindow(key, windowSeconds) {
      return recentHits(key, windowSeconds).length;
    },
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlSeconds) {
      values.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
    },
    async setIfAbsent(key, value, ttlSeconds) {
      if (live(key)) return false;
      values.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
      return true;
    },
    async delete(key) {
      values.delete(key);
    },
    async publish(topic, message) {
      for (const handler of handlers.get(topic) ?? []) handler(message);
    },
    subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      set.add(handler);
    },
    healthy: () => true,
    onHealthChange() {
      // One process: nothing can go away.
    },
    async close() {
      clearInterval(sweeper);
    },
  };
}
