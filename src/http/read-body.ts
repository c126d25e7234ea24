// Reading a request body with its size limit enforced while it arrives: a declared length over
// the limit is refused before a byte is kept, and a body that keeps coming (chunked, or longer
// than it said) is refused as soon as the running count passes the limit, so memory stays at
// the limit whatever a client sends. Bun.serve's maxRequestBodySize (`outerBodyLimit`) is the
// outer bound behind this; it answers with a bare 413, this one with each face's error.
import { AppError } from "../errors/app-error.ts";

function bodyTooLarge(limitBytes: number): AppError {
  return new AppError(
    "too_large",
    "请求体过大，上限为 {{limit}}",
    { limit: describeBytes(limitBytes) },
    { code: "request_body_too_large" },
  );
}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} B`;
}

/**
 * How much of a refused body is still read, and thrown away, before answering. A server that
 * answers and closes while the client is still sending resets the connection, and the client
 * then sees a network error instead of the 413 (the SDKs even retry the whole upload). Reading
 * on keeps memory flat (nothing is kept) and bounded; past this the connection is cut.
 */
const drainAllowance = 64 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, allowance: number): Promise<void> {
  let drained = 0;
  while (drained <= allowance) {
    const { done, value } = await reader.read();
    if (done) return;
    drained += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
}

/**
 * Before an answer that did not need the body (refused by a rate limit, bad credentials...):
 * reads it away within the drain allowance so the client sees the answer, see `drainAllowance`.
 */
export async function discardUnreadBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const reader = request.body.getReader();
  if (Number.isFinite(declared) && declared > drainAllowance) await reader.cancel().catch(() => undefined);
  else await drain(reader, drainAllowance).catch(() => undefined);
}

/** The whole body as bytes, or `bodyTooLarge` as soon as more than `limitBytes` arrived. */
export async function readBodyWithin(request: Request, limitBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const declaredTooLarge = Number.isFinite(declared) && declared > limitBytes;
  if (!request.body) return new Uint8Array(0);
  // A declared length within the limit is all the server will read (HTTP framing ends the body
  // there), so the native read is safe and cheapest; only bodies sent without one (chunked) need
  // the running count.
  if (Number.isFinite(declared) && !declaredTooLarge) return new Uint8Array(await request.arrayBuffer());
  const reader = request.body.getReader();
  if (declaredTooLarge) {
    // Refused before a byte is kept; read the rest away only when it is not absurdly long.
    if (declared <= drainAllowance) await drain(reader, drainAllowance);
    else await reader.cancel().catch(() => undefined);
    throw bodyTooLarge(limitBytes);
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      chunks.length = 0;
      await drain(reader, drainAllowance);
      throw bodyTooLarge(limitBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * Bun.serve's own limit, the outer bound behind the per-face ones: the largest of them plus
 * room for an upload's form fields and for reading a refused body away. Bun cuts anything
 * larger off with a bare 413.
 */
export function outerBodyLimit(limits: Record<string, number>): number {
  return Math.max(...Object.values(limits)) + 2 * 1024 * 1024 + drainAllowance;
}
