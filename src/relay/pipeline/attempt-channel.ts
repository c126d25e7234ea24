// One attempt on one channel, up to the point where the client could be answered: adapt the
// call, send it, and read far enough to know it succeeded (a whole non-streamed answer, or the
// first event of a stream). Until then nothing has reached the client, so any failure here can
// still be retried on another channel.
import { optionNumber } from "../../services/options/options.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { ConvertedResponse, RelayCall, SseEvent, StreamConverter } from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { startDeadline, type Deadline } from "../upstream/deadline.ts";
import { createSseParser, type SseParser } from "../upstream/sse.ts";
import { networkFailure, statusFailure, type UpstreamFailure } from "../upstream/upstream-failure.ts";
import { countCompletionTokens } from "../../services/billing/token-counter.ts";

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
  parser: SseParser;
  decoder: TextDecoder;
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

function mappedStatus(channel: ChannelSnapshot, status: number): number {
  return channel.statusCodeMapping.get(status) ?? status;
}

async function readFirstEvents(reader: ReadableStreamDefaultReader<Uint8Array>, parser: SseParser, decoder: TextDecoder, deadline: Deadline) {
  const events: SseEvent[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      events.push(...parser.push(decoder.decode()), ...parser.flush());
      return events;
    }
    deadline.refresh();
    events.push(...parser.push(decoder.decode(value, { stream: true })));
    if (events.some((event) => event.data !== "")) return events;
  }
}

export async function attemptChannel(context: RelayContext, channel: ChannelSnapshot, timeouts: RelayTimeouts): Promise<Attempt> {
  const adaptor = channel.adaptor;
  if (!adaptor) return failed(localFailure("渠道类型暂不支持", 500, "new_api_error"));
  if (!channel.modelMapping) return failed(localFailure("渠道模型映射配置错误", 500, "new_api_error"));
  const call: RelayCall = {
    ...context.call,
    upstreamModel: channel.modelMapping[context.call.model] ?? context.call.model,
    promptTokens: context.promptTokens,
  };
  const request = adaptor.buildRequest(call, channel.target);
  const deadline = startDeadline(call.stream ? timeouts.streamIdleMs : timeouts.relayMs);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: "manual",
      signal: deadline.signal,
      ...(channel.target.setting.proxy ? { proxy: channel.target.setting.proxy } : {}),
    } as RequestInit);
  } catch (error) {
    deadline.clear();
    return failed(networkFailure(error));
  }

  try {
    if (response.status < 200 || response.status >= 300) {
      const text = await response.text();
      deadline.clear();
      return failed(statusFailure(response.status, mappedStatus(channel, response.status), adaptor.parseError(response.status, text), channel.target));
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (contentType.startsWith("text/event-stream") && response.body) {
      const reader = response.body.getReader();
      const parser = createSseParser();
      const decoder = new TextDecoder();
      const firstEvents = await readFirstEvents(reader, parser, decoder, deadline);
      const first = firstEvents.find((event) => event.data !== "");
      if (!first) {
        deadline.clear();
        return failed(localFailure("上游返回了空的流", 502, "upstream_error"));
      }
      const streamError = adaptor.streamError(first);
      if (streamError) {
        deadline.clear();
        void reader.cancel().catch(() => undefined);
        return failed(statusFailure(200, mappedStatus(channel, 502), streamError, channel.target, "error-in-body"));
      }
      const converter = adaptor.createStreamConverter(call, (output) => countCompletionTokens(output, call.model), context.promptTokens);
      return { ok: true, call, kind: "stream", stream: { reader, deadline, parser, decoder, converter, firstEvents } };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    deadline.clear();
    const converted = adaptor.convertResponse(call, bytes, contentType);
    if (converted.error) return failed(statusFailure(200, mappedStatus(channel, 502), converted.error, channel.target, "error-in-body"));
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
