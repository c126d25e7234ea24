// The ledger alone, stage by stage: what reserving and settling one request costs in CPU,
// measured in a separate process on a fresh SQLite store with the real services (quota-holds.ts:
// the balance read and the reservation, then the settlement transaction with its consumption log,
// group commit included), one request at a time and 32 at once; and the settlement's parts (the
// reservation alone, the settlement without its log, the log without its filter indexes).
// Printed as one JSON line; used by relay.ts to explain the relay's CPU per request.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSharedState } from "../src/cache/open-shared-state.ts";
import { consumeLogValues } from "../src/services/billing/consume-log.ts";
import { drainLedger, holdQuota, releaseHold, settleQuota } from "../src/services/billing/quota-holds.ts";
import { loadOptions } from "../src/services/options/options.ts";
import { createRootIfEmpty } from "../src/services/users/registration.ts";
import { db, openStore, t } from "../src/store/client.ts";

export type LedgerCost = {
  /** µs of CPU per request, reservation + settlement with its log, one at a time. */
  alone: number;
  /** The same with 32 requests at once (settlements group-committed). */
  concurrent32: number;
  /** Stages at 32 at once: the reservation alone (read the balance, reserve, release). */
  reserve: number;
  /** The settlement without a consumption log (LogConsumeEnabled off). */
  settleWithoutLog: number;
  /** The settlement with its log, when the log keeps only its time and user indexes. */
  settleLeanIndexes: number;
};

const price = { kind: "ratio" as const, modelRatio: 0.075, completionRatio: 4, groupRatio: 1 };

async function measure(): Promise<LedgerCost> {
  const folder = mkdtempSync(join(tmpdir(), "switchyard-ledger-bench-"));
  try {
    await openStore({ dialect: "sqlite", path: join(folder, "ledger.db") });
    await openSharedState(undefined);
    await loadOptions();
    await createRootIfEmpty();
    const [channel] = await db.insert(t.channels).values({ name: "bench", key: "k", models: "gpt-4o-mini" }).returning();
    const [token] = await db
      .insert(t.tokens)
      .values({ user_id: 1, key: "bench-ledger-token", name: "bench", unlimited_quota: true })
      .returning();
    let sequence = 0;
    const hold = (requestId: string) => holdQuota({ requestId, userId: 1, tokenId: token!.id, tokenLimited: false, amount: 21 });
    const settle = (requestId: string, withLog: boolean) => {
      const log = withLog
        ? consumeLogValues({
            requestId,
            userId: 1,
            username: "root",
            tokenId: token!.id,
            tokenName: "bench",
            model: "gpt-4o-mini",
            upstreamModel: "gpt-4o-mini",
            group: "default",
            channelId: channel!.id,
            channelName: "bench",
            price,
            quota: 5,
            promptTokens: 24,
            completionTokens: 12,
            useTimeSeconds: 0,
            isStream: false,
            firstResponseMs: 2,
            channelChain: [channel!.id],
          })
        : null;
      return settleQuota({ requestId, userId: 1, tokenId: token!.id, tokenLimited: false, channelId: channel!.id, quota: 5, log });
    };
    const nextId = () => `bench${String(++sequence).padStart(12, "0")}`;
    const whole = async () => {
      const requestId = nextId();
      await hold(requestId);
      await settle(requestId, true);
    };
    const cpuPerRequest = async (one: () => Promise<unknown>, concurrency: number, requests: number) => {
      await drainLedger();
      const start = process.cpuUsage();
      let started = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (started < requests) {
            started++;
            await one();
          }
        }),
      );
      await drainLedger();
      const used = process.cpuUsage(start);
      return (used.user + used.system) / requests;
    };
    await cpuPerRequest(whole, 8, 2000);
    const alone = await cpuPerRequest(whole, 1, 3000);
    const concurrent32 = await cpuPerRequest(whole, 32, 10000);
    const reserve = await cpuPerRequest(
      async () => {
        const requestId = nextId();
        await hold(requestId);
        await releaseHold(requestId);
      },
      32,
      10000,
    );
    const settleWithoutLog = await cpuPerRequest(() => settle(nextId(), false), 32, 10000);
    const client = (db as unknown as { $client: { run(sql: string): void } }).$client;
    for (const index of [
      "logs_type_created_index",
      "logs_model_created_index",
      "logs_token_created_index",
      "logs_username_created_index",
      "logs_channel_created_index",
      "logs_group_created_index",
      "logs_request_id_unique",
    ]) {
      client.run(`drop index ${index}`);
    }
    const settleLeanIndexes = await cpuPerRequest(() => settle(nextId(), true), 32, 10000);
    return { alone, concurrent32, reserve, settleWithoutLog, settleLeanIndexes };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  console.log(`LEDGER_JSON ${JSON.stringify(await measure())}`);
  process.exit(0);
}
