// Turns the harness's runs (results.jsonl, raw load and probe files, summary.md: the main pass,
// and the 2,000 paced streams' pass on fresh processes) into the "Relay" section of
// docs/PERFORMANCE.md: the verdict on each aim of issue 14, then the harness's tables.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LedgerCost } from "./relay-ledger.ts";
import type { MemoryTrace } from "./relay-memory.ts";

type Load = { ok: number; duration: number; p50: number; p99: number };
/** peakRssMb is the highest of the repeats; firstPeakRssMb the first repeat's. */
type Measure = {
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  peakRssMb: number;
  firstPeakRssMb: number;
  ttfb50: number;
  ttfb99: number;
};

function parseLoad(file: string): Load | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const wrk = /^WRK_JSON (.*)$/m.exec(text);
  if (wrk) {
    const result = JSON.parse(wrk[1]!);
    return {
      ok: result.requests - result.errors.status,
      duration: result.duration_us / 1e6,
      p50: result.latency_us.p50 / 1000,
      p99: result.latency_us.p99 / 1000,
    };
  }
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  const result = JSON.parse(text.slice(start));
  return { ok: result["2xx"] ?? 0, duration: result.duration, p50: result.latency?.p50, p99: result.latency?.p99 };
}

function parseProbe(file: string): { ttfb50: number; ttfb99: number } | undefined {
  if (!file || !existsSync(file)) return undefined;
  const match = /^PROBE_JSON (.*)$/m.exec(readFileSync(file, "utf8"));
  if (!match) return undefined;
  const probe = JSON.parse(match[1]!);
  return { ttfb50: probe.ms.ttfb.p50, ttfb99: probe.ms.ttfb.p99 };
}

const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function measures(dir: string): Map<string, Measure> {
  const lines = readFileSync(join(dir, "results.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const grouped = new Map<
    string,
    { rps: number[]; p50: number[]; p99: number[]; cpu: number[]; rss: number[]; firstRss: number; ttfb50: number[]; ttfb99: number[] }
  >();
  for (const run of lines.filter((line) => line.kind === "run")) {
    const key = `${run.scenario}|${run.conns}|${run.target}`;
    let entry = grouped.get(key);
    if (!entry) grouped.set(key, (entry = { rps: [], p50: [], p99: [], cpu: [], rss: [], firstRss: NaN, ttfb50: [], ttfb99: [] }));
    const load = parseLoad(join(dir, run.load_file));
    if (load && load.duration > 0 && load.ok > 0) {
      entry.rps.push(load.ok / load.duration);
      entry.p50.push(load.p50);
      entry.p99.push(load.p99);
      if (run.gw_pid) entry.cpu.push((run.gw_cpu_s * 1000) / load.ok);
      else entry.cpu.push((run.mock_cpu_s * 1000) / load.ok);
    }
    if (run.gw_peak_rss_kb > 0) entry.rss.push(run.gw_peak_rss_kb / 1024);
    if (run.gw_peak_rss_kb > 0 && run.repeat === 1) entry.firstRss = run.gw_peak_rss_kb / 1024;
    const probe = parseProbe(run.probe_file ? join(dir, run.probe_file) : "");
    if (probe) {
      entry.ttfb50.push(probe.ttfb50);
      entry.ttfb99.push(probe.ttfb99);
    }
  }
  const result = new Map<string, Measure>();
  for (const [key, entry] of grouped) {
    result.set(key, {
      rps: median(entry.rps),
      p50: median(entry.p50),
      p99: median(entry.p99),
      cpuMsPerRequest: median(entry.cpu),
      peakRssMb: entry.rss.length ? Math.max(...entry.rss) : NaN,
      firstPeakRssMb: entry.firstRss,
      ttfb50: median(entry.ttfb50),
      ttfb99: median(entry.ttfb99),
    });
  }
  return result;
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const verdict = (ok: boolean | undefined) => (ok === undefined ? "–" : ok ? "met" : "**not met**");

export type ReportExtras = {
  /** µs of CPU per request for the ledger alone and by stage (relay-ledger.ts). */
  ledger?: LedgerCost;
  /** Our resident memory at idle, through load and a minute after (relay-memory.ts). */
  memory?: MemoryTrace;
  /** What ran as ours: the shipped executable (the default) or `bun src/main.ts`. */
  gateway?: "executable" | "source";
};

function explanation(all: Map<string, Measure>, extras: ReportExtras): string {
  const floor = all.get("nonstream|32|bun-parse")?.cpuMsPerRequest ?? NaN;
  const ours = all.get("nonstream|32|ours")?.cpuMsPerRequest ?? NaN;
  const us = (ms: number) => fixed(ms * 1000, 0);
  const lines = [
    "### Where the time and memory go",
    "",
    `- Non-streamed, 32 connections: the floor (bun-parse: accept, forward with fetch, read usage, answer) spends ${us(floor)} µs of CPU per request, ours ${us(ours)} µs.`,
  ];
  if (extras.ledger) {
    const ledger = extras.ledger;
    const logRow = ledger.concurrent32 - ledger.reserve - ledger.settleWithoutLog;
    const filterIndexes = ledger.concurrent32 - ledger.reserve - ledger.settleLeanIndexes;
    const rest = ours * 1000 - floor * 1000 - ledger.concurrent32;
    lines.push(
      `- The ledger alone (\`bench/relay-ledger.ts\`, its own process, CPU time, 32 requests at once): ${fixed(ledger.concurrent32, 0)} µs per request (${fixed(ledger.alone, 0)} µs one at a time, when every settlement is its own commit). By stage: the reservation (read the balance by primary key, reserve in memory, end it) ${fixed(ledger.reserve, 1)} µs; the settlement's balance updates, batched one per user, token and channel, ${fixed(ledger.settleWithoutLog, 1)} µs; the consumption log row ${fixed(logRow, 0)} µs, of which the seven filter indexes (type, model, token, user name, channel, group with the time, and the unique request id) ${fixed(filterIndexes, 0)} µs. Holds no longer write the store, but the floor plus the ledger is already ${fixed(floor * 1000 + ledger.concurrent32, 0)} µs = ${fixed((floor * 1000 + ledger.concurrent32) / (floor * 1000), 2)}× the floor.`,
      `- The log's indexes stay: without the filter indexes every filtered \`/log\` page at 1M entries takes 130–240 ms instead of 1–20 ms (see "Pages"); dropping them would save ${fixed(filterIndexes, 0)} µs per request and still leave ours above 1.5× the floor.`,
      `- The remaining ${fixed(rest, 0)} µs are the application around the forward: Elysia's routing and response handling, reading and parsing the client's JSON (the floor forwards bytes it never parses), the token from the cache, pricing and the prompt's byte bound (the tokenizer is no longer on this path), choosing a channel, the adaptor, the consumption log's values, and the garbage all of it leaves for the collector.`,
    );
  }
  lines.push(...profileNotes);
  if (extras.memory) {
    const memory = extras.memory;
    lines.push(
      `- Memory (\`bench/relay-memory.ts\`, ${memory.requests.toLocaleString("en")} streamed requests at 128 connections): ${fixed(memory.idleMb, 0)} MB idle, ${fixed(memory.peakMb, 0)} MB at the peak, ${fixed(memory.afterMb, 0)} MB ${memory.waitSeconds} s after the load stopped (${fixed((memory.afterMb / memory.idleMb - 1) * 100, 0)} % above idle).`,
    );
  }
  return lines.join("\n");
}

/**
 * What profiling found (kept with the code that reports it). Instruction counts could not be
 * taken: valgrind 3.19 (Debian 12) stops at an SSE4.2 instruction (PCMPESTRI, immediate 0x04) in
 * Bun's HTTP client thread, so the stages are measured in CPU time in their own process (above)
 * and located with Bun's sampling profiler (\`bun --cpu-prof-md\`).
 */
const profileNotes: string[] = [
  "- Instruction counts: `valgrind --tool=callgrind` cannot run the relay (valgrind 3.19 stops at an SSE4.2 PCMPESTRI instruction in Bun's HTTP client thread) and `perf stat` has no hardware counters on this VM; the stages above are CPU time measured alone, and `bun --cpu-prof-md` locates the rest: under non-streamed load about a third of the relay's samples are inside fetch (native, as in the floor), a fifth in SQLite statements (the settlement transaction, its commit and the log's index pages), and what is left spreads over the pipeline's steps with none above 2 %.",
  "- Paced streams cost per chunk, not per request: 20 chunks each cross from Bun's HTTP thread to JavaScript, through the SSE parser and the usage check, and out to the client as their own write. On this 2-core machine the servers share one core, so at 2,000 paced streams the mock and any relay in front of it run out of CPU (the mock alone spends about 0.6 ms per stream): the added time to first byte there is queueing for that core.",
];

/**
 * `dirs`: the harness's result folders, the main pass first (its settings head the section).
 * The peak-memory aim covers the main pass (128 connections and the 256 paced streams); the
 * 2,000 paced streams run in a pass of their own, on fresh processes, and their peak is reported
 * beside the floor's.
 */
export function relayReport(dirs: string[], extras: ReportExtras = {}): string {
  const all = new Map<string, Measure>();
  for (const dir of dirs) for (const [key, measure] of measures(dir)) all.set(key, measure);
  const meta = JSON.parse(readFileSync(join(dirs[0]!, "results.jsonl"), "utf8").split("\n")[0]!);
  const cells = [...all.keys()].map((key) => key.split("|") as [string, string, string]);
  const points = [...new Set(cells.filter(([, , target]) => target === "ours").map(([scenario, conns]) => `${scenario}|${conns}`))];
  const rows: string[] = [];
  let cpuOk: boolean | undefined;
  let pacedThroughputOk: boolean | undefined;
  const ttfbOk = new Map<string, boolean>();
  let portkeyMin = Infinity;
  let peakRss = 0;
  /** Peak RSS by judged point, ours against the floor's at the same point. */
  const rssByPoint: string[] = [];
  for (const point of points) {
    const [scenario, conns] = point.split("|") as [string, string];
    const get = (target: string) => all.get(`${point}|${target}`);
    const ours = get("ours")!;
    const parse = get("bun-parse");
    const pipe = get("bun-pipe");
    const direct = get("direct");
    const portkey = get("portkey");
    const paced = scenario === "paced";
    if (Number(conns) >= 128 || paced) {
      const judged = Number(conns) < 2000;
      if (judged) peakRss = Math.max(peakRss, ours.peakRssMb || 0);
      rssByPoint.push(
        `${scenario} ${conns}${judged ? "" : " (own pass, not judged)"}: ${fixed(ours.peakRssMb, 0)} (bun-parse ${fixed(parse?.peakRssMb ?? NaN, 0)})`,
      );
    }
    const cpuRatio = parse ? ours.cpuMsPerRequest / parse.cpuMsPerRequest : NaN;
    // Latency added is only meaningful where the load does not saturate the CPU (paced streams);
    // in the closed-loop scenarios p50 is mostly queueing and is reported, not judged.
    const addedP50 = direct ? (paced ? ours.ttfb50 - direct.ttfb50 : ours.p50 - direct.p50) : NaN;
    const addedP99 = direct ? (paced ? ours.ttfb99 - direct.ttfb99 : ours.p99 - direct.p99) : NaN;
    const versusPortkey = portkey ? ours.rps / portkey.rps : NaN;
    const versusDirect = direct ? ours.rps / direct.rps : NaN;
    // Paced streams run at the upstream's pace for everyone: there throughput is judged against the mock.
    if (!paced && Number.isFinite(versusPortkey)) portkeyMin = Math.min(portkeyMin, versusPortkey);
    if (!paced && Number.isFinite(cpuRatio)) cpuOk = (cpuOk ?? true) && cpuRatio <= 1.5;
    if (paced && Number.isFinite(versusDirect)) pacedThroughputOk = (pacedThroughputOk ?? true) && versusDirect >= 0.98;
    if (paced && Number.isFinite(addedP99)) ttfbOk.set(conns, addedP99 <= (Number(conns) >= 2000 ? 20 : 5));
    const throughput = paced
      ? `${fixed(versusDirect, 2)}× the mock`
      : `${fixed(pipe ? (ours.rps / pipe.rps) * 100 : NaN, 0)} % of bun-pipe (${fixed(parse ? ours.rps / parse.rps : NaN, 2)}× bun-parse)`;
    rows.push(
      `| ${scenario} | ${conns} | ${fixed(ours.cpuMsPerRequest, 3)} / ${fixed(parse?.cpuMsPerRequest ?? NaN, 3)} = ${fixed(cpuRatio)}× | ${throughput} | ${fixed(addedP50)} / ${fixed(addedP99)}${paced ? " (TTFB)" : ""} | ${fixed(ours.peakRssMb, 0)} | ${paced ? "–" : `${fixed(versusPortkey, 1)}×`} |`,
    );
  }
  const rssOk = peakRss > 0 ? peakRss <= 150 : undefined;
  const memory = extras.memory;
  const settleOk = memory ? memory.afterMb <= memory.idleMb * 1.2 : undefined;
  const ttfbVerdict = (conns: string) => verdict(ttfbOk.get(conns));
  const summary = dirs
    .filter((dir) => existsSync(join(dir, "summary.md")))
    .map((dir) =>
      readFileSync(join(dir, "summary.md"), "utf8")
        .replace(/^# .*\n/, "")
        .replace(/^## /gm, "#### ")
        .trim(),
    )
    .join("\n\n");
  return `## Relay

\`bench/relay.ts\` runs the team harness (\`bench/harness\`, a copy of the shared bench tool): the
mock upstream, a bare Bun passthrough that pipes (bun-pipe) or also parses usage (bun-parse),
Portkey, and our gateway (${extras.gateway === "source" ? "`bun src/main.ts`" : "the executable as shipped, built with `npm run build`'s options"}) on a fresh SQLite store with one channel and one
unlimited token, created through the management API. Every request through ours is authenticated, priced, reserved,
settled and logged (one store transaction, group-committed). Servers share CPU 0 and the load
generator (${meta.loadgen}) has CPU 1, so requests per second measure CPU cost per request. Medians of
${meta.repeats} × ${meta.duration_s} s runs, ${meta.date}. The Bun passthroughs and the probe run with fetch's
in-flight limit raised like ours raises its own, so the 2,000 paced streams queue nowhere. The
2,000 paced streams run in a second pass on fresh processes (second table below): run after the
other scenarios, they left every process holding their memory through the next repeat.

| aim (issue 14) | verdict |
|---|---|
| CPU per request at most 1.5 × bun-parse (non-streamed and streamed) | ${verdict(cpuOk)} |
| paced throughput at least 0.98 × the mock | ${verdict(pacedThroughputOk)} |
| added p99 time to first byte at most 5 ms at 256 paced streams | ${ttfbVerdict("256")} |
| added p99 time to first byte at most 20 ms at 2,000 paced streams | ${ttfbVerdict("2000")} |
| peak RSS at most 150 MB (128-connection and 256 paced runs) | ${verdict(rssOk)} (peak ${fixed(peakRss, 0)} MB; MB by run, ours and the floor: ${rssByPoint.join("; ")}) |
| back within 20 % of idle a minute after the load | ${verdict(settleOk)}${memory ? ` (${fixed(memory.idleMb, 0)} MB idle, ${fixed(memory.afterMb, 0)} MB after ${memory.waitSeconds} s)` : ""} |
| beats Portkey many times over | ${Number.isFinite(portkeyMin) ? `${fixed(portkeyMin, 1)}× its throughput at least` : "–"} |

| scenario | conns | CPU ms/request: ours / bun-parse | throughput | added p50 / p99 ms vs direct | peak RSS MB | × Portkey |
|---|---|---|---|---|---|---|
${rows.join("\n")}

${explanation(all, extras)}

### The harness's table

${summary}
`;
}
