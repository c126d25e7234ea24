// Starts the real gateway as a child process on a free loopback port, over a new store, and
// stops it afterwards. Suites talk to it over HTTP only, like any client would. The gateway is
// the sources or the built executable (TEST_TARGET=executable, see test-target.ts).
import { createTestStore, type TestStore } from "./test-store.ts";
import { serverCommand } from "./test-target.ts";

export type TestServer = {
  url: string;
  port: number;
  /** The server's process id (benchmarks read its CPU time). */
  pid: number;
  store: TestStore;
  /** Everything the server printed so far (for assertions on logs). */
  output(): string;
  /** Sends a signal to the server process (tests of stopping). */
  signal(name: "SIGTERM" | "SIGINT"): void;
  /** The process's exit code, once it has exited. */
  exited: Promise<number>;
  stop(): Promise<void>;
  /** Ends the process at once, as a crash would (SIGKILL): nothing is flushed, settled or closed. */
  crash(): Promise<void>;
};

/** Limits are raised for tests that are not about limits; a suite can lower them again. */
const testDefaults: Record<string, string> = {
  CRITICAL_RATE_LIMIT: "10000",
  GLOBAL_API_RATE_LIMIT: "0",
  HOST: "127.0.0.1",
};

export async function startTestServer(options: { env?: Record<string, string>; store?: TestStore } = {}): Promise<TestServer> {
  const store = options.store ?? (await createTestStore());
  const { cmd, cwd } = await serverCommand();
  const child = Bun.spawn({
    cmd,
    cwd,
    env: { ...process.env, ...testDefaults, PORT: "0", ...store.env, ...options.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  void collect(child.stdout);
  void collect(child.stderr);
  const deadline = Date.now() + 20_000;
  let port = 0;
  while (!port) {
    const match = /listening \{"address":"http:\/\/[^:]+:(\d+)"/.exec(output);
    if (match) port = Number(match[1]);
    else if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`server did not start (exit ${child.exitCode}):\n${output}`);
    } else await Bun.sleep(20);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    store,
    output: () => output,
    async crash() {
      child.kill("SIGKILL");
      await child.exited;
    },
    signal: (name) => child.kill(name),
    exited: child.exited,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([child.exited, Bun.sleep(5000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
      if (!options.store) await store.dispose();
    },
  };
}
