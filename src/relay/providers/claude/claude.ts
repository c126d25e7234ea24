// Anthropic Claude (channel type 14): the Messages API at {base}/v1/messages, authenticated by
// x-api-key with an anthropic-version header. OpenAI-style calls are converted both ways
// (chat-to-claude-request.ts, claude-to-chat-response.ts, claude-to-chat-stream.ts); calls made in Claude's own format
// pass through (claude-native.ts).
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { HostedTool, ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { withoutThinking } from "./claude-messages.ts";
import { addWebSearch } from "./claude-tools.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";
import { claudeStreamError, parseClaudeError } from "./claude-to-chat-errors.ts";
import { defaultMaxTokens } from "./claude-models.ts";
import { createClaudeNativeStreamConverter, nativeClaudeEdits } from "./claude-native.ts";
import { claudeRequestFromOpenAI } from "./chat-to-claude-request.ts";
import { convertClaudeResponse } from "./claude-to-chat-response.ts";
import { createClaudeStreamConverter } from "./claude-to-chat-stream.ts";
import type { ClaudeModelList } from "./claude-wire.ts";
import { unverified, unverifiedList } from "../unverified.ts";

const anthropicVersion = "2023-06-01";
const defaultBaseUrl = "https://api.anthropic.com";

function headersFor(call: RelayCall | undefined, target: UpstreamTarget): Record<string, string> {
  const vendor = call?.vendorHeaders ?? {};
  const headers: Record<string, string> = { "x-api-key": target.key, "anthropic-version": vendor["anthropic-version"] || anthropicVersion };
  if (vendor["anthropic-beta"]) headers["anthropic-beta"] = vendor["anthropic-beta"];
  return headers;
}

/** Hosted tools Anthropic runs itself for a converted call: web search, when the channel allows it. */
function hostedToolsCarried(call: RelayCall, target: UpstreamTarget): HostedTool["type"][] {
  if (!target.setting.hosted_tools) return [];
  return (call.hostedTools ?? []).filter((tool) => tool.type === "web_search").map((tool) => tool.type);
}

function bodyOf(call: RelayCall, target: UpstreamTarget): BodyInit {
  if (call.format !== "claude") {
    const body = claudeRequestFromOpenAI(call, "url-source");
    const search = call.hostedTools?.find((tool) => tool.type === "web_search");
    if (search && hostedToolsCarried(call, target).includes("web_search")) {
      const required = call.requiredHostedTool === "web_search";
      addWebSearch(body, search, required);
      if (required && body.thinking) {
        delete body.thinking;
        body.messages = withoutThinking(body.messages);
      }
    }
    return JSON.stringify(body);
  }
  const edits = nativeClaudeEdits(call);
  return edits ? JSON.stringify({ ...call.json, ...edits }) : call.rawBody;
}

export const claudeAdaptor: ProviderAdaptor = {
  type: ChannelType.Claude,
  name: "Anthropic Claude",
  owner: "anthropic",
  defaultBaseUrl,
  nativeFormats: ["claude"],

  buildRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
    const body = bodyOf(call, target);
    return {
      url: joinBaseUrl(target.baseUrl || defaultBaseUrl, "/v1/messages"),
      method: "POST",
      headers: {
        ...headersFor(call, target),
        "content-type": "application/json",
        accept: call.stream ? "text/event-stream" : "application/json",
      },
      body,
    };
  },
  defaultMaxTokens,
  hostedToolsCarried,
  convertResponse: convertClaudeResponse,
  createStreamConverter: (call, countCompletion) =>
    call.format === "claude"
      ? createClaudeNativeStreamConverter(call, countCompletion)
      : createClaudeStreamConverter(call, countCompletion),
  parseError: parseClaudeError,
  streamError: claudeStreamError,
  modelList: {
    request(target) {
      // One page of up to 1,000 models is every model Anthropic offers.
      return {
        url: `${joinBaseUrl(target.baseUrl || defaultBaseUrl, "/v1/models")}?limit=1000`,
        method: "GET",
        headers: headersFor(undefined, target),
      };
    },
    parse(body) {
      const list = unverified<ClaudeModelList>(JSON.parse(body));
      return unverifiedList<ClaudeModelList["data"][number]>(list?.data)
        .map((model) => model.id)
        .filter((id): id is string => typeof id === "string" && id !== "");
    },
  },
};
