// Cohere (channel type 34): the v2 API with a Bearer key. Chat on POST /v2/chat, whole or as an
// event stream (cohere-request.ts, cohere-answer.ts); rerank on POST /v2/rerank
// (cohere-rerank.ts); "fetch models" from GET /v1/models (chat and rerank models). Cohere reports
// no balance through the API.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { convertCohereChat, readCohereEvent } from "./cohere-answer.ts";
import { cohereStreamError, parseCohereError } from "./cohere-errors.ts";
import { cohereChatBody } from "./cohere-request.ts";
import { cohereRerankBody, convertCohereRerank } from "./cohere-rerank.ts";

const defaultBaseUrl = "https://api.cohere.com";
const rootOf = (target: UpstreamTarget) => (target.baseUrl || defaultBaseUrl).replace(/\/v[12]$/, "");

function route(call: RelayCall): { path: string; body: Record<string, unknown> } {
  if (call.endpoint === "chat") return { path: "/v2/chat", body: cohereChatBody(call) };
  if (call.endpoint === "rerank") return { path: "/v2/rerank", body: cohereRerankBody(call) };
  throw unsupportedEndpoint();
}

type ModelList = { models?: { name?: unknown; endpoints?: unknown }[] };

export const cohereAdaptor: ProviderAdaptor = {
  type: ChannelType.Cohere,
  name: "Cohere",
  owner: "cohere",
  defaultBaseUrl,

  buildRequest(call, target): UpstreamRequest {
    const { path, body } = route(call);
    return {
      url: rootOf(target) + path,
      method: "POST",
      headers: {
        authorization: `Bearer ${target.key}`,
        "content-type": "application/json",
        accept: call.stream ? "text/event-stream" : "application/json",
      },
      body: JSON.stringify(body),
    };
  },
  convertResponse: (call, body) => (call.endpoint === "rerank" ? convertCohereRerank(call, body) : convertCohereChat(call, body)),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readCohereEvent),
  parseError: parseCohereError,
  streamError: cohereStreamError,
  modelList: {
    request: (target) => ({
      url: `${rootOf(target)}/v1/models?page_size=1000`,
      method: "GET",
      headers: { authorization: `Bearer ${target.key}` },
    }),
    parse(body) {
      const list = (JSON.parse(body) as ModelList).models ?? [];
      return list
        .filter(
          (model) => Array.isArray(model.endpoints) && model.endpoints.some((endpoint) => endpoint === "chat" || endpoint === "rerank"),
        )
        .map((model) => model.name)
        .filter((name): name is string => typeof name === "string" && name !== "");
    },
  },
};
