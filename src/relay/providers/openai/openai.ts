// OpenAI (type 1): Bearer key, optional organization header, reasoning-model rules, and the
// dashboard billing API for the balance.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { UpstreamTarget } from "../adaptor.ts";
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";
import { dashboardBalance } from "./openai-balance.ts";

const vendor = { defaultBaseUrl: "https://api.openai.com" };

function headers(target: UpstreamTarget): Record<string, string> {
  return target.organization ? { ...bearer(target), "openai-organization": target.organization } : bearer(target);
}

export const openAIAdaptor = createCompatibleAdaptor({
  type: ChannelType.OpenAI,
  name: "OpenAI",
  owner: "openai",
  ...vendor,
  streamUsage: true,
  reasoningModels: true,
  authHeaders: headers,
  responses: { url: (target) => joinBaseUrl(baseUrlOf(vendor, target), "/v1/responses") },
  balance: dashboardBalance((target) => joinBaseUrl(baseUrlOf(vendor, target), "/v1"), headers),
});
