// AWS Bedrock Claude (channel type 33): InvokeModel and InvokeModelWithResponseStream on
// bedrock-runtime.{region}.amazonaws.com, signed with SigV4 from the channel key
// "AccessKeyId|SecretAccessKey|Region", or sent with a Bedrock API key as Bearer token from the
// key "ApiKey|Region" (bedrock-key.ts). The body is Claude's Messages request without `model`
// and `stream` (Bedrock refuses both: the model is in the URL, streaming is the operation) and
// with anthropic_version "bedrock-2023-05-31"; answers are Claude's, streams come in the AWS
// event-stream framing. So the Claude conversions serve both ways, and Claude-format calls pass
// through.
import { nowMs } from "../../../clock.ts";
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { claudeStreamError } from "../claude/claude-to-chat-errors.ts";
import { defaultMaxTokens } from "../claude/claude-models.ts";
import { createClaudeNativeStreamConverter, nativeClaudeBody } from "../claude/claude-native.ts";
import { claudeRequestFromOpenAI } from "../claude/chat-to-claude-request.ts";
import { convertClaudeResponse } from "../claude/claude-to-chat-response.ts";
import { createClaudeStreamConverter } from "../claude/claude-to-chat-stream.ts";
import { withInlineImages } from "../vendor-format-helpers/inline-images.ts";
import { signAwsRequest } from "./aws-signing.ts";
import { parseBedrockError } from "./bedrock-errors.ts";
import { createEventStreamDecoder, isEventStreamBody } from "./bedrock-event-stream.ts";
import { parseBedrockKey, type BedrockKey } from "./bedrock-key.ts";
import { bedrockModelId, claudeNameOf } from "./bedrock-models.ts";

const bedrockAnthropicVersion = "bedrock-2023-05-31";
const service = "bedrock";

/** The Claude body as Bedrock takes it, and the model it names. */
export function bedrockBody(call: RelayCall): { model: string; body: Record<string, unknown> } {
  // The body as Anthropic takes it, re-shaped for the cloud (model in the URL, version in the body).
  const body: Record<string, unknown> = call.format === "claude" ? nativeClaudeBody(call) : claudeRequestFromOpenAI(call, "base64-only");
  const model = String(body.model ?? call.upstreamModel);
  delete body.model;
  delete body.stream;
  body.anthropic_version = bedrockAnthropicVersion;
  // Bedrock takes Anthropic's beta flags in the body rather than as a header.
  const beta = call.vendorHeaders?.["anthropic-beta"];
  if (beta && body.anthropic_beta === undefined)
    body.anthropic_beta = beta
      .split(",")
      .map((flag) => flag.trim())
      .filter(Boolean);
  return { model, body };
}

const runtimeBase = (target: UpstreamTarget, region: string) => target.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`;

/** The request's headers with its authorization: the API key as Bearer, or a SigV4 signature. */
async function authorized(request: UpstreamRequest, key: BedrockKey): Promise<Record<string, string>> {
  if ("apiKey" in key) return { ...request.headers, authorization: `Bearer ${key.apiKey}` };
  const headers = await signAwsRequest(
    { method: request.method, url: request.url, headers: request.headers, body: request.body as string | undefined },
    { credentials: key.credentials, region: key.region, service },
    new Date(nowMs()),
  );
  // fetch sets Host from the URL, as signed.
  delete headers.host;
  return headers;
}

export const bedrockAdaptor: ProviderAdaptor = {
  type: ChannelType.Bedrock,
  name: "AWS Claude",
  owner: "anthropic",
  defaultBaseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com",
  nativeFormats: ["claude"],

  async buildRequest(call: RelayCall, target: UpstreamTarget): Promise<UpstreamRequest> {
    const key = parseBedrockKey(target.key);
    // Bedrock takes images as base64 only: links are downloaded and inlined first.
    const { model, body } = bedrockBody(await withInlineImages(call));
    const operation = call.stream ? "invoke-with-response-stream" : "invoke";
    const url = `${runtimeBase(target, key.region)}/model/${encodeURIComponent(bedrockModelId(model, key.region))}/${operation}`;
    const request: UpstreamRequest = {
      url,
      method: "POST",
      headers: { "content-type": "application/json", accept: call.stream ? "application/vnd.amazon.eventstream" : "application/json" },
      body: JSON.stringify(body),
    };
    return { ...request, headers: await authorized(request, key) };
  },
  defaultMaxTokens,
  streamDecoder: (contentType) => (isEventStreamBody(contentType) ? createEventStreamDecoder() : null),
  convertResponse: convertClaudeResponse,
  createStreamConverter: (call, countCompletion) =>
    call.format === "claude"
      ? createClaudeNativeStreamConverter(call, countCompletion)
      : createClaudeStreamConverter(call, countCompletion),
  parseError: parseBedrockError,
  streamError: claudeStreamError,
  modelList: {
    async request(target) {
      const key = parseBedrockKey(target.key);
      // ListFoundationModels lives on the control plane (bedrock.), not bedrock-runtime.
      const url = `${target.baseUrl || `https://bedrock.${key.region}.amazonaws.com`}/foundation-models?byProvider=Anthropic`;
      const request: UpstreamRequest = { url, method: "GET", headers: { accept: "application/json" } };
      return { ...request, headers: await authorized(request, key) };
    },
    parse(body) {
      const parsed = JSON.parse(body) as { modelSummaries?: { modelId?: unknown }[] };
      return (
        (parsed.modelSummaries ?? [])
          .map((model) => model.modelId)
          // "…-v1:0:200k" variants are for provisioned throughput only.
          .filter((id): id is string => typeof id === "string" && id.startsWith("anthropic.") && !/:\d+k$/.test(id))
          .map(claudeNameOf)
      );
    },
  },
};
