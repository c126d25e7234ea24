// Anthropic Claude (channel type 14): the Messages API at {base}/v1/messages, authenticated by
// x-api-key with an anthropic-version header. OpenAI-style calls are converted both ways
// (claude-request.ts, claude-response.ts, claude-stream.ts); calls made in Claude's own format
// pass through (claude-native.ts).
import { channelTypeInfo } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";
import { claudeStreamError, parseClaudeError } from "./claude-errors.ts";
import { defaultMaxTokens } from "./claude-models.ts";
import { createClaudeNativeStreamConverter, nativeClaudeEdits } from "./claude-native.ts";
import { claudeRequestFromOpenAI } from "./claude-request.ts";
import { convertClaudeResponse } from "./claude-response.ts";
import { createClaudeStreamConverter } from "./claude-stream.ts";

export const anthropicVersion = "2023-06-01";
const defaultBaseUrl = "https://api.anthropic.com";

function headersFor(call: RelayCall | undefined, target: UpstreamTarget): Record<string, string> {
  const vendor = call?.vendorHeaders ?? {};
  const headers: Record<string, string> = { "x-api-key": target.key, "anthropic-version": vendor["anthropic-version"] || anthropicVersion };
  if (vendor["anthropic-beta"]) headers["anthropic-beta"] = vendor["anthropic-beta"];
  return headers;
}

function bodyOf(call: RelayCall): BodyInit {
  if (call.format !== "claude") return JSON.stringify(claudeRequestFromOpenAI(call, "url-source"));
  const edits = nativeClaudeEdits(call);
  return edits ? JSON.stringify({ ...call.json, ...edits }) : call.rawBody;
}

export const claudeAdaptor: ProviderAdaptor = {
  kind: 14,
  name: "Anthropic Claude",
  owner: "anthropic",
  defaultBaseUrl,
  defaultModels: channelTypeInfo(14)?.models ?? [],
  nativeFormats: ["claude"],

  buildRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
    const body = bodyOf(call);
    return {
      url: joinBaseUrl(target.baseUrl || defaultBaseUrl, "/v1/messages"),
      method: "POST",
      headers: { ...headersFor(call, target), "content-type": "application/json", accept: call.stream ? "text/event-stream" : "application/json" },
      body,
    };
  },
  defaultMaxTokens,
  convertResponse: convertClaudeResponse,
  createStreamConverter: (call, countCompletion) =>
    call.format === "claude" ? createClaudeNativeStreamConverter(call, countCompletion) : createClaudeStreamConverter(call, countCompletion),
  parseError: parseClaudeError,
  streamError: claudeStreamError,

  buildModelsRequest(target) {
    // One page of up to 1,000 models is every model Anthropic offers.
    return { url: `${joinBaseUrl(target.baseUrl || defaultBaseUrl, "/v1/models")}?limit=1000`, method: "GET", headers: headersFor(undefined, target) };
  },
  parseModels(body) {
    const parsed = JSON.parse(body) as { data?: { id?: unknown }[] };
    return (parsed.data ?? []).map((model) => model.id).filter((id): id is string => typeof id === "string" && id !== "");
  },
};
