// Chooses the SharedState implementation for this process from the configuration.
import { createMemoryState } from "./memory-state.ts";
import { createRedisState } from "./redis-state.ts";
import type { SharedState } from "./shared-state.ts";

export let shared: SharedState;

export async function openSharedState(redisUrl: string | undefined): Promise<SharedState> {
  shared = redisUrl ? await createRedisState(redisUrl) : createMemoryState();
  return shared;
}
