// A Redis of a test's own (redis-server on a free loopback port, nothing persisted), which the
// test can stop and start again on the same port to make an outage; and a "Redis" that accepts
// connections and never answers.
import { RedisClient } from "bun";
import { createServer, type Server } from "node:net";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type RedisProcess = {
  url: string;
  port: number;
  /** Stops the server (SIGKILL: an outage, not a shutdown). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** The server's process id (benchmarks read its CPU time). */
  pid(): number | undefined;
  /** Freezes the server (SIGSTOP): connections stay open and nothing answers. */
  pause(): void;
  /** Thaws it (SIGCONT): it runs what was sent meanwhile. */
  resume(): void;
  /** Runs one command on it (a fresh connection each time). */
  command(name: string, args?: string[]): Promise<unknown>;
};

export async function startRedisProcess(): Promise<RedisProcess> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ReturnType<typeof Bun.spawn> | undefined;

  const command = async (name: string, args: string[] = []) => {
    const client = new RedisClient(url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 1000 });
    try {
      await client.connect();
      return await client.send(name, args);
    } finally {
      client.close();
    }
  };

  const start = async () => {
    child = Bun.spawn({
      cmd: ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      stdout: "ignore",
      stderr: "ignore",
    });
    for (let attempt = 0; attempt < 100; attempt++) {
      if ((await command("PING").catch(() => undefined)) === "PONG") return;
      await Bun.sleep(50);
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };

  await start();
  return {
    url,
    port,
    start,
    command,
    pid: () => child?.pid,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
    async stop() {
      child?.kill("SIGCONT");
      child?.kill("SIGKILL");
      await child?.exited;
      child = undefined;
    },
  };
}

/** A TCP server that accepts every connection and never sends a byte. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Whether the outage suites can start their own redis-server. In CI its absence is a failure,
 * not a reason to skip: the suites would pass without having run.
 */
export function redisServerInstalled(): boolean {
  const found = Bun.which("redis-server") !== null;
  if (!found && process.env.CI) throw new Error("redis-server is not installed: the Redis outage suites cannot run (CI=true)");
  return found;
}
