// What one attempt on a channel gives back (attempt-channel.ts makes them): a whole answer, a
// stream whose first event arrived, or a failure; and the timeouts an attempt runs under. Kept
// apart so the modules the attempt uses (the inbound bridge, whole-as-stream) can name them.
import type { ConvertedResponse, FrameDecoder, RelayCall, SseEvent, StreamConverter } from "../providers/adaptor.ts";
import type { Deadline } from "../upstream/deadline.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";

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
