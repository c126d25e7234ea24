// State that every instance of the gateway must see the same way: rate-limit windows, one-time
// locks, short-lived values, and change notices that tell other instances to drop a cached copy.
// One process uses the memory implementation; with REDIS_CONN_STRING every instance uses Redis.
// Balances never live here: they are always in the store. What may live here is the sum of the
// reservations of requests in flight (services/billing/redis-reservations.ts), which a crash
// may lose without losing money (see docs/ARCHITECTURE.md, Money).

export type WindowVerdict = { allowed: boolean; retryAfterSeconds: number };

/** Atomic scripts on the shared Redis, for state whose checks must run where the data is. */
export type RedisScripts = {
  /** Every key this gateway writes starts with it (REDIS_KEY_PREFIX). */
  readonly prefix: string;
  /** False while Redis is away: `run` then throws RedisUnavailable at once. */
  healthy(): boolean;
  onHealthChange(listener: (healthy: boolean) => void): void;
  /** Runs a Lua script (cached by the server after its first use) and gives back its reply. */
  run(script: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
};

export interface SharedState {
  readonly kind: "memory" | "redis";
  /** Present on Redis only. */
  readonly scripts?: RedisScripts;
  /**
   * Sliding window: allows the hit when fewer than `limit` hits happened in the last
   * `windowSeconds`, and records it only then.
   */
  hitWindow(key: string, limit: number, windowSeconds: number): Promise<WindowVerdict>;
  /** Records a hit without checking (e.g. counting successes after the fact). */
  recordHit(key: string, windowSeconds: number): Promise<void>;
  /** How many hits the window holds now, without recording one. */
  countWindow(key: string, windowSeconds: number): Promise<number>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /**
   * Sets the key only if absent; true when this caller set it (a lock or a "once per" mark).
   * False while Redis is away: what it guards is skipped rather than done twice.
   */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Tells every instance (this one included) about a change on a topic. */
  publish(topic: string, message: string): Promise<void>;
  subscribe(topic: string, handler: (message: string) => void): void;
  /**
   * False while Redis is away (always true in memory): the state then runs degraded, see
   * docs/ARCHITECTURE.md "Redis outages".
   */
  healthy(): boolean;
  /** Called synchronously whenever `healthy()` changes. */
  onHealthChange(listener: (healthy: boolean) => void): void;
  close(): Promise<void>;
}
