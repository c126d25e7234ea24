// Custom (type 8): the base URL is the full request URL, where {model} stands for the upstream
// model name. Everything else is OpenAI-style; the balance uses the dashboard API of
// the URL's origin.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { UpstreamTarget } from "../adaptor.ts";
import { bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { dashboardBalance } from "../openai/openai-balance.ts";

const origin = (target: UpstreamTarget) => {
  try {
    return new URL(target.baseUrl.replaceAll("{model}", "model")).origin;
  } catch {
    return target.baseUrl;
  }
};

export const customAdaptor = createCompatibleAdaptor({
  type: ChannelType.Custom,
  name: "Custom",
  owner: "custom",
  defaultBaseUrl: "",
  streamUsage: false,
  url: (_endpoint, target, upstreamModel) => target.baseUrl.replaceAll("{model}", upstreamModel),
  modelsUrl: (target) => `${origin(target)}/v1/models`,
  balance: dashboardBalance((target) => `${origin(target)}/v1`, bearer),
});
