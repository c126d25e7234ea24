// Serving the console's assets, compared between executables in one run (issue 29 item 9: the
// asset handler of its own against @elysiajs/static over the embedded folder). Each round starts
// every executable in turn (the order rotates) in an empty folder on a new store and measures:
//   - start-up: from exec to the first answered /api/status, wall and main-thread CPU time;
//   - asset latency: every file the login page links, then a few hundred requests for them
//     (one at a time, and 8 at once), each timed from send to the last byte of the body.
// Usage: bun bench/static-assets.ts name=path/to/executable name=path/to/other [ROUNDS=5]
// Not part of `npm run bench`; run it on a quiet machine.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const rounds = Number(process.env.ROUNDS ?? 5);
const requestsPerRound = Number(process.env.ASSET_REQUESTS ?? 400);
const variants = process.argv.slice(2).map((argument) => {
  const [name, path] = argument.split("=");
  if (!name || !path) throw new Error("usage: bun bench/static-assets.ts name=executable name=executable");
  return { name, path };
});

type Sample = { startMs: number; startCpuMs: number; assetMs: number[]; concurrentMs: number[]; wrong: number };

const mainThreadCpuMs = (pid: number) => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}

async function timedGet(url: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { ms: performance.now() - started, ok: response.status === 200 && response.headers.get("cache-control") !== null };
}

async function measure(executable: string): Promise<Sample> {
  const folder = mkdtempSync(join(tmpdir(), "static-assets-"));
  const port = await freePort();
  const started = performance.now();
  const child = Bun.spawn([executable, "--port", String(port)], {
    cwd: folder,
    env: { ...process.env, SQLITE_PATH: join(folder, "store.db") },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (;;) {
      const answer = await fetch(`${base}/api/status`).catch(() => undefined);
      if (answer?.ok) break;
      if (performance.now() - started > 30_000) throw new Error(`${executable} did not start`);
      await Bun.sleep(2);
    }
    const startMs = performance.now() - started;
    const startCpuMs = mainThreadCpuMs(child.pid);
    const page = await (await fetch(`${base}/login`)).text();
    const assets = [...new Set(page.match(/\/assets\/[^"']+/g) ?? []), "/logo.svg", "/favicon.ico"];
    let wrong = 0;
    const assetMs: number[] = [];
    for (let index = 0; index < requestsPerRound; index++) {
      const result = await timedGet(base + assets[index % assets.length]);
      assetMs.push(result.ms);
      if (!result.ok) wrong++;
    }
    const concurrentMs: number[] = [];
    for (let index = 0; index < requestsPerRound; index += 8) {
      const batch = await Promise.all(
        assets
          .concat(assets)
          .slice(0, 8)
          .map((asset) => timedGet(base + asset)),
      );
      for (const result of batch) {
        concurrentMs.push(result.ms);
        if (!result.ok) wrong++;
      }
    }
    return { startMs, startCpuMs, assetMs, concurrentMs, wrong };
  } finally {
    child.kill();
    await child.exited;
    rmSync(folder, { recursive: true, force: true });
  }
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
};
const median = (values: number[]) => percentile(values, 0.5);

const samples = new Map<string, Sample[]>(variants.map((variant) => [variant.name, []]));
for (let round = 0; round < rounds; round++) {
  const order = variants.map((_, index) => variants[(index + round) % variants.length]!);
  for (const variant of order) samples.get(variant.name)!.push(await measure(variant.path));
}

console.log(`${rounds} rounds, ${requestsPerRound} requests one at a time and ${requestsPerRound} 8 at once per round\n`);
console.log(
  "| variant | start-up ms (median) | start-up CPU ms | asset p50 ms | asset p99 ms | 8 at once p50 ms | p99 ms | wrong answers |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const [name, list] of samples) {
  const one = list.flatMap((sample) => sample.assetMs);
  const many = list.flatMap((sample) => sample.concurrentMs);
  console.log(
    `| ${name} | ${median(list.map((s) => s.startMs)).toFixed(1)} | ${median(list.map((s) => s.startCpuMs)).toFixed(1)} | ${percentile(one, 0.5).toFixed(3)} | ${percentile(one, 0.99).toFixed(3)} | ${percentile(many, 0.5).toFixed(3)} | ${percentile(many, 0.99).toFixed(3)} | ${list.reduce((sum, s) => sum + s.wrong, 0)} |`,
  );
}
