// Where the social sign-ins and the human check talk to: the configuration's endpoints (the real
// services unless overridden, e.g. by tests), handed over once when the app is built.
import type { ProviderEndpoints } from "../../config.ts";

let current: ProviderEndpoints | undefined;

export function useProviderEndpoints(endpoints: ProviderEndpoints): void {
  current = endpoints;
}

export function providerEndpoints(): ProviderEndpoints {
  if (!current) throw new Error("provider endpoints are not configured (createApp sets them)");
  return current;
}
