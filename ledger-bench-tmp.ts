import { openStore, db, t } from "./src/store/client.ts";
import { openSharedState } from "./src/cache/open-shared-state.ts";
import { loadOptions } from "./src/services/options/options.ts";
import { createRootIfEmpty } from "./src/services/users/registration.ts";
import { holdQuota, settleQuota } from "./src/services/billing/quota-holds.ts";
import { consumeLogValues } from "./src/services/billing/consume-log.ts";
import { rmSync } from "node:fs";
rmSync("/tmp/prof/ledger.db", { force: true }); rmSync("/tmp/prof/ledger.db-wal", { force: true }); rmSync("/tmp/prof/ledger.db-shm", { force: true });
await openStore({ dialect: "sqlite", path: "/tmp/prof/ledger.db" });
await openSharedState(undefined); await loadOptions(); await createRootIfEmpty();
await db.insert(t.channels).values({ name: "c", key: "k", models: "m" });
await db.insert(t.tokens).values({ user_id: 1, key: "kkk", name: "tok", unlimited_quota: true });
let seq = 0;
async function one() {
  const requestId = `2026${String(++seq).padStart(10, "0")}abcdefgh`;
  await holdQuota({ requestId, userId: 1, tokenId: 1, tokenLimited: false, amount: 20 });
  const log = consumeLogValues({ requestId, userId: 1, username: "root", tokenId: 1, tokenName: "tok", model: "gpt-4o-mini", upstreamModel: "gpt-4o-mini", group: "default", channelId: 1, channelName: "c", price: { kind: "ratio", modelRatio: 0.075, completionRatio: 4, groupRatio: 1 }, quota: 5, promptTokens: 24, completionTokens: 12, useTimeSeconds: 0, isStream: false, firstResponseMs: 3, channelChain: [1] });
  await settleQuota({ requestId, userId: 1, tokenId: 1, tokenLimited: false, channelId: 1, quota: 5, log });
}
for (const conc of [1, 32]) {
  const N = 4000; const t0 = performance.now(); const cpu0 = process.cpuUsage();
  for (let i = 0; i < N / conc; i++) await Promise.all(Array.from({ length: conc }, one));
  const cpu = process.cpuUsage(cpu0);
  console.log(`conc ${conc}: wall us/req ${((performance.now() - t0) * 1000 / N).toFixed(1)} cpu us/req ${((cpu.user + cpu.system) / N).toFixed(1)} (sys ${(cpu.system / N).toFixed(1)})`);
}
process.exit(0);
