// Clients that leave at every position of a stream (plan B1): right after the headers, after
// each event, after the last content and before [DONE]. Whatever the position, the relay stops
// the upstream (or had finished it), settles each request at most once, holds nothing reserved
// afterwards, and the books balance exactly (quota + used quota = the opening balance).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { addChannel } from "../helpers/relay-world.ts";
import { addSpender, reportFigures, startFaultWorld, streamChat, type FaultWorld } from "../helpers/fault-world.ts";

let world: FaultWorld;
beforeAll(async () => {
  // Long enough that an upstream stalled for good is cut only because its client left.
  world = await startFaultWorld({ STREAMING_TIMEOUT: "300" });
});
afterAll(() => world.stop());

const opening = 50_000_000;
const granted = 20_000_000;
const runsPerPosition = 3;

test("a client leaving at any chunk position leaves nothing reserved and the books exact", async () => {
  await addChannel(world, { key: "sk-leaving", models: "gpt-4o-mini" });
  world.upstream.behave("sk-leaving", { chunks: 6, chunkDelayMs: 150, promptTokens: 30, completionTokens: 6 });
  const spender = await addSpender(world, "leaver", opening, granted);

  const whole = await streamChat(world, spender.key, { model: "gpt-4o-mini" });
  expect([whole.status, whole.done]).toEqual([200, true]);
  const positions = whole.events;

  const calls: Promise<Awaited<ReturnType<typeof streamChat>>>[] = [];
  for (let position = 0; position < positions; position++) {
    for (let run = 0; run < runsPerPosition; run++) {
      calls.push(streamChat(world, run % 2 ? spender.limitedKey : spender.key, { model: "gpt-4o-mini" }, position));
    }
  }
  const outcomes = await Promise.all(calls);
  expect(outcomes.every((outcome) => outcome.status === 200 && outcome.left && !outcome.done)).toBe(true);

  const figures = await world.check({
    totals: [{ userId: spender.userId, total: opening }],
    granted: [{ tokenId: spender.limitedId, granted }],
  });
  // Every upstream stream ended: cancelled by the relay when the client left early, or complete.
  const streams = world.upstream.receivedBy("sk-leaving");
  expect(streams.length).toBe(calls.length + 1);
  for (let wait = 0; wait < 100 && streams.some((entry) => !entry.streamEnd); wait++) await Bun.sleep(100);
  expect(streams.filter((entry) => !entry.streamEnd)).toEqual([]);
  const cancelled = streams.filter((entry) => entry.streamEnd === "cancelled").length;
  expect(cancelled).toBeGreaterThan(0);
  // At most one charge per request (L5 checked above), never more charges than requests.
  expect(figures.consumptionLogs).toBeLessThanOrEqual(calls.length + 1);
  reportFigures("leaving-clients", {
    positions,
    streams: calls.length,
    cancelledUpstream: cancelled,
    charged: figures.consumptionLogs,
    quota: figures.consumedQuota,
  });
}, 120_000);

test("a client leaving a stream whose upstream went silent makes the relay hang up on it", async () => {
  // The upstream sends its content, then nothing more, ever: only the client's leaving can end it.
  await addChannel(world, { key: "sk-leaving-silent", models: "gpt-4o" });
  world.upstream.behave("sk-leaving-silent", { chunks: 6, stallAfterChunks: 4, promptTokens: 30, completionTokens: 6 });
  const spender = await addSpender(world, "silentleave", opening, granted);
  const positions = 6; // headers only, the role chunk, four content chunks
  const calls = [];
  for (let position = 0; position < positions; position++) {
    for (let run = 0; run < runsPerPosition; run++)
      calls.push(streamChat(world, run % 2 ? spender.limitedKey : spender.key, { model: "gpt-4o" }, position));
  }
  const outcomes = await Promise.all(calls);
  expect(outcomes.every((outcome) => outcome.status === 200 && outcome.left)).toBe(true);
  const streams = world.upstream.receivedBy("sk-leaving-silent");
  expect(streams.length).toBe(calls.length);
  // Not a timing bound: without the relay cancelling, these streams would stay open for 300 s.
  for (let wait = 0; wait < 600 && streams.some((entry) => entry.streamEnd !== "cancelled"); wait++) await Bun.sleep(100);
  expect(streams.map((entry) => entry.streamEnd)).toEqual(streams.map(() => "cancelled"));
  const figures = await world.check({
    totals: [{ userId: spender.userId, total: opening }],
    granted: [{ tokenId: spender.limitedId, granted }],
  });
  reportFigures("leaving-clients (silent upstream)", {
    positions,
    streams: calls.length,
    cancelledUpstream: streams.length,
    chargedInWorld: figures.consumptionLogs,
  });
}, 120_000);
