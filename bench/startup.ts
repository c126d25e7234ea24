// Start-up and size: builds the executable, then for several runs measures the time from
// process start to the first answered /api/status on a new SQLite store, and the idle memory
// (RSS) a few seconds later. Writes the "startup" section of docs/PERFORMANCE.md.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildExecutable } from "../src/build/build-executable.ts";
import { writePerformanceSection } from "./performance-doc.ts";

const runs = Number(process.env.STARTUP_RUNS ?? 7);
const port = Number(process.env.STARTUP_PORT ?? 18_380);

function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function measureOnce(command: string[], folder: string): Promise<{ firstAnswerMs: number; idleRssMb: number }> {
  const started = performance.now();
  const child = Bun.spawn({ cmd: command, cwd: folder, env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1" }, stdout: "ignore", stderr: "ignore" });
  let firstAnswerMs = 0;
  while (!firstAnswerMs) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/status`);
      if (response.ok) firstAnswerMs = performance.now() - started;
    } catch {
      await Bun.sleep(2);
    }
    if (performance.now() - started > 20_000) throw new Error("no answer within 20 s");
  }
  await Bun.sleep(3000);
  const idleRssMb = rssMegabytes(child.pid);
  child.kill("SIGKILL");
  await child.exited;
  return { firstAnswerMs, idleRssMb };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchStartup(): Promise<string> {
  const buildFolder = mkdtempSync(join(tmpdir(), "switchyard-bench-"));
  const executable = await buildExecutable(join(buildFolder, "switchyard"));
  const sizeMb = Bun.file(executable).size / 1024 / 1024;
  const results: { firstAnswerMs: number; idleRssMb: number }[] = [];
  for (let index = 0; index < runs; index++) {
    const folder = mkdtempSync(join(tmpdir(), "switchyard-start-"));
    results.push(await measureOnce([executable], folder));
    rmSync(folder, { recursive: true, force: true });
  }
  rmSync(buildFolder, { recursive: true, force: true });
  const firstAnswer = results.map((result) => result.firstAnswerMs);
  const rss = results.map((result) => result.idleRssMb);
  const markdown = `## Start-up and size

\`bench/startup.ts\`: the executable built by \`npm run build\`, started ${runs} times in an empty
folder (a new SQLite store is created and migrated each time, and root and the options are written).

| measure | median | min | max | aim |
|---|---|---|---|---|
| executable size | ${sizeMb.toFixed(1)} MB | | | (most of it is the Bun runtime) |
| process start to first answered \`/api/status\` | ${median(firstAnswer).toFixed(0)} ms | ${Math.min(...firstAnswer).toFixed(0)} ms | ${Math.max(...firstAnswer).toFixed(0)} ms | < 300 ms |
| idle RSS 3 s after start | ${median(rss).toFixed(1)} MB | ${Math.min(...rss).toFixed(1)} MB | ${Math.max(...rss).toFixed(1)} MB | < 80 MB |
`;
  writePerformanceSection("startup", markdown);
  return markdown;
}

if (import.meta.main) console.log(await benchStartup());
