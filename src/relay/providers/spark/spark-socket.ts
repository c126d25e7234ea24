// Spark's transport: one WebSocket per call. The request frame is sent when the socket opens; the
// answer frames come back as server-sent events (one `data:` per frame), so the relay reads them
// like any stream, and folds them for clients that want a whole answer. The first frame decides
// the status: a failed one (code ≠ 0) answers with the status its code stands for. A refused
// handshake is read again with a plain GET of the same signed URL, because the WebSocket API
// does not show the refusal's body (iFlytek explains a bad signature or clock there).
import type { SendOptions, UpstreamRequest } from "../adaptor.ts";
import { parseSparkFrame, sparkFrameError } from "./spark-answer.ts";

const encoder = new TextEncoder();

/** One frame as one server-sent event (JSON has no raw line breaks outside strings). */
const asEvent = (frame: string) => encoder.encode(`data: ${frame.replace(/\r?\n/g, " ")}\n\n`);

const isLast = (frame: string) => {
  const parsed = parseSparkFrame(frame);
  return parsed?.header?.status === 2 || parsed?.payload?.choices?.status === 2;
};

function httpUrlOf(url: string): string {
  return url.replace(/^ws(s?):\/\//i, "http$1://");
}

/** Why the handshake was refused: iFlytek's own answer to the same URL, or the status Bun saw. */
async function refusal(url: string, message: string, options: SendOptions): Promise<Response> {
  const seen = Number(/status code:? (\d{3})/i.exec(message)?.[1] ?? 0);
  try {
    const probe = await fetch(httpUrlOf(url), {
      method: "GET",
      redirect: "manual",
      signal: options.signal,
      ...(options.proxy ? { proxy: options.proxy } : {}),
    } as RequestInit);
    if (probe.status >= 400) return probe;
  } catch {
    // Fall back to what the WebSocket error said.
  }
  if (seen >= 400) return Response.json({ message: `WebSocket handshake refused (HTTP ${seen})` }, { status: seen });
  throw new Error("spark websocket connection failed");
}

export function sendSpark(request: UpstreamRequest, options: SendOptions): Promise<Response> {
  const { signal } = options;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const socket = new WebSocket(request.url, options.proxy ? ({ proxy: options.proxy } as never) : undefined);
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let answered = false;
    let ended = false;

    const end = (error?: unknown) => {
      if (ended) return;
      ended = true;
      signal?.removeEventListener("abort", onAbort);
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close();
      if (!controller) return;
      if (error) controller.error(error);
      else controller.close();
    };
    const onAbort = () => {
      if (!answered) reject(signal!.reason);
      end(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    socket.addEventListener("open", () => socket.send(typeof request.body === "string" ? request.body : String(request.body ?? "")));
    socket.addEventListener("message", (message) => {
      const frame = typeof message.data === "string" ? message.data : new TextDecoder().decode(message.data as ArrayBuffer);
      if (!answered) {
        answered = true;
        const error = sparkFrameError(parseSparkFrame(frame));
        if (error) {
          end();
          resolve(new Response(frame, { status: error.status ?? 500, headers: { "content-type": "application/json" } }));
          return;
        }
        const body = new ReadableStream<Uint8Array>({
          start(streamController) {
            controller = streamController;
            streamController.enqueue(asEvent(frame));
            if (isLast(frame)) end();
          },
          cancel: () => end(),
        });
        resolve(new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }));
        return;
      }
      if (ended || !controller) return;
      controller.enqueue(asEvent(frame));
      if (isLast(frame)) end();
    });
    socket.addEventListener("error", (event) => {
      if (answered) return end(new Error("spark websocket failed"));
      answered = true;
      ended = true;
      signal?.removeEventListener("abort", onAbort);
      refusal(request.url, String((event as ErrorEvent).message ?? ""), options).then(resolve, reject);
    });
    socket.addEventListener("close", (event) => {
      if (!answered) {
        answered = true;
        ended = true;
        signal?.removeEventListener("abort", onAbort);
        reject(new Error(`spark websocket closed before answering (${event.code})`));
        return;
      }
      // The last frame already ended the stream; a close before it cut the answer.
      end(new Error(`spark websocket closed before the last frame (${event.code})`));
    });
  });
}
