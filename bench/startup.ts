// Start-up, memory and size of the executable as shipped (`npm run build`'s options), compared in
// the same run with the same build without bytecode. Each round starts every variant, in turns
// (the order rotates, so a busy moment of the machine does not always fall on the same one):
//   - from exec to the first answered /api/status in an empty folder (a new SQLite store is
//     created and migrated, root and the options written), and its resident memory 3 s later;
//   - then again in that folder (a restart on an existing store, the usual case).
// Reported: the median of STARTUP_RUNS rounds (default 15) after one warm-up round, with min and
// max, plus the CPU time the main thread used until the first answer (/proc/<pid>/task/<pid>/
// schedstat): on a shared machine the wall time includes waiting for a core, the CPU time does
// not. Writes the "startup" section of docs/PERFORMANCE.md.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { buildExecutable, compileOptions } from "../src/build/build-executable.ts";
import { writePerformanceSection } from "./performance-doc.ts";

const runs = Number(process.env.STARTUP_RUNS ?? 15);
const idleMs = 3000;
const aims = { firstAnswerMs: 100, idleRssMb: 80 };

type Variant = { name: string; options: string[]; executable?: string; sizeMb?: number };
type Sample = { firstAnswerMs: number; cpuMs: number; idleRssMb?: number };

const variants: Variant[] = [
  { name: "shipped", options: compileOptions },
  { name: "without bytecode", options: compileOptions.filter((option) => option !== "--bytecode") },
];

function rssMegabytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/**
 * CPU time of the process's main thread so far (schedstat: nanoseconds on a CPU). Start-up runs
 * there (loading, migrating, building the app, answering); the JIT compiler and the collector
 * have threads of their own, which run beside it on another core.
 */
function mainThreadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return port;
}

async function startOnce(executable: string, folder: string, measureMemory: boolean): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = Bun.spawn({
    cmd: [executable],
    cwd: folder,
    env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1" },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    let firstAnswerMs = 0;
    let cpuMs = 0;
    while (!firstAnswerMs) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/status`);
        if (response.ok) {
          firstAnswerMs = performance.now() - started;
          cpuMs = mainThreadCpuMs(child.pid);
        }
        await response.arrayBuffer();
      } catch {
        await Bun.sleep(2);
      }
      if (performance.now() - started > 20_000) throw new Error(`${executable}: no answer within 20 s`);
    }
    if (!measureMemory) return { firstAnswerMs, cpuMs };
    await Bun.sleep(idleMs);
    return { firstAnswerMs, cpuMs, idleRssMb: rssMegabytes(child.pid) };
  } finally {
    child.kill("SIGKILL");
    await child.exited;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const summary = (values: number[], digits: number, unit: string) =>
  `${median(values).toFixed(digits)} ${unit} | ${Math.min(...values).toFixed(digits)} | ${Math.max(...values).toFixed(digits)}`;
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

export async function benchStartup(): Promise<string> {
  const buildFolder = mkdtempSync(join(tmpdir(), "switchyard-bench-"));
  const results = new Map<string, { fresh: Sample[]; restart: Sample[] }>();
  try {
    for (const variant of variants) {
      variant.executable = await buildExecutable(join(buildFolder, variant.name.replace(/\W+/g, "-")), variant.options);
      variant.sizeMb = Bun.file(variant.executable).size / 1024 / 1024;
      results.set(variant.name, { fresh: [], restart: [] });
    }
    const loadBefore = loadAverage();
    for (let round = -1; round < runs; round++) {
      const order = round % 2 ? [...variants].reverse() : variants;
      for (const variant of order) {
        const folder = mkdtempSync(join(tmpdir(), "switchyard-start-"));
        try {
          const fresh = await startOnce(variant.executable!, folder, true);
          const restart = await startOnce(variant.executable!, folder, true);
          if (round >= 0) {
            results.get(variant.name)!.fresh.push(fresh);
            results.get(variant.name)!.restart.push(restart);
          }
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      }
    }
    const loadAfter = loadAverage();
    const shipped = results.get("shipped")!;
    // The aims hold for both kinds of start: the worse median counts.
    const firstAnswerOf = (samples: Sample[]) => median(samples.map((sample) => sample.firstAnswerMs));
    const idleRssOf = (samples: Sample[]) => median(samples.map((sample) => sample.idleRssMb!));
    const firstAnswer = Math.max(firstAnswerOf(shipped.fresh), firstAnswerOf(shipped.restart));
    const idleRss = Math.max(idleRssOf(shipped.fresh), idleRssOf(shipped.restart));
    const verdict = (met: boolean) => (met ? "**met**" : "**not met**");
    const rows = variants.flatMap((variant) => {
      const result = results.get(variant.name)!;
      return (["fresh", "restart"] as const).map((kind) => {
        const samples = result[kind];
        return `| ${variant.name} | ${kind === "fresh" ? "new store" : "existing store"} | ${summary(
          samples.map((s) => s.firstAnswerMs),
          0,
          "ms",
        )} | ${median(samples.map((s) => s.cpuMs)).toFixed(0)} ms | ${summary(
          samples.map((s) => s.idleRssMb!),
          1,
          "MB",
        )} |`;
      });
    });
    const markdown = `## Start-up and size

\`bench/startup.ts\`, ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}: each executable started ${runs} times (after one
warm-up) in an empty folder, where it creates and migrates a new SQLite store and writes root and
the options, then once more in that folder (a restart on the existing store). Variants are built
in the same run and started in turns. Wall time is from exec to the first answered
\`/api/status\`; CPU is the time the main thread ran until then (on this shared 2-core machine
the wall time also includes waiting for a core: load average ${loadBefore} before, ${loadAfter} after${getPriority() === 0 ? "" : `; run at nice ${getPriority()}, which the started processes inherit`}).
RSS is resident memory 3 s after the first answer.

| aim (issue 10), for a new and for an existing store | shipped build (the worse median) | verdict |
|---|---|---|
| exec to first answered \`/api/status\`, median, at most ${aims.firstAnswerMs} ms | ${firstAnswer.toFixed(0)} ms | ${verdict(firstAnswer <= aims.firstAnswerMs)} |
| idle RSS, median, at most ${aims.idleRssMb} MB | ${idleRss.toFixed(1)} MB | ${verdict(idleRss <= aims.idleRssMb)} |

| build | start | first answer: median | min | max | main thread CPU until then (median) | idle RSS: median | min | max |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Executable size: ${variants.map((variant) => `${variant.name} ${variant.sizeMb!.toFixed(1)} MB`).join(", ")} (about 104 MB of it is the Bun runtime).
Options of the shipped build: \`${compileOptions.join(" ")}\` (\`src/build/build-executable.ts\`).
`;
    writePerformanceSection("startup", markdown);
    return markdown;
  } finally {
    rmSync(buildFolder, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await benchStartup());
