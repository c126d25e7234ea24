// AI Proxy's knowledge base (channel type 21; `other` is the knowledge-base id): a question asked of
// one library, POST {base}/api/library/ask with a Bearer key and {libraryId, model, query,
// stream}. The library answers one question, not a conversation, so the query is the last user
// message; the answer is whole ({success, answer, documents} or success false with a message),
// and a client that asked for a stream gets it as chunks from the relay (whole-as-stream.ts).
// The service reports no usage: the relay counts the question and the answer locally.
import { AppError } from "../../../errors/app-error.ts";
import { ChannelType } from "../../../services/channels/channel-types.ts";
import type {
  Bytes,
  ConvertedResponse,
  ProviderAdaptor,
  RelayCall,
  UpstreamErrorDetails,
  UpstreamRequest,
  UpstreamTarget,
} from "../adaptor.ts";
import { refuseChannelSetup } from "../conversion-refusal.ts";
import { parseOpenAIError } from "../openai-compatible/openai-errors.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";
import { createOpenAIStreamConverter } from "../openai-compatible/openai-stream.ts";
import { messagesOf, textOf, unsupportedEndpoint } from "../vendor-format-helpers/chat-request.ts";
import { chatCompletion, failedAnswer } from "../vendor-format-helpers/whole-answer.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";

const defaultBaseUrl = "https://api.aiproxy.io";

type AskAnswer = { success?: unknown; answer?: unknown; errCode?: unknown; errorCode?: unknown; errMsg?: unknown; message?: unknown };

/** The question for the library: the last thing the user asked. */
export function queryOf(call: RelayCall): string {
  const messages = messagesOf(call);
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "user") return textOf(message.content);
  }
  throw new AppError("invalid", "缺少必填字段 {{field}}", { field: "messages (user)" }, { code: "invalid_request" });
}

/** Library ids are numbers on AI Proxy; the channel stores them as text. */
function libraryIdOf(target: UpstreamTarget): number | string {
  const id = target.other.trim();
  // The operator's to fix, not the client's: another channel is tried.
  if (!id) refuseChannelSetup("渠道未设置知识库 ID");
  return /^\d+$/.test(id) ? Number(id) : id;
}

export function askRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest {
  if (call.endpoint !== "chat") throw unsupportedEndpoint();
  // The knowledge base answers a query: none of OpenAI's generation fields reach it.
  refuseUnsupportedFields(call, "AI Proxy library", { outputLimit: false });
  const body = { libraryId: libraryIdOf(target), model: call.upstreamModel, query: queryOf(call), stream: false };
  return {
    url: joinBaseUrl(target.baseUrl || defaultBaseUrl, "/api/library/ask"),
    method: "POST",
    headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  };
}

function refusal(answer: AskAnswer): UpstreamErrorDetails {
  const message = [answer.errMsg, answer.message].find((value) => typeof value === "string" && value !== "") as string | undefined;
  const code = (answer.errCode ?? answer.errorCode ?? null) as string | number | null;
  return { message: message ?? "AI Proxy did not answer the question", type: "upstream_error", code, param: null };
}

export function convertAskAnswer(call: RelayCall, body: Bytes): ConvertedResponse {
  let answer: AskAnswer;
  try {
    answer = JSON.parse(new TextDecoder().decode(body)) as AskAnswer;
  } catch {
    return failedAnswer({
      message: "the upstream answered with a body that is not JSON",
      type: "upstream_error",
      code: "bad_response_body",
      param: null,
    });
  }
  if (answer.success !== true || typeof answer.answer !== "string") return failedAnswer(refusal(answer));
  return chatCompletion({ model: call.model, content: answer.answer, finishReason: "stop", usage: null });
}

const typeOfStatus = (status: number) =>
  status === 401
    ? "authentication_error"
    : status === 403
      ? "permission_error"
      : status === 429
        ? "rate_limit_error"
        : status >= 500
          ? "upstream_error"
          : "invalid_request_error";

/** A failed status: AI Proxy's own {success: false, message | errMsg}, or an OpenAI-style error. */
export function parseAskError(status: number, body: string): UpstreamErrorDetails {
  let parsed: AskAnswer | undefined;
  try {
    parsed = JSON.parse(body) as AskAnswer;
  } catch {
    parsed = undefined;
  }
  if (parsed && parsed.success === false) return { ...refusal(parsed), type: typeOfStatus(status) };
  return { ...parseOpenAIError(status, body), type: typeOfStatus(status) };
}

export const aiProxyLibraryAdaptor: ProviderAdaptor = {
  type: ChannelType.AIProxyLibrary,
  name: "AI Proxy",
  owner: "aiproxy",
  defaultBaseUrl,
  buildRequest: askRequest,
  // The library never streams; a streaming client is served chunks made from the whole answer.
  streamDecoder: () => null,
  convertResponse: (call, body) => convertAskAnswer(call, body),
  createStreamConverter: createOpenAIStreamConverter,
  parseError: parseAskError,
  streamError: () => undefined,
};
