// kill -9 during 100 streams, then a restart on the same store (plan K1, K3, L10): the store
// passes its integrity check, the ledger invariants hold exactly (quota + used quota = opening
// + the acknowledged top-up, every charge a log, tokens and channels summing to the logs), and
// nothing stays reserved after the restart, asked of the gateway's own count and of the relay
// (a request that needs the whole balance is admitted). The moment of the kill is drawn from a
// seed (FAULTS_SEED to replay one), printed with the figures.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { checkLedger, ledgerCheckEnv } from "../helpers/ledger-invariants.ts";
import { rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { addChannel, postRelay, reservedFor, type RelayWorld } from "../helpers/relay-world.ts";
import { addSpender, reportFigures, streamChat } from "../helpers/fault-world.ts";

let store: TestStore;
let upstream: Upstream;
const servers: TestServer[] = [];
beforeAll(async () => {
  store = await createTestStore();
  upstream = await startUpstream();
});
afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => undefined);
  await upstream.stop();
  await store.dispose();
});

async function world(): Promise<RelayWorld> {
  const server = await startTestServer({ store, env: { ...ledgerCheckEnv, STREAMING_TIMEOUT: "60" } });
  servers.push(server);
  return { server, upstream, root: await rootSession(server.url), stop: () => server.stop() };
}

const streams = Number(process.env.FAULTS_KILL_STREAMS ?? 100);
const opening = 200_000_000;
const granted = 50_000_000;
const topUp = 777;

test(`kill -9 during ${streams} streams, then a restart: integrity ok, invariants exact, nothing reserved`, async () => {
  const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 100_000);
  const killAfterMs = 200 + ((seed * 7919) % 1300);
  const first = await world();
  await addChannel(first, { key: "sk-kill", models: "gpt-4o-mini" });
  const spenders = [await addSpender(first, "killed1", opening, granted), await addSpender(first, "killed2", opening, granted)];
  const [code] = (await first.root.post("/api/redemption/", { name: "kill", quota: topUp, count: 1 })).body.data as string[];
  expect((await spenders[0]!.session.post("/api/user/topup", { key: code })).body.success).toBe(true);

  // Finished before the crash.
  upstream.behave("sk-kill", { promptTokens: 25, completionTokens: 10 });
  for (let index = 0; index < 10; index++) {
    const spender = spenders[index % 2]!;
    expect(
      (
        await postRelay(first, "/v1/chat/completions", index % 4 < 2 ? spender.key : spender.limitedKey, {
          model: "gpt-4o-mini",
          messages: [{ role: "user", content: `before ${index}` }],
        })
      ).status,
    ).toBe(200);
  }

  // In flight: long streams, and short ones that mostly end (and settle) before the kill.
  const long = { chunks: 40, chunkDelayMs: 50, promptTokens: 25, completionTokens: 40 };
  upstream.behave("sk-kill", [
    ...Array.from({ length: streams }, (_, index) => (index % 4 ? long : { ...long, chunks: 3, completionTokens: 3 })),
    long,
  ]);
  const inFlight = Array.from({ length: streams }, (_, index) => {
    const spender = spenders[index % 2]!;
    return streamChat(first, index % 3 ? spender.key : spender.limitedKey, { model: "gpt-4o-mini", max_tokens: 100 });
  });
  while (upstream.receivedBy("sk-kill").length < 10 + streams) await Bun.sleep(20);
  await Bun.sleep(killAfterMs);
  await first.server.crash();
  const outcomes = await Promise.all(inFlight);
  const cut = outcomes.filter((outcome) => !outcome.done).length;

  const second = await world();
  const totals = [
    { userId: spenders[0]!.userId, total: opening + topUp },
    { userId: spenders[1]!.userId, total: opening },
  ];
  const grants = spenders.map((spender) => ({ tokenId: spender.limitedId, granted }));
  const figures = await checkLedger(store, second.server.url, { totals, granted: grants });
  // Asked of the relay too: each user's whole balance can be reserved again.
  for (const spender of spenders) expect(await reservedFor(second, { userId: spender.userId, tokenKey: spender.key })).toBe(false);
  await checkLedger(store, second.server.url);
  reportFigures("kill-9", {
    seed,
    killAfterMs,
    streams,
    cutByTheKill: cut,
    finishedBefore: streams - cut,
    chargedBeforeTheKill: figures.consumptionLogs,
    quota: figures.consumedQuota,
  });
}, 180_000);
