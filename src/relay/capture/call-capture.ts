// The request inspector's record of one relayed call (issue 27), made only when the caller's
// capture window is open (captureOpen: one comparison when it is not). It keeps references, not
// copies, of what the relay holds anyway (the request's bytes, a whole answer), and for a stream
// the bytes the client was sent, up to the cap: appending a piece is the only work on a stream's
// path. Cutting, decoding and writing happen after the call is answered, in a later turn of the
// loop (saveLater), so a captured call is not held up by its capture.
import type { Bytes } from "../providers/adaptor.ts";
import type { ParsedCall } from "../request/read-call.ts";
import { captureCapBytes, cutText, keptBody, keptHeaders, keptPath } from "../../services/captures/capture-text.ts";
import { type CaptureParts, saveCaptureOfRequest } from "../../services/captures/capture-store.ts";

const encoder = new TextEncoder();

export class CallCapture {
  private readonly method: string;
  private readonly path: string;
  private readonly headers: Record<string, string>;
  private responseStatus = 0;
  private response: Uint8Array | string = "";
  private responseType = "";
  /** A stream's bytes as sent, kept up to the cap (plus a character's bytes to cut between characters). */
  private readonly pieces: Uint8Array[] = [];
  private keptBytes = 0;
  private streamedBytes = 0;
  private streamed = false;

  constructor(
    request: Request,
    private readonly userId: number,
    private readonly call: Pick<ParsedCall, "rawBody" | "contentType"> | undefined,
  ) {
    this.method = request.method;
    this.path = keptPath(request.url);
    this.headers = keptHeaders(request.headers);
  }

  /** A whole answer, as the client receives it. */
  answered(status: number, body: Bytes | string, contentType: string): void {
    this.responseStatus = status;
    this.response = body;
    this.responseType = contentType;
  }

  /** A piece of a stream, as sent to the client. */
  sent(bytes: Uint8Array): void {
    this.streamed = true;
    this.responseStatus = 200;
    this.streamedBytes += bytes.byteLength;
    if (this.keptBytes > captureCapBytes + 4) return;
    this.pieces.push(bytes.slice());
    this.keptBytes += bytes.byteLength;
  }

  /** What is kept: bodies cut at the cap, headers without credentials. */
  parts(): CaptureParts {
    const requestBytes = this.call?.rawBody ?? new Uint8Array();
    const response = typeof this.response === "string" ? encoder.encode(this.response) : this.response;
    return {
      userId: this.userId,
      method: this.method,
      path: this.path,
      requestHeaders: this.headers,
      requestBody: keptBody(requestBytes, this.call?.contentType ?? ""),
      requestSize: requestBytes.byteLength,
      responseStatus: this.responseStatus,
      responseBody: this.streamed
        ? cutText(joined(this.pieces, this.keptBytes), captureCapBytes, this.streamedBytes)
        : keptBody(response, this.responseType),
      responseSize: this.streamed ? this.streamedBytes : response.byteLength,
      isStream: this.streamed,
    };
  }

  /** Writes the capture beside the request's consumption log once the call is answered (never awaited). */
  saveLater(requestId: string): void {
    setImmediate(() => void saveCaptureOfRequest(requestId, this.parts()));
  }
}

function joined(pieces: Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    whole.set(piece, offset);
    offset += piece.byteLength;
  }
  return whole;
}
