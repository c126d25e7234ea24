// Several instances (issue 18): relay throughput of one gateway instance (without Redis, and
// with it) against two, on PostgreSQL and a Redis of their own (redis-server on a free port), with the same closed-loop
// load (CLUSTER_CONCURRENCY requests in flight, alternating between the instances). Each run
// starts on a fresh database. Reported: requests per second, latency, and CPU per request of
// the gateway processes and of Redis (PostgreSQL is a shared server and is not counted).
//
// On the two-core development machine two instances cannot scale (the load client, PostgreSQL,
// Redis and the gateways already share the cores): the comparison shows the cost per request of
// the shared state, not scaling. The "Several instances" section of docs/PERFORMANCE.md says so.
//
//   npm run bench -- cluster                      (about 5 minutes; writes docs/PERFORMANCE.md)
//   CLUSTER_BENCH_QUICK=1 npm run bench -- cluster (a smoke run: prints, writes nothing)
// PostgreSQL: BENCH_PG_URL, else TEST_PG_URL, else postgres://postgres@127.0.0.1:5432/test.
import { readFileSync } from "node:fs";
import { writePerformanceSection } from "./performance-doc.ts";

type Outcome = { label: string; perSecond: number; p50: number; p99: number; gatewayCpuUs: number; redisCpuUs: number; failed: number };

/** CPU time (user + system) of a process so far, in µs, from /proc (Linux clock ticks are 10 ms). */
function cpuMicros(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

const setups = [
  [1, false],
  [1, true],
  [2, true],
] as const;
const labelOf = (instances: number, shared: boolean) =>
  instances === 2 ? "two instances, Redis" : shared ? "one instance, Redis" : "one instance, no Redis";

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

async function measure(instances: 1 | 2, shared: boolean, requests: number, concurrency: number): Promise<Outcome> {
  // The test helpers read the dialect when first imported.
  process.env.TEST_STORE = "pg";
  process.env.TEST_PG_URL = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const { createTestStore } = await import("../tests/helpers/test-store.ts");
  const { startTestServer } = await import("../tests/helpers/test-server.ts");
  const { startRedisProcess } = await import("../tests/helpers/redis-process.ts");
  const { startUpstream } = await import("../tests/fixtures/openai-upstream.ts");
  const { rootSession } = await import("../tests/helpers/api-session.ts");

  const store = await createTestStore();
  const redis = shared ? await startRedisProcess() : undefined;
  const upstream = await startUpstream();
  const env: Record<string, string> = redis ? { REDIS_CONN_STRING: redis.url, REDIS_KEY_PREFIX: "bench:" } : {};
  const servers: Awaited<ReturnType<typeof startTestServer>>[] = [];
  try {
    for (let index = 0; index < instances; index++) servers.push(await startTestServer({ store, env }));
    const root = await rootSession(servers[0]!.url);
    await root.post("/api/channel/", {
      name: "bench",
      type: 1,
      key: "sk-bench",
      base_url: upstream.url,
      models: "gpt-4o-mini",
      group: "default",
    });
    const [token] = (await root.post("/api/token/", { name: "bench", unlimited_quota: true, expired_time: -1 })).body.data as {
      key: string;
    }[];
    await store.query("update users set quota = ? where id = ?", 1_000_000_000_000, root.userId);
    const body = JSON.stringify({ model: "gpt-4o-mini", max_tokens: 16, messages: [{ role: "user", content: "Say hello." }] });
    const send = async (index: number) => {
      const started = performance.now();
      const response = await fetch(`${servers[index % servers.length]!.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer sk-${token!.key}` },
        body,
      });
      await response.arrayBuffer();
      return { ok: response.status === 200, ms: performance.now() - started };
    };
    const load = async (count: number) => {
      const latencies: number[] = [];
      let failed = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            const result = await send(next++);
            latencies.push(result.ms);
            if (!result.ok) failed++;
          }
        }),
      );
      return { latencies: latencies.sort((a, b) => a - b), failed };
    };
    // The second instance learns of the channel through Redis; the warm-up also fills caches.
    for (let attempt = 0; attempt < 40 && (await send(1)).ok === false; attempt++) await Bun.sleep(250);
    await load(Math.min(1000, requests / 4));
    const cpuBefore = servers.map((server) => cpuMicros(server.pid));
    const redisBefore = cpuMicros(redis?.pid());
    const started = performance.now();
    const { latencies, failed } = await load(requests);
    const seconds = (performance.now() - started) / 1000;
    const gatewayCpu = servers.reduce((sum, server, index) => sum + cpuMicros(server.pid) - cpuBefore[index]!, 0);
    return {
      label: labelOf(instances, shared),
      perSecond: requests / seconds,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      gatewayCpuUs: gatewayCpu / requests,
      redisCpuUs: (cpuMicros(redis?.pid()) - redisBefore) / requests,
      failed,
    };
  } finally {
    for (const server of servers) await server.stop();
    await upstream.stop();
    await redis?.stop();
    await store.dispose();
  }
}

export async function benchCluster(): Promise<string> {
  const quick = process.env.CLUSTER_BENCH_QUICK === "1";
  const requests = Number(process.env.CLUSTER_REQUESTS ?? (quick ? 400 : 20_000));
  const concurrency = Number(process.env.CLUSTER_CONCURRENCY ?? 64);
  const repeats = quick ? 1 : 3;
  const outcomes: Outcome[] = [];
  // Alternated, so drift of the machine (other load, caches) spreads over both.
  for (let round = 0; round < repeats; round++)
    for (const [instances, shared] of setups) outcomes.push(await measure(instances, shared, requests, concurrency));
  const median = (label: string, pick: (outcome: Outcome) => number) => {
    const values = outcomes
      .filter((outcome) => outcome.label === label)
      .map(pick)
      .sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)]!;
  };
  const rows = setups
    .map(([instances, shared]) => labelOf(instances, shared))
    .map(
      (label) =>
        `| ${label} | ${median(label, (o) => o.perSecond).toFixed(0)} | ${median(label, (o) => o.p50).toFixed(1)} | ${median(label, (o) => o.p99).toFixed(1)} | ` +
        `${median(label, (o) => o.gatewayCpuUs).toFixed(0)} | ${median(label, (o) => o.redisCpuUs).toFixed(0)} | ${median(label, (o) => o.failed)} |`,
    );
  const markdown = `## Several instances (PostgreSQL + Redis)

\`npm run bench -- cluster\` (bench/cluster.ts): ${requests} non-streamed chat requests, ${concurrency} in flight,
through one gateway instance (without Redis: reservations in memory; with Redis) or alternately
through two, on PostgreSQL and a Redis of the run's own, each run on a fresh database; medians of ${repeats} alternated runs. CPU is per request, of
the gateway processes together and of Redis (PostgreSQL is not counted).

| Setup | Requests/s | p50 ms | p99 ms | Gateway CPU µs/request | Redis CPU µs/request | Failed |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

On two cores the second instance cannot add throughput: the load client, PostgreSQL, Redis and
both gateways share the same cores, so this comparison shows the cost per request of the state
the instances share (a reservation and its end in Redis, notices), not scaling. Scaling needs
instances on cores (or machines) of their own.`;
  if (!quick) writePerformanceSection("cluster", markdown);
  return markdown;
}

if (import.meta.main) console.log(await benchCluster());
