// Poll answers an upstream makes as large as it likes (issue 23, item 7): 20 drawing tasks whose
// poll answers carry a 5 MB description each (100 MB for the batch). The gateway reads at most
// 8 MB of an answer (a longer one is cut and asked again in halves), keeps 4000 characters of a
// description, and goes on answering meanwhile. Measured: the server's peak resident memory, the
// growth of its store, and the slowest /api/status answer while the tasks are followed. Before,
// the batch was read and parsed whole: memory went from 103 to 593 MB, /api/status stalled 2.8 s,
// and 100 MB went into the store. The bounds are generous (the machine is shared and loaded).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { spawnMidjourneyUpstream, type UpstreamProcess } from "../fixtures/midjourney-process.ts";
import { hugeDescriptionBytes } from "../fixtures/midjourney-upstream.ts";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { addChannel, addToken } from "../helpers/relay-world.ts";
import { eventually, relayCall } from "../helpers/task-helpers.ts";
import { reportFigures, startFaultWorld, type FaultWorld } from "../helpers/fault-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

setDefaultTimeout(180_000);

const megabyte = 1024 * 1024;
const tasks = 20;
let world: FaultWorld;
let mj: UpstreamProcess;
let user: SeededUser;
let token: { id: number; key: string };

beforeAll(async () => {
  // In a process of its own: building its 100 MB answers must not stall this test's clock.
  mj = await spawnMidjourneyUpstream({ secrets: ["flood-mj"], finishAfterMs: 200 });
  world = await startFaultWorld({ TASK_POLL_INTERVAL: "1" });
  await addChannel(world, { name: "flood-mj", type: ChannelType.Midjourney, key: "flood-mj", base_url: mj.url, models: "mj_imagine" });
  [user] = await seedUsers(world.server, "flood", 1, { quota: 100_000_000 });
  token = await addToken(user!.session, { name: "flood-key" });
});
afterAll(async () => {
  await world?.stop();
  await mj?.stop();
});

const peakResidentBytes = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${world.server.pid}/status`, "utf8"))![1]) * 1024;
/** The SQLite store and its WAL (the PostgreSQL run measures the table's size instead). */
async function storeBytes(): Promise<number> {
  if (world.server.store.dialect === "pg") {
    const [row] = await world.server.store.query<{ size: number }>("select pg_total_relation_size('midjourneys') as size");
    return Number(row!.size);
  }
  const path = world.server.store.env.SQLITE_PATH!;
  const size = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return size(path) + size(`${path}-wal`);
}

test("20 tasks with 5 MB poll answers each: bounded memory and store, /api/status answers meanwhile", async () => {
  // Warm the paths the case uses, so their first use is not counted as its cost.
  for (let index = 0; index < 3; index++) await fetch(`${world.server.url}/api/status`).then((response) => response.text());
  const memoryBefore = peakResidentBytes();
  const storeBefore = await storeBytes();

  let watching = true;
  let slowestStatusMs = 0;
  let statusAnswers = 0;
  const watcher = (async () => {
    while (watching) {
      const started = performance.now();
      const response = await fetch(`${world.server.url}/api/status`);
      await response.text();
      expect(response.status).toBe(200);
      slowestStatusMs = Math.max(slowestStatusMs, performance.now() - started);
      statusAnswers++;
      await Bun.sleep(50);
    }
  })();

  const ids: string[] = [];
  for (let index = 0; index < tasks; index++) {
    const answer = await relayCall(
      world.server.url,
      "POST",
      "/mj/submit/imagine",
      { authorization: `Bearer sk-${token.key}` },
      { prompt: `flood ${index} [huge]` },
    );
    expect(answer.json.code).toBe(1);
    ids.push(String(answer.json.result));
  }
  const finished = () =>
    world.server.store.query<{ mj_id: string; status: string; description: string }>(
      "select mj_id, status, description from midjourneys where user_id = ?",
      user.id,
    );
  const rows = await eventually(
    finished,
    (rows) => rows.length === tasks && rows.every((row) => row.status === "SUCCESS"),
    "all tasks done",
    120_000,
  );
  watching = false;
  await watcher;

  const memoryGrowth = peakResidentBytes() - memoryBefore;
  const storeGrowth = (await storeBytes()) - storeBefore;
  reportFigures("task-poll-flood", {
    tasks,
    descriptionMB: hugeDescriptionBytes / megabyte,
    memoryGrowthMB: (memoryGrowth / megabyte).toFixed(1),
    storeGrowthKB: (storeGrowth / 1024).toFixed(0),
    slowestStatusMs: slowestStatusMs.toFixed(0),
    statusAnswers,
  });
  // What a task keeps: 4000 characters of the description (the rest of the 5 MB is not stored).
  for (const row of rows) expect(row.description.length).toBeLessThanOrEqual(4000);
  expect(rows.every((row) => row.description.startsWith("夜夜夜"))).toBe(true);
  expect(storeGrowth).toBeLessThan(10 * megabyte);
  expect(memoryGrowth).toBeLessThan(200 * megabyte);
  expect(slowestStatusMs).toBeLessThan(1500);
  await world.check();
});
