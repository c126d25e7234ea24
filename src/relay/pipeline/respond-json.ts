// A whole (non-streamed) answer: settle, then send the converted body. The client receives it
// only after the money moved, so what it sees is already in its balance and logs.
//
// A large body (an image in base64, a long completion) is handed to Bun a slice at a time, each
// when the client's socket took the last (backpressure), from the one copy the relay holds; a
// client that reads nothing for STREAMING_TIMEOUT is cut like a stream's and the answer dropped.
// Small bodies, nearly all, go as one piece as ever: the kernel's socket buffer takes them whole.
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { Bytes, ConvertedResponse, RelayCall } from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { watchClient } from "./client-watch.ts";
import type { ConnectionIdle } from "./connection-idle.ts";
import { relayHeaders } from "./relay-errors.ts";
import { settleCall } from "./settle-call.ts";

/** Bodies from this size on are sent in slices. */
const slicedFrom = 1024 * 1024;
const sliceBytes = 256 * 1024;

/** The body, a slice per pull; given up when the client asks for nothing for `idleMs`. */
function inSlices(body: Bytes, connection: ConnectionIdle, idleMs: number): ReadableStream<Uint8Array> {
  let offset = 0;
  let ended = false;
  let awaitingClientSince = 0;
  connection.streaming();
  const finish = () => {
    ended = true;
    watch.stop();
  };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      awaitingClientSince = 0;
      if (ended) return;
      const end = Math.min(offset + sliceBytes, body.byteLength);
      controller.enqueue(body.subarray(offset, end));
      offset = end;
      if (offset < body.byteLength) {
        awaitingClientSince = performance.now();
        return;
      }
      finish();
      connection.done();
      controller.close();
    },
    cancel() {
      finish();
    },
  });
  const watch = watchClient(
    () => (ended ? -1 : awaitingClientSince),
    idleMs,
    () => {
      ended = true;
      connection.drop();
    },
  );
  return stream;
}

export async function answerWhole(
  context: RelayContext,
  channel: ChannelSnapshot,
  call: RelayCall,
  converted: ConvertedResponse,
  idleMs: number,
): Promise<Response> {
  context.firstResponseMs = Math.round(performance.now() - context.startedAt);
  await settleCall(context, {
    channel,
    upstreamModel: call.upstreamModel,
    upstreamFormat: call.format,
    usage: converted.usage,
    output: converted.output,
  });
  await context.call.keeper?.save(channel);
  const headers = { "content-type": converted.contentType || "application/json", ...relayHeaders(context.requestId) };
  const { body } = converted;
  if (context.capture) {
    context.capture.answered(200, body, headers["content-type"]);
    context.capture.saveLater(context.requestId);
  }
  if (body.length < slicedFrom) return new Response(body, { status: 200, headers });
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return new Response(inSlices(bytes, context.connection, idleMs), { status: 200, headers });
}
