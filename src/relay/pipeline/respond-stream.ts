// A stream's way to the client once its first event arrived. The client pulls; each pull reads
// upstream until there is something to send (backpressure: a slow client slows the upstream
// read instead of filling memory). Settlement happens before the closing [DONE] is sent.
//   - upstream ends ([DONE], or its end of stream): settled on the reported or counted usage, then
//     the closing events (usage chunk, [DONE]) are sent and the stream closes;
//   - upstream breaks or stalls (STREAMING_TIMEOUT): an error event, billed for what was delivered;
//   - client leaves: the upstream is read to its end (bounded by the idle timeout) so the
//     upstream's own usage is billed once (reliability plan, streaming settlement policy).
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { RelayCall, SseEvent } from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { networkFailureMessage, timeoutFailureMessage } from "../upstream/upstream-failure.ts";
import type { Translate } from "../../i18n/i18n.ts";
import type { OpenStream } from "./attempt-channel.ts";
import { relayHeaders } from "./relay-errors.ts";
import { settleCall } from "./settle-call.ts";

const encoder = new TextEncoder();

export function streamToClient(
  context: RelayContext,
  channel: ChannelSnapshot,
  call: RelayCall,
  open: OpenStream,
  translate: Translate,
): Response {
  const { reader, parser, decoder, converter, deadline } = open;
  let clientGone = false;
  let reading: Promise<unknown> = Promise.resolve();

  const render = (events: SseEvent[]): string => {
    let text = "";
    for (const event of events) for (const piece of converter.push(event)) text += piece;
    return text;
  };

  const settle = (incomplete?: string) => {
    deadline.clear();
    return settleCall(context, {
      channel,
      upstreamModel: call.upstreamModel,
      usage: converter.usage(),
      output: converter.output,
      incomplete,
    });
  };

  const errorEvent = (stalled: boolean): string => {
    const message = translate(stalled ? timeoutFailureMessage : networkFailureMessage);
    const error = { message: `${message} (request id: ${context.requestId})`, type: "upstream_error", param: "", code: stalled ? "upstream_timeout" : "upstream_stream_broken" };
    return `data: ${JSON.stringify({ error })}\n\n`;
  };

  /** After the client left: read the rest for the upstream's usage, then settle. */
  const drain = async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        deadline.refresh();
        render(parser.push(decoder.decode(value, { stream: true })));
      }
      render(parser.flush());
      await settle("客户端断开"); // i18n-exempt: stored log text
    } catch {
      await settle("客户端断开，上游中断"); // i18n-exempt: stored log text
    }
  };

  /** Reads what the upstream still sends after [DONE] (its end), keeping its connection reusable. */
  const discardRest = async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // The upstream closed abruptly after its answer: nothing is lost.
    }
  };

  /** The answer is complete: settle, send the closing events, close. */
  const complete = async (controller: ReadableStreamDefaultController<Uint8Array>, closing: string) => {
    await settle();
    if (closing) controller.enqueue(encoder.encode(closing));
    controller.close();
    void discardRest();
  };

  let heldBack = "";

  const pump = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    try {
      if (converter.finished()) return await complete(controller, heldBack);
      for (;;) {
        const { value, done } = await reader.read();
        if (clientGone) {
          if (!done) render(parser.push(decoder.decode(value, { stream: true })));
          return;
        }
        if (done) {
          const tail = render(parser.push(decoder.decode()).concat(parser.flush())) + converter.finish().join("");
          return await complete(controller, tail);
        }
        deadline.refresh();
        const whole = !parser.pending();
        const received = decoder.decode(value, { stream: true });
        const text = render(parser.push(received));
        // [DONE] leaves only after the settlement: what the client saw is already in its balance.
        if (converter.finished()) return await complete(controller, text);
        if (text) {
          // Events passed through untouched leave as the bytes that came in (no re-encoding).
          controller.enqueue(whole && !parser.pending() && text === received ? value : encoder.encode(text));
          return;
        }
      }
    } catch {
      if (clientGone) return;
      const stalled = deadline.expired;
      await settle(stalled ? "上游响应超时" : "上游中断"); // i18n-exempt: stored log text
      controller.enqueue(encoder.encode(errorEvent(stalled)));
      controller.close();
    }
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const first = render(open.firstEvents);
      context.firstResponseMs = Math.round(performance.now() - context.startedAt);
      // A short answer may be whole already; its end waits for the settlement in the first pull.
      if (converter.finished()) heldBack = first;
      else if (first) controller.enqueue(encoder.encode(first));
    },
    pull(controller) {
      reading = pump(controller);
      return reading as Promise<void>;
    },
    cancel() {
      clientGone = true;
      void reading.finally(drain);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...relayHeaders(context.requestId) },
  });
}
