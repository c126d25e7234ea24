// AWS Bedrock Claude (channel type 33): InvokeModel and InvokeModelWithResponseStream on
// bedrock-runtime.{region}.amazonaws.com, signed with SigV4 from the channel key
// "AccessKeyId|SecretAccessKey|Region". The body is Claude's Messages request without `model`
// and `stream` (Bedrock refuses both: the model is in the URL, streaming is the operation) and
// with anthropic_version "bedrock-2023-05-31"; answers are Claude's, streams come in the AWS
// event-stream framing. So the Claude conversions serve both ways, and Claude-format calls pass
// through.
import { nowMs } from "../../../clock.ts";
import { channelTypeInfo } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { claudeStreamError } from "../claude/claude-errors.ts";
import { defaultMaxTokens } from "../claude/claude-models.ts";
import { createClaudeNativeStreamConverter, nativeClaudeBody } from "../claude/claude-native.ts";
import { claudeRequestFromOpenAI } from "../claude/claude-request.ts";
import { convertClaudeResponse } from "../claude/claude-response.ts";
import { createClaudeStreamConverter } from "../claude/claude-stream.ts";
import { signAwsRequest } from "./aws-signing.ts";
import { parseBedrockError } from "./bedrock-errors.ts";
import { createEventStreamDecoder, isEventStreamBody } from "./bedrock-event-stream.ts";
import { parseBedrockKey } from "./bedrock-key.ts";
import { bedrockModelId, claudeNameOf } from "./bedrock-models.ts";

export const bedrockAnthropicVersion = "bedrock-2023-05-31";
const service = "bedrock";

/** The Claude body as Bedrock takes it, and the model it names. */
export function bedrockBody(call: RelayCall): { model: string; body: Record<string, unknown> } {
  const body = call.format === "claude" ? nativeClaudeBody(call) : claudeRequestFromOpenAI(call, "base64-only");
  const model = String(body.model ?? call.upstreamModel);
  delete body.model;
  delete body.stream;
  body.anthropic_version = bedrockAnthropicVersion;
  // Bedrock takes Anthropic's beta flags in the body rather than as a header.
  const beta = call.vendorHeaders?.["anthropic-beta"];
  if (beta && body.anthropic_beta === undefined) body.anthropic_beta = beta.split(",").map((flag) => flag.trim()).filter(Boolean);
  return { model, body };
}

const runtimeBase = (target: UpstreamTarget, region: string) => target.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`;

export const bedrockAdaptor: ProviderAdaptor = {
  kind: 33,
  name: "AWS Claude",
  owner: "anthropic",
  defaultBaseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com",
  defaultModels: channelTypeInfo(33)?.models ?? [],
  nativeFormats: ["claude"],

  async buildRequest(call: RelayCall, target: UpstreamTarget): Promise<UpstreamRequest> {
    const { credentials, region } = parseBedrockKey(target.key);
    const { model, body } = bedrockBody(call);
    const operation = call.stream ? "invoke-with-response-stream" : "invoke";
    const url = `${runtimeBase(target, region)}/model/${encodeURIComponent(bedrockModelId(model, region))}/${operation}`;
    const text = JSON.stringify(body);
    const headers = await signAwsRequest(
      { method: "POST", url, headers: { "content-type": "application/json", accept: call.stream ? "application/vnd.amazon.eventstream" : "application/json" }, body: text },
      { credentials, region, service },
      new Date(nowMs()),
    );
    // fetch sets Host from the URL, as signed.
    delete headers.host;
    return { url, method: "POST", headers, body: text };
  },
  defaultMaxTokens,
  streamDecoder: (contentType) => (isEventStreamBody(contentType) ? createEventStreamDecoder() : null),
  convertResponse: convertClaudeResponse,
  createStreamConverter: (call, countCompletion) =>
    call.format === "claude" ? createClaudeNativeStreamConverter(call, countCompletion) : createClaudeStreamConverter(call, countCompletion),
  parseError: parseBedrockError,
  streamError: claudeStreamError,

  async buildModelsRequest(target) {
    const { credentials, region } = parseBedrockKey(target.key);
    // ListFoundationModels lives on the control plane (bedrock.), not bedrock-runtime.
    const url = `${target.baseUrl || `https://bedrock.${region}.amazonaws.com`}/foundation-models?byProvider=Anthropic`;
    const headers = await signAwsRequest({ method: "GET", url, headers: { accept: "application/json" } }, { credentials, region, service }, new Date(nowMs()));
    delete headers.host;
    return { url, method: "GET", headers };
  },
  parseModels(body) {
    const parsed = JSON.parse(body) as { modelSummaries?: { modelId?: unknown }[] };
    return (parsed.modelSummaries ?? [])
      .map((model) => model.modelId)
      // "…-v1:0:200k" variants are for provisioned throughput only.
      .filter((id): id is string => typeof id === "string" && id.startsWith("anthropic.") && !/:\d+k$/.test(id))
      .map(claudeNameOf);
  },
};
