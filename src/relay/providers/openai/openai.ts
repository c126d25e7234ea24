// OpenAI (type 1): Bearer key, optional organization header, reasoning-model rules, and the
// dashboard billing API for the balance.
import type { UpstreamTarget } from "../adaptor.ts";
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";
import { dashboardBalance } from "./openai-balance.ts";

export const openAIModels = [
  "gpt-4o", "gpt-4o-mini", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20", "chatgpt-4o-latest",
  "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4-turbo", "gpt-4", "gpt-3.5-turbo",
  "o1", "o1-mini", "o3", "o3-mini", "o4-mini",
  "text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002",
  "omni-moderation-latest", "text-moderation-latest", "text-moderation-stable",
  "dall-e-2", "dall-e-3", "tts-1", "tts-1-hd", "whisper-1",
  "gpt-3.5-turbo-instruct", "davinci-002", "babbage-002",
] as const;

const vendor = { defaultBaseUrl: "https://api.openai.com" };

function headers(target: UpstreamTarget): Record<string, string> {
  return target.organization ? { ...bearer(target), "openai-organization": target.organization } : bearer(target);
}

export const openAIAdaptor = createCompatibleAdaptor({
  kind: 1,
  name: "OpenAI",
  owner: "openai",
  ...vendor,
  defaultModels: openAIModels,
  streamUsage: true,
  reasoningModels: true,
  authHeaders: headers,
  balance: dashboardBalance((target) => joinBaseUrl(baseUrlOf(vendor, target), "/v1"), headers),
});
