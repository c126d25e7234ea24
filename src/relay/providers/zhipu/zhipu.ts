// Zhipu ChatGLM on the v3 model API (channel type 16): POST /api/paas/v3/model-api/{model}/invoke
// for whole answers, …/sse-invoke for streams, authorised by the signed JWT (zhipu-jwt.ts) in the
// Authorization header. The body is {prompt: [{role, content}], temperature, top_p, incremental}:
// only user and assistant turns exist, so a system prompt opens the first user turn. Chat only;
// no model list or balance on this API.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type { ProviderAdaptor, RelayCall, UpstreamRequest } from "../adaptor.ts";
import { messagesOf, numberField, stringField, textOf, unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { createChunkStream } from "../vendor-format-helpers/chunk-stream.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import { convertV3Response, parseV3Error, readV3Event, v3StreamError } from "./zhipu-answer.ts";
import { zhipuToken } from "./zhipu-jwt.ts";

type Turn = { role: "user" | "assistant"; content: string };

function v3Prompt(call: RelayCall): Turn[] {
  const system: string[] = [];
  const turns: Turn[] = [];
  for (const message of messagesOf(call)) {
    const content = textOf(message.content);
    if (message.role === "system" || message.role === "developer") {
      if (content) system.push(content);
    } else turns.push({ role: message.role === "assistant" ? "assistant" : "user", content });
  }
  if (system.length) {
    const first = turns.find((turn) => turn.role === "user");
    if (first) first.content = `${system.join("\n")}\n${first.content}`;
    else turns.unshift({ role: "user", content: system.join("\n") });
  }
  return turns;
}

const clampOpen = (value: number) => Math.min(0.99, Math.max(0.01, value));

export function v3Body(call: RelayCall): Record<string, unknown> {
  // ChatGLM v3's invoke takes no output limit or any of the newer fields.
  refuseUnsupportedFields(call, "Zhipu ChatGLM v3", { outputLimit: false });
  const body: Record<string, unknown> = { prompt: v3Prompt(call) };
  const temperature = numberField(call, "temperature");
  if (temperature !== undefined) body.temperature = clampOpen(temperature);
  const topP = numberField(call, "top_p");
  if (topP !== undefined) body.top_p = clampOpen(topP);
  const requestId = stringField(call, "request_id");
  if (requestId) body.request_id = requestId;
  if (call.stream) body.incremental = true;
  return body;
}

const defaultBaseUrl = "https://open.bigmodel.cn";

export const zhipuAdaptor: ProviderAdaptor = {
  type: ChannelType.Zhipu,
  name: "Zhipu ChatGLM",
  owner: "zhipu",
  defaultBaseUrl,

  buildRequest(call, target): UpstreamRequest {
    if (call.endpoint !== "chat") throw unsupportedEndpoint();
    const method = call.stream ? "sse-invoke" : "invoke";
    return {
      url: `${target.baseUrl || defaultBaseUrl}/api/paas/v3/model-api/${encodeURIComponent(call.upstreamModel)}/${method}`,
      method: "POST",
      headers: {
        authorization: zhipuToken(target.key),
        "content-type": "application/json",
        accept: call.stream ? "text/event-stream" : "application/json",
      },
      body: JSON.stringify(v3Body(call)),
    };
  },
  convertResponse: (call, body) => convertV3Response(call, body),
  createStreamConverter: (call, countCompletion) => createChunkStream(call, countCompletion, readV3Event),
  parseError: parseV3Error,
  streamError: v3StreamError,
};
