// A client that sends a request over a plain socket, takes the first bytes of the answer and then
// stops reading (the socket is paused: the kernel's buffers fill and the server's writes stall),
// the way a slow or stuck client looks to a server. Later it can read the rest, to see what the
// server still sent and whether it had hung up.
import { connect, type Socket } from "node:net";

export type SlowReader = {
  /** Resumes reading until the server ends or closes the connection; what arrived in all. */
  finish(timeoutMs: number): Promise<{ bytes: number; text: string; closed: boolean }>;
  destroy(): void;
};

export async function startSlowReader(options: {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}): Promise<SlowReader> {
  const { hostname, port } = new URL(options.url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const received: Buffer[] = [];
  let closed = false;
  const ended = new Promise<void>((resolve) => {
    socket.on("close", () => {
      closed = true;
      resolve();
    });
  });
  socket.on("error", () => undefined);
  const firstBytes = new Promise<void>((resolve) => {
    socket.on("data", (data: Buffer) => {
      received.push(data);
      if (received.length === 1) {
        // The headers and the first piece arrived: from now on nothing is read.
        socket.pause();
        resolve();
      }
    });
  });
  const lines = [`POST ${options.path} HTTP/1.1`, `host: ${hostname}:${port}`, `content-length: ${Buffer.byteLength(options.body)}`];
  for (const [name, value] of Object.entries(options.headers)) lines.push(`${name}: ${value}`);
  socket.write(`${lines.join("\r\n")}\r\n\r\n${options.body}`);
  await firstBytes;
  return {
    async finish(timeoutMs) {
      socket.resume();
      await Promise.race([ended, Bun.sleep(timeoutMs)]);
      const all = Buffer.concat(received);
      return { bytes: all.byteLength, text: all.subarray(Math.max(0, all.byteLength - 4096)).toString("latin1"), closed };
    },
    destroy: () => socket.destroy(),
  };
}
