// An HTTPS listener on a loopback address that records what reaches it: a webhook receiver for
// suites whose URLs must be https (users may only save https webhooks). Its self-signed
// certificate (made with openssl for the address) is handed to the gateway as an extra trusted
// CA (NODE_EXTRA_CA_CERTS), and the address to OUTBOUND_ALLOWED_HOSTS.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Hit = { path: string; headers: Headers; body: string };

export type TlsReceiver = {
  url: string;
  hits: Hit[];
  /** Environment for a gateway that must reach this receiver. */
  env: Record<string, string>;
  waitFor(count: number, timeoutMs?: number): Promise<Hit[]>;
  stop(): void;
};

export function startTlsReceiver(address = "127.0.0.2"): TlsReceiver {
  const folder = mkdtempSync(join(tmpdir(), "switchyard-tls-"));
  const cert = join(folder, "cert.pem");
  const key = join(folder, "key.pem");
  const made = Bun.spawnSync({
    cmd: [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "2",
      "-subj",
      `/CN=${address}`,
      "-addext",
      `subjectAltName=IP:${address}`,
    ],
    stdout: "pipe",
    stderr: "pipe",
  });
  if (made.exitCode !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr.toString()}`);
  const hits: Hit[] = [];
  const server = Bun.serve({
    hostname: address,
    port: 0,
    tls: { cert: Bun.file(cert), key: Bun.file(key) },
    async fetch(request) {
      hits.push({ path: new URL(request.url).pathname, headers: request.headers, body: await request.text() });
      return new Response("ok");
    },
  });
  return {
    url: `https://${address}:${server.port}`,
    hits,
    env: { NODE_EXTRA_CA_CERTS: cert, OUTBOUND_ALLOWED_HOSTS: address },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (hits.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${hits.length}`);
        await Bun.sleep(20);
      }
      return hits;
    },
    stop() {
      server.stop(true);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
