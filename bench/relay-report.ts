// Turns one harness run (results.jsonl, raw load and probe files, summary.md) into the "Relay"
// section of docs/PERFORMANCE.md: the verdict on each aim of issue 3, then the harness's table.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Load = { ok: number; duration: number; p50: number; p99: number };
type Measure = { rps: number; p50: number; p99: number; cpuMsPerRequest: number; peakRssMb: number; ttfb50: number; ttfb99: number };

function parseLoad(file: string): Load | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const wrk = /^WRK_JSON (.*)$/m.exec(text);
  if (wrk) {
    const result = JSON.parse(wrk[1]!);
    return { ok: result.requests - result.errors.status, duration: result.duration_us / 1e6, p50: result.latency_us.p50 / 1000, p99: result.latency_us.p99 / 1000 };
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
  const lines = readFileSync(join(dir, "results.jsonl"), "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const grouped = new Map<string, { rps: number[]; p50: number[]; p99: number[]; cpu: number[]; rss: number[]; ttfb50: number[]; ttfb99: number[] }>();
  for (const run of lines.filter((line) => line.kind === "run")) {
    const key = `${run.scenario}|${run.conns}|${run.target}`;
    let entry = grouped.get(key);
    if (!entry) grouped.set(key, (entry = { rps: [], p50: [], p99: [], cpu: [], rss: [], ttfb50: [], ttfb99: [] }));
    const load = parseLoad(join(dir, run.load_file));
    if (load && load.duration > 0 && load.ok > 0) {
      entry.rps.push(load.ok / load.duration);
      entry.p50.push(load.p50);
      entry.p99.push(load.p99);
      if (run.gw_pid) entry.cpu.push((run.gw_cpu_s * 1000) / load.ok);
      else entry.cpu.push((run.mock_cpu_s * 1000) / load.ok);
    }
    if (run.gw_peak_rss_kb > 0) entry.rss.push(run.gw_peak_rss_kb / 1024);
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
      ttfb50: median(entry.ttfb50),
      ttfb99: median(entry.ttfb99),
    });
  }
  return result;
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const verdict = (ok: boolean | undefined) => (ok === undefined ? "–" : ok ? "met" : "**not met**");

export type ReportExtras = {
  /** µs of CPU per request for hold + settlement alone (relay-ledger.ts). */
  ledger?: { alone: number; concurrent32: number };
  /** A second run of ours with runtime settings from the environment. */
  tuned?: { dir: string; environment: string };
};

function tunedRows(dir: string): string[] {
  const all = measures(dir);
  const rows: string[] = [];
  for (const [key, ours] of all) {
    const [scenario, conns, target] = key.split("|");
    if (target !== "ours") continue;
    const direct = all.get(`${scenario}|${conns}|direct`);
    const latency = scenario === "paced"
      ? `TTFB ${fixed(ours.ttfb50)} / ${fixed(ours.ttfb99)} ms (direct ${fixed(direct?.ttfb50 ?? NaN)} / ${fixed(direct?.ttfb99 ?? NaN)})`
      : `p50 ${fixed(ours.p50)} / p99 ${fixed(ours.p99)} ms`;
    rows.push(`| ${scenario} | ${conns} | ${fixed(ours.cpuMsPerRequest, 3)} | ${latency} | ${fixed(ours.peakRssMb, 0)} |`);
  }
  return rows;
}

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
    const rest = ours * 1000 - floor * 1000 - extras.ledger.concurrent32;
    lines.push(
      `- The ledger alone, a durable hold before the upstream call and a settlement after it (user, token, channel, the hold row, the consumption log and its indexes, in SQLite, group-committed), costs ${fixed(extras.ledger.alone, 0)} µs per request one at a time and ${fixed(extras.ledger.concurrent32, 0)} µs with 32 at once (\`bench/relay-ledger.ts\`). A relay that forwards as the floor does and also holds and settles every request in the store before answering needs at least the floor plus the ledger, ${fixed(floor * 1000 + extras.ledger.concurrent32, 0)} µs = ${fixed((floor * 1000 + extras.ledger.concurrent32) / (floor * 1000), 1)}× the floor, before anything else: the 1.5× aim is below that. The durable hold is what makes concurrent spending exact and lets several instances share one balance, so it stays. The ledger's cost is SQLite's own work (B-tree and WAL pages: the log row alone updates the table and its 9 indexes), not drizzle's: binding the same statements straight to bun:sqlite was measured and changed nothing.`,
      `- The remaining ${fixed(rest, 0)} µs are the application around the forward: Elysia's routing (relay answers carry their own headers, so Elysia does not copy them), token authentication from the caches, parsing the body, counting the prompt with gpt-tokenizer for the hold (required by issue 3; recent texts are remembered), pricing, choosing a channel, the adaptor, the log entry. Throughput follows CPU here (the relay and the mock share one core), so the throughput aim falls with the CPU aim.`,
    );
  }
  lines.push(
    "- Latency: in the paced scenario the relay's own work per request is well under a millisecond (hold and settlement are each one group-committed transaction), but it shares the core with the mock, whose timers run late by what the relay uses; closed-loop p50 figures are queueing at saturation, not added latency. The paced p99 has another cause: Bun's fetch lets at most 256 requests be in flight per process (BUN_CONFIG_MAX_HTTP_REQUESTS), and when a client leaves mid-stream the relay keeps reading the upstream so it can bill the upstream's own usage (the passthroughs cancel it), so the streams the load generator abandons at the end of a run still hold places while the probe's 256 streams start: some wait for one to finish.",
    "- Memory: the idle process is about 80 MB, of which the Bun runtime's mapped code is about 40 MB; gpt-tokenizer's o200k table adds about 45 MB on the first relayed request (loaded on demand, its load-time garbage collected at once). JavaScriptCore sizes its heap against the machine's memory (24 GB here), so garbage accumulates before a collection.",
  );
  if (extras.tuned) {
    lines.push(
      "",
      `Both settings can only come from the environment the process starts in. A second, shorter run of ours with \`${extras.tuned.environment}\` (JavaScriptCore's heap sized for 512 MB, fetch allowed 4096 requests in flight):`,
      "",
      "| scenario | conns | CPU ms/request | latency | peak RSS MB |",
      "|---|---|---|---|---|",
      ...tunedRows(extras.tuned.dir),
    );
  }
  return lines.join("\n");
}

export function relayReport(dir: string, extras: ReportExtras = {}): string {
  const all = measures(dir);
  const meta = JSON.parse(readFileSync(join(dir, "results.jsonl"), "utf8").split("\n")[0]!);
  const cells = [...all.keys()].map((key) => key.split("|") as [string, string, string]);
  const points = [...new Set(cells.filter(([, , target]) => target === "ours").map(([scenario, conns]) => `${scenario}|${conns}`))];
  const rows: string[] = [];
  let cpuOk: boolean | undefined;
  let throughputOk: boolean | undefined;
  let latencyOk: boolean | undefined;
  let portkeyMin = Infinity;
  let peakRss = 0;
  for (const point of points) {
    const [scenario, conns] = point.split("|") as [string, string];
    const get = (target: string) => all.get(`${point}|${target}`);
    const ours = get("ours")!;
    const parse = get("bun-parse");
    const pipe = get("bun-pipe");
    const direct = get("direct");
    const portkey = get("portkey");
    peakRss = Math.max(peakRss, ours.peakRssMb || 0);
    const cpuRatio = parse ? ours.cpuMsPerRequest / parse.cpuMsPerRequest : NaN;
    const throughput = pipe ? ours.rps / pipe.rps : NaN;
    const paced = scenario === "paced";
    // Latency added is only meaningful where the load does not saturate the CPU (paced streams);
    // in the closed-loop scenarios p50 is mostly queueing and is reported, not judged.
    const addedP50 = direct ? (paced ? ours.ttfb50 - direct.ttfb50 : ours.p50 - direct.p50) : NaN;
    const addedP99 = direct ? (paced ? ours.ttfb99 - direct.ttfb99 : ours.p99 - direct.p99) : NaN;
    const versusPortkey = portkey ? ours.rps / portkey.rps : NaN;
    // Paced streams run at the upstream's pace for everyone: throughput says nothing there.
    if (!paced && Number.isFinite(versusPortkey)) portkeyMin = Math.min(portkeyMin, versusPortkey);
    if (!paced && Number.isFinite(cpuRatio)) cpuOk = (cpuOk ?? true) && cpuRatio <= 1.5;
    if (!paced && Number.isFinite(throughput)) throughputOk = (throughputOk ?? true) && throughput >= 0.85;
    if (paced && Number.isFinite(addedP50)) latencyOk = (latencyOk ?? true) && addedP50 < 1 && addedP99 < 5;
    rows.push(
      `| ${scenario} | ${conns} | ${fixed(ours.cpuMsPerRequest, 3)} / ${fixed(parse?.cpuMsPerRequest ?? NaN, 3)} = ${fixed(cpuRatio)}× | ${fixed(throughput * 100, 0)} % of bun-pipe (${fixed(parse ? ours.rps / parse.rps : NaN, 2)}× bun-parse) | ${fixed(addedP50)} / ${fixed(addedP99)}${paced ? " (TTFB)" : ""} | ${fixed(ours.peakRssMb, 0)} | ${paced ? "–" : `${fixed(versusPortkey, 1)}×`} |`,
    );
  }
  const rssOk = peakRss > 0 ? peakRss < 200 : undefined;
  const summary = existsSync(join(dir, "summary.md"))
    ? readFileSync(join(dir, "summary.md"), "utf8").replace(/^# .*\n/, "").replace(/^## /gm, "#### ").trim()
    : "";
  return `## Relay

\`bench/relay.ts\` runs the team harness (\`bench/harness\`, a copy of the shared bench tool): the
mock upstream, a bare Bun passthrough that pipes (bun-pipe) or also parses usage (bun-parse),
Portkey, and our gateway on a fresh SQLite store with one channel and one unlimited token, created
through the management API. Every request through ours is authenticated, priced, held, settled
and logged (two store transactions). Servers share CPU 0 and the load generator (${meta.loadgen}) has CPU 1,
so requests per second measure CPU cost per request. Medians of ${meta.repeats} × ${meta.duration_s} s runs, ${meta.date}.

| aim (issue 3) | verdict |
|---|---|
| CPU per request at most 1.5 × bun-parse (non-streamed and streamed) | ${verdict(cpuOk)} |
| at least 85 % of the bare passthrough's throughput (bun-pipe) | ${verdict(throughputOk)} |
| adds under 1 ms at p50 and under 5 ms at p99 (paced streams, time to first byte vs direct) | ${verdict(latencyOk)} |
| under 200 MB RSS under load | ${verdict(rssOk)} (peak ${fixed(peakRss, 0)} MB) |
| beats Portkey many times over | ${Number.isFinite(portkeyMin) ? `${fixed(portkeyMin, 1)}× its throughput at least` : "–"} |

| scenario | conns | CPU ms/request: ours / bun-parse | throughput | added p50 / p99 ms vs direct | peak RSS MB | × Portkey |
|---|---|---|---|---|---|---|
${rows.join("\n")}

${explanation(all, extras)}

### The harness's table

${summary}
`;
}
