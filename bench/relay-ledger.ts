// The ledger alone: what holding and settling one request costs in the store, measured in a
// separate process on a fresh SQLite store with the real services (quota-holds.ts, group
// commit included), one request at a time and 32 at once. Printed as one JSON line; used by
// relay.ts to explain the relay's CPU per request.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSharedState } from "../src/cache/open-shared-state.ts";
import { consumeLogValues } from "../src/services/billing/consume-log.ts";
import { holdQuota, settleQuota } from "../src/services/billing/quota-holds.ts";
import { loadOptions } from "../src/services/options/options.ts";
import { createRootIfEmpty } from "../src/services/users/registration.ts";
import { db, openStore, t } from "../src/store/client.ts";

export type LedgerCost = { alone: number; concurrent32: number };

async function measure(): Promise<LedgerCost> {
  const folder = mkdtempSync(join(tmpdir(), "switchyard-ledger-bench-"));
  try {
    await openStore({ dialect: "sqlite", path: join(folder, "ledger.db") });
    await openSharedState(undefined);
    await loadOptions();
    await createRootIfEmpty();
    const [channel] = await db.insert(t.channels).values({ name: "bench", key: "k", models: "gpt-4o-mini" }).returning();
    const [token] = await db.insert(t.tokens).values({ user_id: 1, key: "bench-ledger-token", name: "bench", unlimited_quota: true }).returning();
    let sequence = 0;
    const one = async () => {
      const requestId = `bench${String(++sequence).padStart(12, "0")}`;
      await holdQuota({ requestId, userId: 1, tokenId: token!.id, tokenLimited: false, amount: 21 });
      const price = { kind: "ratio" as const, modelRatio: 0.075, completionRatio: 4, groupRatio: 1 };
      const log = consumeLogValues({
        requestId, userId: 1, username: "root", tokenId: token!.id, tokenName: "bench", model: "gpt-4o-mini", upstreamModel: "gpt-4o-mini",
        group: "default", channelId: channel!.id, channelName: "bench", price, quota: 5, promptTokens: 24, completionTokens: 12,
        useTimeSeconds: 0, isStream: false, firstResponseMs: 2, channelChain: [channel!.id],
      });
      await settleQuota({ requestId, userId: 1, tokenId: token!.id, tokenLimited: false, channelId: channel!.id, quota: 5, log });
    };
    const cpuPerRequest = async (concurrency: number, requests: number) => {
      const start = process.cpuUsage();
      let started = 0;
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (started < requests) {
          started++;
          await one();
        }
      }));
      const used = process.cpuUsage(start);
      return (used.user + used.system) / requests;
    };
    await cpuPerRequest(8, 2000);
    return { alone: await cpuPerRequest(1, 3000), concurrent32: await cpuPerRequest(32, 10000) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  console.log(`LEDGER_JSON ${JSON.stringify(await measure())}`);
  process.exit(0);
}
