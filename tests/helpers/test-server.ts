// Starts the real gateway as a child process on a free loopback port, over a new store, and
// stops it afterwards. Suites talk to it over HTTP only, like any client would.
import { join } from "node:path";
import { createTestStore, type TestStore } from "./test-store.ts";

export type TestServer = {
  url: string;
  port: number;
  store: TestStore;
  /** Everything the server printed so far (for assertions on logs). */
  output(): string;
  stop(): Promise<void>;
};

const root = join(import.meta.dir, "..", "..");

/** Limits are raised for tests that are not about limits; a suite can lower them again. */
const testDefaults: Record<string, string> = {
  CRITICAL_RATE_LIMIT: "10000",
  GLOBAL_API_RATE_LIMIT: "0",
  HOST: "127.0.0.1",
};

export async function startTestServer(options: { env?: Record<string, string>; store?: TestStore } = {}): Promise<TestServer> {
  const store = options.store ?? (await createTestStore());
  const child = Bun.spawn({
    cmd: [process.execPath, join(root, "src", "main.ts")],
    cwd: root,
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
    store,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([child.exited, Bun.sleep(5000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
      if (!options.store) await store.dispose();
    },
  };
}
