// One process per port and per SQLite store (issue 30). A second gateway on a port another
// process holds, or on a SQLite file another process serves, is refused with a message saying
// why, and writes nothing; the first keeps serving. (Elysia asks Bun for SO_REUSEPORT, under which
// the second used to start silently and take half the connections.) The lock beside the store
// is the operating system's: it goes with the process, even one killed with SIGKILL.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLegacyDatabase } from "../fixtures/legacy-databases.ts";
import { newApiV04 } from "../fixtures/legacy-schemas.ts";
import { serverCommand } from "../helpers/test-target.ts";
import { testDialect, type TestStore } from "../helpers/test-store.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let folder: string;
let first: TestServer;

/** A SQLite store in this suite's folder (whatever TEST_STORE says: the lock is SQLite's). */
function sqliteStore(name: string): TestStore {
  return { dialect: "sqlite", env: { SQLITE_PATH: join(folder, name, "store.db") }, query: async () => [], dispose: async () => {} };
}

/** Runs the gateway (or one of its tools) to its end; a refused start ends within seconds. */
async function runToEnd(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const { cmd, cwd } = await serverCommand();
  const child = Bun.spawn({
    cmd: [...cmd, ...args],
    cwd,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", SQL_DSN: "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  return { code, output: stdout + stderr };
}

async function stillServes(server: TestServer): Promise<void> {
  const status = await fetch(`${server.url}/api/status`);
  expect(status.status).toBe(200);
  expect(((await status.json()) as { success: boolean }).success).toBe(true);
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "switchyard-single-"));
  first = await startTestServer({ store: sqliteStore("first"), env: { SQL_DSN: "" } });
});
afterAll(async () => {
  await first?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe("one process per port", () => {
  test("a second start on the same port is refused with a clear message, writing nothing, and the first keeps serving", async () => {
    const second = await runToEnd([], { PORT: String(first.port), SQLITE_PATH: join(folder, "second", "store.db") });
    expect(second.code).toBe(1);
    expect(second.output.trim()).toBe(
      `switchyard: port ${first.port} on 127.0.0.1 is already in use by another process (another Switchyard?): stop it, or choose another port with PORT or --port`,
    );
    expect(existsSync(join(folder, "second"))).toBe(false);
    // On every address too (0.0.0.0 covers 127.0.0.1).
    const wildcard = await runToEnd(["--port", String(first.port)], { HOST: "0.0.0.0", SQLITE_PATH: join(folder, "third", "store.db") });
    expect(wildcard.code).toBe(1);
    expect(wildcard.output).toContain(`port ${first.port} on 0.0.0.0 is already in use by another process`);
    for (let call = 0; call < 20; call++) await stillServes(first);
  });
});

describe.if(testDialect === "sqlite")("one process per SQLite store", () => {
  const storePath = () => join(folder, "first", "store.db");

  test("a second process on the same file is refused, pointing to PostgreSQL and Redis; the first keeps serving", async () => {
    const second = await runToEnd([], { SQLITE_PATH: storePath() });
    expect(second.code).toBe(1);
    expect(second.output.trim()).toMatch(
      new RegExp(
        `^switchyard: the SQLite store ${storePath().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is in use by process ${first.pid} on .+, running since .+ \\(lock .+store\\.db\\.lock\\)\\. One SQLite file serves one process: stop the other one first, or, to run several instances, use PostgreSQL \\(SQL_DSN\\) and Redis \\(REDIS_CONN_STRING\\)$`,
      ),
    );
    await stillServes(first);
  });

  test("an import into the served store is refused the same way", async () => {
    const source = await createLegacyDatabase("sqlite", newApiV04);
    try {
      const imported = await runToEnd(["import", source.source, "--merge"], { SQLITE_PATH: storePath() });
      expect(imported.code).toBe(1);
      expect(imported.output).toContain(
        `switchyard import: the store ${storePath()} is in use by another process, most likely a running Switchyard`,
      );
      expect(imported.output).toContain(`the SQLite store ${storePath()} is in use by process ${first.pid}`);
    } finally {
      await source.dispose();
    }
    await stillServes(first);
  });

  test("the lock goes with the process: after a stop, and after a SIGKILL, the next start takes the store", async () => {
    const store = sqliteStore("first");
    await first.stop();
    const afterStop = await startTestServer({ store, env: { SQL_DSN: "" } });
    await stillServes(afterStop);
    await afterStop.crash();
    first = await startTestServer({ store, env: { SQL_DSN: "" } });
    await stillServes(first);
  });
});
