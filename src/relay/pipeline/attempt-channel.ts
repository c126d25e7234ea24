// One attempt on one channel, up to the point where the client could be answered: adapt the
// call, send it, and read far enough to know it succeeded (a whole non-streamed answer, or the
// first event of a stream). Until then nothing has reached the client, so any failure here can
// still be retried on another channel.
import { isAppError, type AppError } from "../../errors/app-error.ts";
import { optionNumber } from "../../services/options/options.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { ConvertedResponse, FrameDecoder, ProviderAdaptor, RelayCall, SseEvent, StreamConverter, UpstreamErrorDetails, UpstreamRequest, UpstreamTarget } from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { CredentialExchangeError, forgetCredential, targetWithCredential } from "../upstream/credential-cache.ts";
import { startDeadline, type Deadline } from "../upstream/deadline.ts";
import { sendUpstream } from "../upstream/send-upstream.ts";
import { createSseDecoder, isEventStream } from "../upstream/sse-decoder.ts";
import { networkFailure, retryAfterSeconds, statusFailure, type UpstreamFailure } from "../upstream/upstream-failure.ts";
import { countCompletionTokens } from "../../services/billing/token-counter.ts";
import { bridgeAttempt, chatCallFor, speaksFormat } from "../inbound/chat-bridge.ts";
import { collectStream } from "./collect-stream.ts";
import { wholeAnswerAsStream } from "./whole-as-stream.ts";

export type RelayTimeouts = {
  /** Whole non-streamed exchange; 0 = no limit (RELAY_TIMEOUT). */
  relayMs: number;
  /** Silence allowed on a stream, before its first event too (STREAMING_TIMEOUT). */
  streamIdleMs: number;
};

/** A stream whose first event arrived: what the client stream continues from. */
export type OpenStream = {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  deadline: Deadline;
  frames: FrameDecoder;
  converter: StreamConverter;
  firstEvents: SseEvent[];
};

export type Attempt =
  | { ok: true; call: RelayCall; kind: "json"; converted: ConvertedResponse }
  | { ok: true; call: RelayCall; kind: "stream"; stream: OpenStream }
  | { ok: false; failure: UpstreamFailure };

const failed = (failure: UpstreamFailure): Attempt => ({ ok: false, failure });

function localFailure(message: string, status: number, type: string): UpstreamFailure {
  return { kind: "network", status, upstreamStatus: 0, details: { message, type, code: null, param: null }, localMessage: true };
}

/** A call the kind refused to convert (conversion-refusal.ts): its message, translated, and status. */
function refusalFailure(error: AppError): UpstreamFailure {
  const status = error.httpStatus ?? (error.kind === "invalid" ? 400 : 500);
  return {
    kind: "status",
    status,
    upstreamStatus: 0,
    details: { message: error.messageKey, type: status === 400 ? "invalid_request_error" : "new_api_error", code: error.code ?? null, param: null },
    localMessage: true,
  };
}

function mappedStatus(channel: ChannelSnapshot, status: number): number {
  return channel.statusCodeMapping.get(status) ?? status;
}

/** An error inside a successful answer, with the status it stands for (default 502). */
function errorInBody(channel: ChannelSnapshot, adaptor: ProviderAdaptor, target: UpstreamTarget, details: UpstreamErrorDetails): UpstreamFailure {
  forgetRejectedCredential(adaptor, target, 200, details);
  return statusFailure(200, mappedStatus(channel, details.status ?? 502), details, channel.target, "error-in-body");
}

/** A 401, or an error the kind says invalidates the exchanged credential, drops it. */
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

function credentialFailure(channel: ChannelSnapshot, adaptor: ProviderAdaptor, error: CredentialExchangeError): UpstreamFailure {
  if (error.status === 0) return localFailure(error.body, 502, "upstream_error");
  return statusFailure(error.status, mappedStatus(channel, error.status), adaptor.parseError(error.status, error.body), channel.target);
}

/**
 * The call as this channel receives it: the model after the channel's model_mapping, in the
 * client's format when the channel speaks it, else as the OpenAI chat request it converts to
 * (a call the conversion cannot carry throws its clear 400 here; no channel is blamed).
 */
export function callForChannel(context: RelayContext, channel: ChannelSnapshot): RelayCall | undefined {
  if (!channel.modelMapping) return undefined;
  const call = context.call;
  const upstreamModel = channel.modelMapping[call.model] ?? call.model;
  const countPromptTokens = context.prompt.count;
  const { completionAllowance } = context;
  if (speaksFormat(channel.adaptor, call.format)) return { ...call, upstreamModel, countPromptTokens, completionAllowance };
  return chatCallFor(call, upstreamModel, countPromptTokens, completionAllowance);
}

export async function attemptChannel(context: RelayContext, channel: ChannelSnapshot, timeouts: RelayTimeouts): Promise<Attempt> {
  if (!channel.adaptor) return failed(localFailure("渠道类型暂不支持", 500, "new_api_error"));
  const call = callForChannel(context, channel);
  if (!call) return failed(localFailure("渠道模型映射配置错误", 500, "new_api_error"));
  const attempt = await exchangeWithChannel(call, channel, timeouts);
  // A converted call's answer goes back in the client's format.
  return call.format === context.call.format ? attempt : bridgeAttempt(context.call, context.prompt.count, attempt);
}

/**
 * Sends one call to one channel and reads its answer far enough: used by the relay and by
 * channel tests alike, so a test exercises exactly what a client's call would.
 */
export async function exchangeWithChannel(call: RelayCall, channel: ChannelSnapshot, timeouts: RelayTimeouts): Promise<Attempt> {
  const adaptor = channel.adaptor;
  if (!adaptor) return failed(localFailure("渠道类型暂不支持", 500, "new_api_error"));
  let target: UpstreamTarget;
  try {
    target = await targetWithCredential(adaptor, channel.target);
  } catch (error) {
    if (error instanceof CredentialExchangeError) return failed(credentialFailure(channel, adaptor, error));
    // A key the kind cannot even build the exchange from (a malformed service-account key).
    if (isAppError(error)) return failed(refusalFailure(error));
    return failed(networkFailure(error));
  }
  let request: UpstreamRequest;
  try {
    request = await adaptor.buildRequest(call, target);
  } catch (error) {
    return failed(isAppError(error) ? refusalFailure(error) : networkFailure(error));
  }
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
      return failed(statusFailure(response.status, mappedStatus(channel, response.status), details, channel.target, "status", retryAfter));
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
        // The kind streamed an answer the client wants whole: fold it (collect-stream.ts).
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
      // The kind answered whole a client that wants a stream: its chunks (whole-as-stream.ts).
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
