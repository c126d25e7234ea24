// Azure OpenAI (type 3): the model picks a deployment in the URL, the api-version comes from
// the channel's `other` field (default 2023-06-01-preview), and the key goes in an
// api-key header. Deployment names cannot contain dots, so "gpt-3.5-turbo" is "gpt-35-turbo".
// The Responses API lives on Azure's v1 surface (/openai/v1/responses, no api-version), where
// the deployment is named by the body's model (Microsoft's Azure OpenAI Responses guide).
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { EndpointKind, UpstreamTarget } from "../adaptor.ts";
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { openAIPaths } from "../openai-compatible/openai-paths.ts";

const defaultAzureApiVersion = "2023-06-01-preview";

const azureApiVersion = (target: UpstreamTarget) => target.other.trim() || defaultAzureApiVersion;

const deploymentOf = (upstreamModel: string) => upstreamModel.replaceAll(".", "");

function url(endpoint: EndpointKind, target: UpstreamTarget, upstreamModel: string): string {
  const task = openAIPaths[endpoint].slice("/v1/".length);
  const deployment = encodeURIComponent(deploymentOf(upstreamModel));
  return `${target.baseUrl.replace(/\/+$/, "")}/openai/deployments/${deployment}/${task}?api-version=${encodeURIComponent(azureApiVersion(target))}`;
}

export const azureAdaptor = createCompatibleAdaptor({
  type: ChannelType.Azure,
  name: "Azure OpenAI",
  owner: "openai",
  defaultBaseUrl: "",
  // stream_options arrived in api-version 2024-09-01-preview; older versions reject the field.
  streamUsage: (target) => azureApiVersion(target) >= "2024-09-01",
  reasoningModels: true,
  url,
  authHeaders: (target) => ({ "api-key": target.key }),
  responses: { url: (target) => `${target.baseUrl.replace(/\/+$/, "")}/openai/v1/responses`, model: deploymentOf },
  modelsUrl: (target) => `${target.baseUrl.replace(/\/+$/, "")}/openai/models?api-version=${encodeURIComponent(azureApiVersion(target))}`,
});
