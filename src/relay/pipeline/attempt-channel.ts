// One attempt on one channel, up to the point where the client could be answered: adapt the
// call, send it, and read far enough to know it succeeded (a whole non-streamed answer, or the
// first event of a stream). Until then nothing has reached the client, so any failure here can
// still be retried on another channel.
import { AppError, isAppError } from "../../errors/app-error.ts";
import { optionNumber } from "../../services/options/options.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type {
  FrameDecoder,
  ProviderAdaptor,
  RelayCall,
  SseEvent,
  UpstreamErrorDetails,
  UpstreamRequest,
  UpstreamTarget,
} from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { turnIsLong, waitForShortTurn } from "../loop-turns.ts";
import { isLargeBody } from "../request/json-body.ts";
import { CredentialExchangeError, forgetCredential, targetWithCredential } from "../upstream/credential-cache.ts";
import { startDeadline, type Deadline } from "../upstream/deadline.ts";
import { sendUpstream } from "../upstream/send-upstream.ts";
import { createSseDecoder, isEventStream } from "../upstream/sse-decoder.ts";
import { networkFailure, retryAfterSeconds, statusFailure, type UpstreamFailure } from "../upstream/upstream-failure.ts";
import { countCompletionTokens } from "../../services/billing/token-counter.ts";
import { bridgeAttempt, chatCallFor, speaksFormat } from "../inbound/chat-bridge.ts";
import { collectStream } from "./collect-stream.ts";
import { wholeAnswerAsStream } from "./whole-as-stream.ts";
import type { Attempt, RelayTimeouts } from "./attempt-types.ts";

const failed = (failure: UpstreamFailure): Attempt => ({ ok: false, failure });

function localFailure(message: string, status: number, type: string): UpstreamFailure {
  return { kind: "network", status, upstreamStatus: 0, details: { message, type, code: null, param: null }, localMessage: true };
}

/** A call the type refused to convert (conversion-refusal.ts): its message, translated, and status. */
function refusalFailure(error: AppError): UpstreamFailure {
  const status = error.httpStatus ?? (error.kind === "invalid" ? 400 : 500);
  return {
    kind: "status",
    status,
    upstreamStatus: 0,
    details: {
      message: error.messageKey,
      type: status === 400 ? "invalid_request_error" : "new_api_error",
      code: error.code ?? null,
      param: null,
    },
    localMessage: true,
    ...(error.params ? { localParams: error.params } : {}),
  };
}

function mappedStatus(channel: ChannelSnapshot, status: number): number {
  return channel.statusCodeMapping.get(status) ?? status;
}

/** An error inside a successful answer, with the status it stands for (default 502). */
function errorInBody(
  channel: ChannelSnapshot,
  adaptor: ProviderAdaptor,
  target: UpstreamTarget,
  details: UpstreamErrorDetails,
): UpstreamFailure {
  forgetRejectedCredential(adaptor, target, 200, details);
  return statusFailure(200, mappedStatus(channel, details.status ?? 502), details, target, "error-in-body");
}

/** A 401, or an error the type says invalidates the exchanged credential, drops it. */
function forgetRejectedCredential(adaptor: ProviderAdaptor, target: UpstreamTarget, status: number, details: UpstreamErrorDetails): void {
  const exchange = adaptor.credential;
  if (exchange && (status === 401 || details.status === 401 || exchange.rejected?.(details))) forgetCredential(exchange, target);
}

async function readFirstEvents(reader: ReadableStreamDefaultReader<Uint8Array>, frames: FrameDecoder, deadline: Deadline) {
  const events: SseEvent[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      events.push(...frames.flush());
      return events;
    }
    deadline.refresh();
    events.push(...frames.push(value));
    if (events.some((event) => event.data !== "")) return events;
  }
}

function decoderFor(adaptor: ProviderAdaptor, contentType: string, call: RelayCall): FrameDecoder | null {
  if (adaptor.streamDecoder) return adaptor.streamDecoder(contentType, call);
  return isEventStream(contentType) ? createSseDecoder() : null;
}

function credentialFailure(
  channel: ChannelSnapshot,
  adaptor: ProviderAdaptor,
  error: CredentialExchangeError,
  keyTarget: UpstreamTarget,
): UpstreamFailure {
  if (error.status === 0) return localFailure(error.body, 502, "upstream_error");
  return statusFailure(error.status, mappedStatus(channel, error.status), adaptor.parseError(error.status, error.body), keyTarget);
}

/**
 * The call as this channel receives it: the model after the channel's model_mapping, in the
 * client's format when the channel speaks it, else as the OpenAI chat request it converts to
 * (a call the conversion cannot carry throws its clear 400 here; no channel is blamed).
 */
function callForChannel(context: RelayContext, channel: ChannelSnapshot): RelayCall | undefined {
  if (!channel.modelMapping) return undefined;
  const call = context.call;
  const upstreamModel = channel.modelMapping[call.model] ?? call.model;
  const countPromptTokens = context.prompt.count;
  const { completionAllowance } = context;
  if (speaksFormat(channel.adaptor, call.format)) return { ...call, upstreamModel, countPromptTokens, completionAllowance };
  return chatCallFor(call, upstreamModel, countPromptTokens, completionAllowance);
}

/**
 * The tools a converted call goes without on this channel (for the log): those no channel runs,
 * and the hosted tools this type has no equivalent for or the channel does not allow. A call
 * whose tool_choice names a hosted tool left out is refused: it means nothing without it.
 */
function leaveOutTools(context: RelayContext, channel: ChannelSnapshot, call: RelayCall): AppError | undefined {
  const hosted = call.hostedTools ?? [];
  const carried = hosted.length || call.requiredHostedTool ? (channel.adaptor?.hostedToolsCarried?.(call, channel.target) ?? []) : [];
  const leftOut = [
    ...(context.call.asChat?.leftOut ?? []),
    ...hosted.filter((tool) => !carried.includes(tool.type)).map((tool) => tool.type),
  ];
  context.toolsLeftOut = leftOut.length ? leftOut : undefined;
  if (call.requiredHostedTool && !carried.includes(call.requiredHostedTool)) {
    return new AppError(
      "invalid",
      "工具类型 {{type}} 只能由原生支持该格式的渠道执行",
      { type: call.requiredHostedTool },
      { code: "conversion_unsupported" },
    );
  }
  return undefined;
}

/** `keyTarget`: the channel's target with the key chosen for this attempt (a multi-key channel's). */
export async function attemptChannel(
  context: RelayContext,
  channel: ChannelSnapshot,
  timeouts: RelayTimeouts,
  keyTarget: UpstreamTarget = channel.target,
): Promise<Attempt> {
  if (!channel.adaptor) return failed(localFailure("渠道类型暂不支持", 500, "new_api_error"));
  const call = callForChannel(context, channel);
  if (!call) return failed(localFailure("渠道模型映射配置错误", 500, "new_api_error"));
  if (call.format !== context.call.format) {
    // Refused outright (its 400 with the tool's name): no channel is blamed, nothing is retried.
    const refusal = leaveOutTools(context, channel, call);
    if (refusal) throw refusal;
  } else context.toolsLeftOut = undefined;
  const attempt = await exchangeWithChannel(call, channel, timeouts, keyTarget);
  // A converted call's answer goes back in the client's format.
  const converted = call.format !== context.call.format;
  const answered = converted ? bridgeAttempt(context.call, context.prompt.count, attempt) : attempt;
  return context.call.keeper ? context.call.keeper.watch(answered, converted) : answered;
}

/**
 * Sends one call to one channel and reads its answer far enough: used by the relay and by
 * channel tests alike, so a test exercises exactly what a client's call would.
 */
export async function exchangeWithChannel(
  call: RelayCall,
  channel: ChannelSnapshot,
  timeouts: RelayTimeouts,
  keyTarget: UpstreamTarget = channel.target,
): Promise<Attempt> {
  const adaptor = channel.adaptor;
  if (!adaptor) return failed(localFailure("渠道类型暂不支持", 500, "new_api_error"));
  let target: UpstreamTarget;
  try {
    target = await targetWithCredential(adaptor, keyTarget);
  } catch (error) {
    if (error instanceof CredentialExchangeError) return failed(credentialFailure(channel, adaptor, error, keyTarget));
    // A key the type cannot even build the exchange from (a malformed service-account key).
    if (isAppError(error)) return failed(refusalFailure(error));
    return failed(networkFailure(error));
  }
  let request: UpstreamRequest;
  try {
    request = await adaptor.buildRequest(call, target);
  } catch (error) {
    return failed(isAppError(error) ? refusalFailure(error) : networkFailure(error));
  }
  // Serialising a large call took its time: the loop may poll for others before it is sent.
  if (isLargeBody(call.rawBody) && turnIsLong(performance.now())) await waitForShortTurn();
  const deadline = startDeadline(call.stream ? timeouts.streamIdleMs : timeouts.relayMs);
  let response: Response;
  try {
    response = await sendUpstream(adaptor, request, target, deadline.signal);
  } catch (error) {
    deadline.clear();
    return failed(networkFailure(error));
  }

  try {
    if (response.status < 200 || response.status >= 300) {
      const text = await response.text();
      deadline.clear();
      const details = adaptor.parseError(response.status, text);
      forgetRejectedCredential(adaptor, target, response.status, details);
      const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
      return failed(statusFailure(response.status, mappedStatus(channel, response.status), details, keyTarget, "status", retryAfter));
    }
    const contentType = response.headers.get("content-type") ?? "";
    const frames = response.body ? decoderFor(adaptor, contentType, call) : null;
    if (frames && response.body) {
      const reader = response.body.getReader();
      const firstEvents = await readFirstEvents(reader, frames, deadline);
      const first = firstEvents.find((event) => event.data !== "");
      if (!first) {
        deadline.clear();
        return failed(localFailure("上游返回了空的流", 502, "upstream_error"));
      }
      const streamError = adaptor.streamError(first, call);
      if (streamError) {
        deadline.clear();
        void reader.cancel().catch(() => undefined);
        return failed(errorInBody(channel, adaptor, target, streamError));
      }
      const converter = adaptor.createStreamConverter(call, (output) => countCompletionTokens(output, call.model));
      if (!call.stream) {
        // The type streamed an answer the client wants whole: fold it (collect-stream.ts).
        const converted = await collectStream(call, reader, frames, converter, firstEvents, deadline);
        if (converted.error) return failed(errorInBody(channel, adaptor, target, converted.error));
        return { ok: true, call, kind: "json", converted };
      }
      return { ok: true, call, kind: "stream", stream: { reader, deadline, frames, converter, firstEvents } };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    deadline.clear();
    const converted = adaptor.convertResponse(call, bytes, contentType);
    if (converted.error) return failed(errorInBody(channel, adaptor, target, converted.error));
    if (call.stream) {
      // The type answered whole a client that wants a stream: its chunks (whole-as-stream.ts).
      const stream = wholeAnswerAsStream(call, converted, (output) => countCompletionTokens(output, call.model), deadline);
      if (stream) return { ok: true, call, kind: "stream", stream };
    }
    return { ok: true, call, kind: "json", converted };
  } catch (error) {
    deadline.clear();
    return failed(networkFailure(error));
  }
}

/** How many attempts a request gets: the first plus RetryTimes retries (pinned channels: one). */
export function attemptLimit(pinned: boolean): number {
  return pinned ? 1 : 1 + Math.max(0, Math.floor(optionNumber("RetryTimes")));
}
