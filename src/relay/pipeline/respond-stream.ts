// A stream's way to the client once its first event arrived. The client pulls; each pull reads
// upstream until there is something to send (backpressure: Bun asks for the next piece only when
// the client's socket took the last one, so a slow client slows the upstream read instead of
// filling memory). Settlement happens before the closing [DONE] is sent. Bun's idle timer is off
// for the stream (connection-idle.ts): the stream times both sides itself, with STREAMING_TIMEOUT.
//   - upstream ends ([DONE], or its end of stream): settled on the reported or counted usage, then
//     the closing events (usage chunk, [DONE]) are sent and the stream closes;
//   - upstream breaks or stalls (STREAMING_TIMEOUT): an error event, billed for what was delivered;
//   - client leaves: the upstream call is cancelled at once (it would keep generating output
//     nobody receives, and hold a connection), and what was delivered is billed: the prompt plus
//     the completion sent so far, counted locally, logged as a client disconnect (reliability
//     plan, streaming settlement policy);
//   - client reads nothing for STREAMING_TIMEOUT (its socket stays full): the same as leaving,
//     and Bun is asked to drop the connection;
//   - the server stops and the grace period is over (the flight's cut, in-flight.ts): the upstream
//     read is abandoned, what was delivered is settled, and the client gets an error event.
// Whichever way it ends, the flight ends after the settlement.
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { RelayCall, SseEvent } from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { networkFailureMessage, timeoutFailureMessage } from "../upstream/upstream-failure.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { trackStream } from "../../metrics/metrics.ts";
import type { OpenStream } from "./attempt-types.ts";
import { streamErrorTextIn } from "../inbound/codecs.ts";
import { relayHeaders, serverStoppingMessage } from "./relay-errors.ts";
import { turnIsLong, waitForShortTurn } from "../loop-turns.ts";
import { settleCall } from "./settle-call.ts";
import { watchClient } from "./client-watch.ts";

const encoder = new TextEncoder();

/** Why a stream ended early, as written in its consumption log. */
const endNotes = {
  stalled: "上游响应超时", // i18n-exempt: stored log text
  broken: "上游中断", // i18n-exempt: stored log text
  stopping: "服务停止", // i18n-exempt: stored log text
} as const;

type EndReason = keyof typeof endNotes;

export function streamToClient(
  context: RelayContext,
  channel: ChannelSnapshot,
  call: RelayCall,
  open: OpenStream,
  translate: Translate,
  streamIdleMs: number,
): Response {
  const { reader, frames, converter, deadline } = open;
  const { flight, connection } = context;
  context.streaming = true;
  connection.streaming();
  let clientGone = false;
  /** The server is stopping: the pump leaves the rest to cutStream. */
  let cutting = false;
  /** Settled and closed (or being so): nothing else may write to the client. */
  let ended = false;
  let reading: Promise<unknown> = Promise.resolve();
  let client: ReadableStreamDefaultController<Uint8Array> | undefined;
  const inFlight = trackStream();
  /** Since when a piece waits for the client to ask for more (0: the client is asking). */
  let awaitingClientSince = 0;
  // The request inspector's copy of what the client is sent (only while a capture is on).
  const capture = context.capture;
  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    controller.enqueue(bytes);
    capture?.sent(bytes);
  };
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    enqueue(controller, bytes);
    awaitingClientSince = performance.now();
  };

  const render = (events: SseEvent[]): string => {
    let text = "";
    for (const event of events) for (const piece of converter.push(event)) text += piece;
    return text;
  };

  const settle = (incomplete?: string) => {
    deadline.clear();
    watch.stop();
    inFlight.end();
    return settleCall(context, {
      channel,
      upstreamModel: call.upstreamModel,
      upstreamFormat: call.format,
      usage: converter.usage(),
      output: converter.output,
      incomplete,
    });
  };

  /** The event ending a stream early, in the client's format (the converter's, when it has one). */
  const errorEvent = (reason: EndReason): string => {
    const message = translate(
      reason === "stalled" ? timeoutFailureMessage : reason === "broken" ? networkFailureMessage : serverStoppingMessage,
    );
    const error = {
      status: reason === "stalled" ? 504 : reason === "broken" ? 502 : 503,
      message: `${message} (request id: ${context.requestId})`,
      type: reason === "stopping" ? "server_error" : "upstream_error",
      param: "",
      code: reason === "stalled" ? "upstream_timeout" : reason === "broken" ? "upstream_stream_broken" : "server_shutting_down",
    };
    return converter.abort ? converter.abort(error).join("") : streamErrorTextIn(context.call.format, error);
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
    ended = true;
    try {
      await settle();
      // What a stateful format keeps of the answer is written before the client sees its end.
      await context.call.keeper?.save(channel);
      connection.done();
      if (closing) enqueue(controller, encoder.encode(closing));
      controller.close();
    } finally {
      flight.end();
    }
    capture?.saveLater(context.requestId);
    void discardRest();
  };

  /** Settles what was delivered, then ends the stream with an error event. */
  const endWithError = async (controller: ReadableStreamDefaultController<Uint8Array>, reason: EndReason) => {
    ended = true;
    try {
      await settle(endNotes[reason]);
      connection.done();
      enqueue(controller, encoder.encode(errorEvent(reason)));
      controller.close();
    } catch {
      // The client left at the same moment: the settlement above is what counts.
    } finally {
      flight.end();
    }
    capture?.saveLater(context.requestId);
  };

  /**
   * The client read nothing for the stream's idle timeout: it is cut like a client that left
   * (whatever it still holds unread stays its problem), and Bun drops its connection.
   */
  const clientStalled = () => {
    if (ended) return;
    clientGone = true;
    ended = true;
    connection.drop();
    void clientLeft();
  };
  const watch = watchClient(() => (ended ? -1 : awaitingClientSince), streamIdleMs, clientStalled);

  /** The client left: the upstream call ends at once and what was delivered is billed. */
  const clientLeft = async () => {
    deadline.clear();
    await reader.cancel().catch(() => undefined);
    try {
      await settle("客户端断开"); // i18n-exempt: stored log text
    } finally {
      flight.end();
    }
    capture?.saveLater(context.requestId);
  };

  /**
   * The server is stopping and the grace period is over. A pull in progress is woken (cancelling
   * the upstream read ends it) and left to finish its step; then, unless that step completed the
   * answer or the client had left (that path settles then), what was delivered is settled and
   * the client gets an error event, whether or not it is reading.
   */
  const cutStream = async () => {
    if (ended) return;
    cutting = true;
    await reader.cancel().catch(() => undefined);
    await reading.catch(() => undefined);
    if (ended || clientGone || !client) return;
    if (converter.finished()) return complete(client, heldBack);
    await endWithError(client, "stopping");
  };

  let heldBack = "";

  const pump = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (ended || cutting) return;
    try {
      if (converter.finished()) return await complete(controller, heldBack);
      if (turnIsLong(awaitingClientSince || performance.now())) {
        await waitForShortTurn();
        if (ended || cutting) return;
      }
      for (;;) {
        const { value, done } = await reader.read();
        // Read after the client left or the cut: never delivered, so never billed.
        if (cutting || clientGone) return;
        if (done) {
          const tail = render(frames.flush()) + converter.finish().join("");
          return await complete(controller, tail);
        }
        deadline.refresh();
        const whole = !frames.pending();
        const text = render(frames.push(value));
        // [DONE] leaves only after the settlement: what the client saw is already in its balance.
        if (converter.finished()) return await complete(controller, text);
        if (text) {
          // Events passed through untouched leave as the bytes that came in (no re-encoding).
          send(controller, whole && !frames.pending() && text === frames.lastText?.() ? value : encoder.encode(text));
          return;
        }
      }
    } catch {
      if (clientGone || cutting || ended) return;
      await endWithError(controller, deadline.expired ? "stalled" : "broken");
    }
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      client = controller;
      const first = render(open.firstEvents);
      context.firstResponseMs = Math.round(performance.now() - context.startedAt);
      // A short answer may be whole already; its end waits for the settlement in the first pull.
      if (converter.finished()) heldBack = first;
      else if (first) send(controller, encoder.encode(first));
    },
    pull(controller) {
      // The upstream's silence counts from now: time the client took to read is not its own.
      deadline.refresh();
      reading = pump(controller);
      awaitingClientSince = 0;
      return reading as Promise<void>;
    },
    cancel() {
      clientGone = true;
      // A stream already complete was settled before its end left.
      if (ended) return;
      ended = true;
      void clientLeft();
    },
  });
  flight.onCut(cutStream);
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...relayHeaders(context.requestId) },
  });
}
