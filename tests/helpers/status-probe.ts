// Measures how long the gateway keeps other requests waiting: a child process (so that the test's
// own work, and the upstream imitations in the test's process, cannot slow the measurement) asks
// GET /api/status one after another and reports the slowest answer. Used by the fault suite's
// "no request stalls the event loop" cases, always against a baseline taken the same way.
//
//   const probe = startStatusProbe(server.url);
//   ... the attack ...
//   const { worstMs, probes } = await probe.stop();
import { cpus, loadavg } from "node:os";
import { join } from "node:path";

/** `controlWorstMs`: the slowest answer of an idle server in the probe's own process, asked in turn. */
export type ProbeResult = { worstMs: number; probes: number; controlWorstMs: number };

export type StatusProbe = { stop(): Promise<ProbeResult> };

/**
 * The slowest status answer allowed while the gateway works on something large: 1.5 s on a quiet
 * machine, more on a busy one (the machine is shared: at a load of eight on two cores a 100 ms
 * step takes 400 ms of wall time, and the one-minute load average trails a burst), and never less
 * than four times the baseline. Not a timing bound on the gateway's speed: the stalls it guards
 * against took seconds (7 to 16 s in the attack).
 */
export function statusBoundMs(baselineMs: number, controlWorstMs = 0): number {
  const load = Math.max(1, loadavg()[0]! / cpus().length);
  // The control is the machine's own delay at the same moments (another suite's burst stalls an
  // idle server too), which the trailing load average can miss; a stall of the gateway's own does
  // not show in it.
  // 750 ms a unit of load was once passed by 2.6 s against 2.4 s in a full run (eight 30 MB counts
  // beside the browser suites): still far from the seconds of the stalls it guards against.
  return Math.max(1500 * load, baselineMs * 4, controlWorstMs * 4);
}

/** The child's own code: asked with `bun status-probe.ts <url>`, it probes until stdin closes. */
async function runProbe(url: string): Promise<void> {
  let running = true;
  let worstMs = 0;
  let controlWorstMs = 0;
  let probes = 0;
  const control = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
  const timed = async (address: string): Promise<number> => {
    const started = performance.now();
    try {
      await (await fetch(address)).arrayBuffer();
    } catch {
      // A refused probe still measured the wait.
    }
    return performance.now() - started;
  };
  void (async () => {
    for await (const _ of Bun.stdin.stream());
    running = false;
  })();
  while (running) {
    worstMs = Math.max(worstMs, await timed(`${url}/api/status`));
    controlWorstMs = Math.max(controlWorstMs, await timed(control.url.href));
    probes++;
    await Bun.sleep(20);
  }
  control.stop(true);
  console.log(JSON.stringify({ worstMs: Math.round(worstMs), probes, controlWorstMs: Math.round(controlWorstMs) }));
}

export function startStatusProbe(url: string): StatusProbe {
  const child = Bun.spawn({ cmd: [process.execPath, join(import.meta.dir, "status-probe.ts"), url], stdin: "pipe", stdout: "pipe" });
  return {
    async stop() {
      child.stdin.end();
      const text = await new Response(child.stdout).text();
      await child.exited;
      return JSON.parse(text.trim().split("\n").at(-1)!) as ProbeResult;
    },
  };
}

if (import.meta.main) await runProbe(process.argv[2]!);
