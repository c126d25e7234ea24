// Sends a request whose body is produced chunk by chunk over a plain socket, and stops sending
// as soon as the server answers: the way to watch a server refuse a body while it arrives (a
// fetch would either buffer the whole body first or fail on the early answer).
import { connect } from "node:net";

export type RawAnswer = { status: number; headers: Record<string, string>; text: string; json: any; bytesSent: number };

export async function sendStreamedBody(options: {
  url: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  /** Bytes of body to offer in total. */
  totalBytes: number;
  /** Declare the length (Content-Length) instead of sending chunked. */
  declareLength?: boolean;
  /** The body's bytes are this chunk repeated (cut to totalBytes). */
  chunk?: Uint8Array;
}): Promise<RawAnswer> {
  const { hostname, port } = new URL(options.url);
  const chunk = options.chunk ?? new Uint8Array(64 * 1024).fill(0x61);
  const lines = [`${options.method ?? "POST"} ${options.path} HTTP/1.1`, `host: ${hostname}:${port}`, "connection: close"];
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  lines.push(options.declareLength ? `content-length: ${options.totalBytes}` : "transfer-encoding: chunked");
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const received: Buffer[] = [];
  let answered = false;
  const closed = new Promise<void>((resolve) => {
    socket.on("data", (data: Buffer) => {
      received.push(data);
      answered = true;
    });
    socket.on("close", () => resolve());
    socket.on("error", () => resolve());
  });
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  let sent = 0;
  while (sent < options.totalBytes && !answered && !socket.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunk.byteLength, options.totalBytes - sent));
    const framed = options.declareLength
      ? piece
      : Buffer.concat([Buffer.from(`${piece.byteLength.toString(16)}\r\n`), piece, Buffer.from("\r\n")]);
    const flushed = socket.write(framed);
    sent += piece.byteLength;
    if (!flushed) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
  }
  if (!answered && !socket.destroyed && !options.declareLength) socket.write("0\r\n\r\n");
  await closed;
  const raw = Buffer.concat(received).toString("latin1");
  const headerEnd = raw.indexOf("\r\n\r\n");
  const [statusLine, ...headerLines] = raw.slice(0, headerEnd).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
  let body: Buffer = Buffer.from(raw.slice(headerEnd + 4), "latin1");
  if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
  const text = body.toString("utf8");
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine?.split(" ")[1]), headers, text, json, bytesSent: sent };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", offset);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
