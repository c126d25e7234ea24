// A mixed-load soak (plan LS3): for FAULTS_SOAK_SECONDS (600 in `npm run test:faults`), 16
// clients call without pause: most calls stream, some are whole answers, some hit a channel that
// fails with 500, some leave half-way through a stream, and a redemption code is redeemed every
// second. Afterwards the server's resident memory is back within 20% of what it was after the
// warm-up (the first tenth of the run), every redemption is credited once, nothing is reserved
// and the ledger is exact.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { addChannel, postRelay } from "../helpers/relay-world.ts";
import { addSpender, reportFigures, startFaultWorld, streamChat, type FaultWorld } from "../helpers/fault-world.ts";

const seconds = Number(process.env.FAULTS_SOAK_SECONDS ?? 600);
const clients = 16;
const opening = 1_000_000_000_000;
const granted = 1_000_000_000;

let world: FaultWorld;
beforeAll(async () => {
  world = await startFaultWorld({ STREAMING_TIMEOUT: "10" });
});
afterAll(() => world.stop());

function residentKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
}

test(
  `a ${seconds}-second mixed-load soak: memory returns, nothing lost`,
  async () => {
    await addChannel(world, { key: "sk-soak", models: "gpt-4o-mini" });
    await addChannel(world, { key: "sk-soak-failing", models: "gpt-4o", auto_ban: 0 });
    world.upstream.behave("sk-soak", { chunks: 8, chunkDelayMs: 5, promptTokens: 40, completionTokens: 8 });
    world.upstream.behave("sk-soak-failing", { status: 500 });
    const spender = await addSpender(world, "soaker", opening, granted);
    const codes: string[] = [];
    const counts = { stream: 0, whole: 0, upstreamError: 0, left: 0, redeemed: 0, unexpected: 0 };

    const endAt = Date.now() + seconds * 1000;
    const warmUpEnd = Date.now() + seconds * 100;
    let rssAfterWarmUp = 0;
    const worker = async (index: number) => {
      for (let call = 0; Date.now() < endAt; call++) {
        const key = (index + call) % 3 ? spender.key : spender.limitedKey;
        const draw = (index * 31 + call * 17) % 100;
        if (draw < 80) {
          const outcome = await streamChat(world, key, { model: "gpt-4o-mini", max_tokens: 50 });
          if (outcome.status === 200 && outcome.done) counts.stream++;
          else counts.unexpected++;
        } else if (draw < 92) {
          const answer = await postRelay(world, "/v1/chat/completions", key, {
            model: "gpt-4o-mini",
            messages: [{ role: "user", content: "whole" }],
          });
          if (answer.status === 200) counts.whole++;
          else counts.unexpected++;
        } else if (draw < 97) {
          const answer = await postRelay(world, "/v1/chat/completions", key, {
            model: "gpt-4o",
            messages: [{ role: "user", content: "fails" }],
          });
          if (answer.status >= 500) counts.upstreamError++;
          else counts.unexpected++;
        } else {
          const outcome = await streamChat(world, key, { model: "gpt-4o-mini" }, 2);
          if (outcome.left) counts.left++;
          else counts.unexpected++;
        }
      }
    };
    const redeemer = async () => {
      while (Date.now() < endAt) {
        const [code] = (await world.root.post("/api/redemption/", { name: "soak", quota: 1000, count: 1 })).body.data as string[];
        codes.push(code!);
        if ((await spender.session.post("/api/user/topup", { key: code })).body.success) counts.redeemed++;
        await Bun.sleep(1000);
      }
    };
    const sampler = async () => {
      await Bun.sleep(Math.max(0, warmUpEnd - Date.now()));
      rssAfterWarmUp = residentKb(world.server.pid);
    };
    await Promise.all([...Array.from({ length: clients }, (_, index) => worker(index)), redeemer(), sampler()]);

    const figures = await world.check({
      totals: [{ userId: spender.userId, total: opening + counts.redeemed * 1000 }],
      granted: [{ tokenId: spender.limitedId, granted }],
    });
    expect(counts.redeemed).toBe(codes.length);
    expect(counts.unexpected).toBe(0);
    // Memory after the load: let the collector and the allocator give back what the load used.
    let rssAfter = residentKb(world.server.pid);
    for (let wait = 0; wait < 30 && rssAfter > rssAfterWarmUp * 1.2; wait++) {
      await Bun.sleep(1000);
      rssAfter = residentKb(world.server.pid);
    }
    reportFigures("soak", {
      seconds,
      clients,
      ...counts,
      charged: figures.consumptionLogs,
      rssAfterWarmUpKb: rssAfterWarmUp,
      rssAfterKb: rssAfter,
    });
    expect(rssAfter).toBeLessThanOrEqual(rssAfterWarmUp * 1.2);
  },
  (seconds + 180) * 1000,
);
