// Chooses the SharedState implementation for this process from the configuration.
import { createMemoryState } from "./memory-state.ts";
import { createRedisState } from "./redis-state.ts";
import type { SharedState } from "./shared-state.ts";

export let shared: SharedState;

/** `redisPrefix` keeps apart the keys of gateways (or test runs) that share one Redis. */
export async function openSharedState(redisUrl: string | undefined, redisPrefix?: string, redisTimeoutMs?: number): Promise<SharedState> {
  shared = redisUrl ? await createRedisState(redisUrl, redisPrefix, { commandTimeoutMs: redisTimeoutMs }) : createMemoryState();
  return shared;
}
