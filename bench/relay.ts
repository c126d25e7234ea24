// Relay overhead: the team's harness (bench/harness, a copy of our shared bench tool) runs the
// mock upstream, the bare Bun passthroughs (pipe and parse), Portkey and our gateway side by side
// on one machine, non-streamed, streamed and paced (256 streams; then 2,000 in a pass of their
// own), and this file prepares our gateway for it: a fresh SQLite store with a channel pointing
// at the mock and a token, created through the real management API. Then our memory through load and a minute after it
// (relay-memory.ts) and the ledger alone (relay-ledger.ts). The numbers and the verdict on the
// aims go to the "Relay" section of docs/PERFORMANCE.md.
//
// Ours is the executable as shipped (`npm run build`'s options, built into a temporary folder):
// what self-hosters run. Its bytecode and embedded assets make it start smaller than `bun
// src/main.ts`, which transpiles every source file (about 20 MB more resident memory at idle and
// under load; the CPU per request is the same). RELAY_BENCH_SOURCE=1 measures the source instead.
//
//   npm run bench -- relay                         (about 20 minutes)
//   RELAY_BENCH_QUICK=1 npm run bench -- relay     (a smoke run of about 4 minutes)
//   RELAY_BENCH_REUSE=bench/harness/results/<run> npm run bench -- relay   (redo only the extras)
// Harness knobs (DURATION, REPEATS, CONNS, SCENARIOS, TARGETS...) pass through the environment.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAssetsIfStale } from "../src/build/build-assets.ts";
import { buildExecutable } from "../src/build/build-executable.ts";
import { ensureDebianPackages } from "../tests/helpers/apt-install.ts";
import { writePerformanceSection } from "./performance-doc.ts";
import type { LedgerCost } from "./relay-ledger.ts";
import { traceMemory } from "./relay-memory.ts";
import { relayReport } from "./relay-report.ts";

const root = join(import.meta.dir, "..");
const harness = join(import.meta.dir, "harness");
const bun = process.execPath;
const basePort = Number(process.env.BASE_PORT ?? 18080);
const gatewayPort = Number(process.env.RELAY_BENCH_PORT ?? 18390);

async function run(command: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<void> {
  const child = Bun.spawn({ cmd: command, cwd, env: { ...process.env, ...env }, stdout: "inherit", stderr: "inherit" });
  if ((await child.exited) !== 0) throw new Error(`${command.join(" ")} failed`);
}

/**
 * The harness has its own dependencies (autocannon, Portkey, its bun), installed on first use, and
 * wants Debian's wrk: autocannon reports latency only in whole milliseconds, and the memory trace
 * drives its load with wrk alone.
 */
async function ensureHarnessInstalled(): Promise<void> {
  if (!Bun.which("wrk")) ensureDebianPackages(["wrk"], "/usr/bin/wrk");
  if (existsSync(join(harness, "node_modules", ".bin", "autocannon"))) return;
  console.log("installing the bench harness dependencies (first run)...");
  await run(["npm", "ci", "--no-audit", "--no-fund"], harness);
}

async function waitForServer(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/status`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error("the gateway did not start");
    await Bun.sleep(50);
  }
}

/**
 * Starts the gateway once on a fresh store and sets it up as an operator would: a channel for
 * gpt-4o-mini pointing at the harness's mock upstream, and an unlimited token. Returns the key.
 */
async function seedStore(gatewayCommand: string[], env: Record<string, string>): Promise<string> {
  const url = `http://127.0.0.1:${gatewayPort}`;
  const gateway = Bun.spawn({ cmd: gatewayCommand, cwd: root, env: { ...process.env, ...env }, stdout: "ignore", stderr: "inherit" });
  try {
    await waitForServer(url);
    const login = await fetch(`${url}/api/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "root", password: "123456" }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const userId = String((await login.json()).data.id);
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, "New-Api-User": userId },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { success: boolean; message: string; data: any };
      if (!answer.success) throw new Error(`${path}: ${answer.message}`);
      return answer.data;
    };
    await api("/api/channel/", {
      name: "bench mock",
      type: 1,
      key: "sk-mock-upstream",
      base_url: `http://127.0.0.1:${basePort}`,
      models: "gpt-4o-mini",
      group: "default",
    });
    const [token] = await api("/api/token/", { name: "bench", unlimited_quota: true, expired_time: -1 });
    return `sk-${token.key}`;
  } finally {
    gateway.kill("SIGTERM");
    await gateway.exited;
  }
}

/** The ledger measured alone (relay-ledger.ts), in its own process pinned like the servers. */
export async function measureLedger(): Promise<LedgerCost | undefined> {
  const child = Bun.spawn({
    cmd: ["taskset", "-c", "0", bun, join(import.meta.dir, "relay-ledger.ts")],
    cwd: root,
    stdout: "pipe",
    stderr: "inherit",
  });
  const output = await new Response(child.stdout).text();
  await child.exited;
  const line = /^LEDGER_JSON (.*)$/m.exec(output);
  return line ? (JSON.parse(line[1]!) as LedgerCost) : undefined;
}

export async function benchRelay(): Promise<string> {
  await ensureHarnessInstalled();
  await buildAssetsIfStale();
  const folder = mkdtempSync(join(tmpdir(), "switchyard-relay-bench-"));
  const quick = process.env.RELAY_BENCH_QUICK === "1";
  // RELAY_BENCH_REUSE=<results dir>: keep that run of the main comparison, redo the rest.
  const reuse = process.env.RELAY_BENCH_REUSE;
  const out = reuse ?? join(harness, "results", new Date().toISOString().replace(/[:.]/g, "-"));
  try {
    const gatewayEnv = { PORT: String(gatewayPort), HOST: "127.0.0.1", SQLITE_PATH: join(folder, "bench.db") };
    const gatewayCommand =
      process.env.RELAY_BENCH_SOURCE === "1" ? [bun, join(root, "src", "main.ts")] : [await buildExecutable(join(folder, "switchyard"))];
    const key = await seedStore(gatewayCommand, gatewayEnv);
    const envPrefix = Object.entries(gatewayEnv)
      .map(([name, value]) => `${name}=${value}`)
      .join(" ");
    const harnessKnobs = Object.fromEntries(
      ["DURATION", "WARMUP", "REPEATS", "CONNS", "SCENARIOS", "TARGETS", "PROBE_DURATION"]
        .filter((name) => process.env[name])
        .map((name) => [name, process.env[name]]),
    );
    const runHarness = (outDir: string, knobs: Record<string, string | undefined>) =>
      run(["bash", join(harness, "run-bench.sh")], harness, {
        GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
        GATEWAY_KEY: key,
        GATEWAY_CMD: `env ${envPrefix} ${gatewayCommand.join(" ")}`,
        OUT: outDir,
        ...(quick ? { DURATION: "3", WARMUP: "1", REPEATS: "1", PROBE_DURATION: "2", CONNS: "128" } : {}),
        ...harnessKnobs,
        ...knobs,
      });
    // The 2,000 paced streams get a pass of their own, on fresh processes: run among the other
    // scenarios they left every process holding their memory through the next repeat.
    const crowd = `${out}-2000`;
    if (!reuse) {
      await runHarness(out, { PACED_CONNS: process.env.PACED_CONNS ?? "256" });
      if (!process.env.SCENARIOS || process.env.SCENARIOS.includes("paced"))
        await runHarness(crowd, { SCENARIOS: "paced", PACED_CONNS: "2000" });
    }
    const memory = await traceMemory({
      gatewayCommand,
      gatewayEnv: gatewayEnv,
      gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
      key,
      mockPort: basePort,
      loadSeconds: quick ? 5 : 15,
      waitSeconds: quick ? 20 : 60,
    });
    const markdown = relayReport(existsSync(crowd) ? [out, crowd] : [out], {
      ledger: await measureLedger(),
      memory,
      gateway: process.env.RELAY_BENCH_SOURCE === "1" ? "source" : "executable",
    });
    writePerformanceSection("relay", markdown);
    return markdown;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await benchRelay());
