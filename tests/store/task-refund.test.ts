// The refund of a failed drawing or music task against the ledger (services/billing) on the
// dialect the run uses: a task that failed before its charge reached the store is not written
// off as "nothing to refund" but refunded exactly once the charge is there; a charge that never
// comes (its settlement failed or was lost) ends as refunded with nothing given back; and after
// a refund the user can hold their whole balance again at once (on Redis, whose reservation book
// remembers the refunded charge, this needs the book to be told of the refund).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openSharedState } from "../../src/cache/open-shared-state.ts";
import type { SharedState } from "../../src/cache/shared-state.ts";
import { openReservationBook } from "../../src/services/billing/reservation-book.ts";
import { consumeLogValues } from "../../src/services/billing/consume-log.ts";
import { drainLedger, holdQuota, releaseHold, settleQuota } from "../../src/services/billing/quota-holds.ts";
import { LogType } from "../../src/services/logs/log-types.ts";
import { drawings } from "../../src/services/tasks/drawing-tasks.ts";
import { music } from "../../src/services/tasks/music-tasks.ts";
import { refundTask, settlementGraceMs } from "../../src/services/tasks/task-refund.ts";
import { closeStore, db, openStore, t } from "../../src/store/client.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let store: TestStore;
let sharedState: SharedState;
beforeAll(async () => {
  store = await createTestStore();
  await openStore(
    store.dialect === "pg" ? { dialect: "pg", url: store.env.SQL_DSN! } : { dialect: "sqlite", path: store.env.SQLITE_PATH! },
  );
  // A refund announces the token's new balance to the token caches. On Redis (CI sets
  // TEST_REDIS_URL) the reservation book remembers recent charges, which a refund must correct.
  sharedState = await openSharedState(process.env.TEST_REDIS_URL, `task-refund-test-${crypto.randomUUID()}:`);
  await openReservationBook(sharedState, "task-refund-test");
});
afterAll(async () => {
  // Suites share this process: leave the in-memory book and state the others expect.
  await openReservationBook(await openSharedState(undefined), "task-refund-test");
  await sharedState.close();
  await closeStore();
  await store.dispose();
});

async function account(name: string, quota: number) {
  const [user] = await db.insert(t.users).values({ username: name, password: "x", quota }).returning();
  const [token] = await db
    .insert(t.tokens)
    .values({ user_id: user!.id, key: `${name}-key-0123456789abcdef0123456789ab`, name, remain_quota: quota })
    .returning();
  return { userId: user!.id, tokenId: token!.id };
}

async function balances(ids: { userId: number; tokenId: number }) {
  const [user] = await db.select().from(t.users).where(eq(t.users.id, ids.userId));
  const [token] = await db.select().from(t.tokens).where(eq(t.tokens.id, ids.tokenId));
  return {
    quota: Number(user!.quota),
    used: Number(user!.used_quota),
    tokenRemain: Number(token!.remain_quota),
    tokenUsed: Number(token!.used_quota),
  };
}

async function charge(ids: { userId: number; tokenId: number }, requestId: string, quota: number) {
  await holdQuota({ requestId, userId: ids.userId, tokenId: ids.tokenId, tokenLimited: true, amount: quota });
  const log = consumeLogValues({
    requestId,
    userId: ids.userId,
    username: "u",
    tokenId: ids.tokenId,
    tokenName: "u",
    model: "mj_imagine",
    upstreamModel: "mj_imagine",
    group: "default",
    channelId: 0,
    channelName: "",
    price: { kind: "fixed", price: 0.1, groupRatio: 1 },
    quota,
    promptTokens: 0,
    completionTokens: 0,
    useTimeSeconds: 0,
    isStream: false,
    firstResponseMs: undefined,
    channelChain: [],
  });
  await settleQuota({ requestId, userId: ids.userId, tokenId: ids.tokenId, tokenLimited: true, channelId: 0, quota, log });
  await drainLedger();
}

async function failedDrawing(ids: { userId: number; tokenId: number }, requestId: string, quota: number, submitTime = Date.now()) {
  const [row] = await db
    .insert(t.midjourneys)
    .values({
      user_id: ids.userId,
      token_id: ids.tokenId,
      action: "IMAGINE",
      mj_id: `mj-${requestId}`,
      status: "FAILURE",
      progress: "100%",
      fail_reason: "banned",
      submit_time: submitTime,
      quota,
      request_id: requestId,
      code: 1,
    })
    .returning();
  return row!.id;
}

const refundedFlag = async (id: number) => Boolean((await db.select().from(t.midjourneys).where(eq(t.midjourneys.id, id)))[0]!.refunded);
const refundLogs = async (requestId: string) =>
  db
    .select()
    .from(t.logs)
    .where(eq(t.logs.request_id, `refund:${requestId}`));

test("a task that failed before its charge settled is refunded exactly, once the charge is there", async () => {
  const ids = await account("early-failure", 1000);
  const id = await failedDrawing(ids, "early-1", 300);
  // The poller saw the failure first: nothing to give back yet, and the task stays open.
  expect(await refundTask(drawings, id)).toBe(0);
  expect(await refundedFlag(id)).toBe(false);
  await charge(ids, "early-1", 300);
  expect(await balances(ids)).toEqual({ quota: 700, used: 300, tokenRemain: 700, tokenUsed: 300 });
  // The sweep comes back: the whole charge returns, once.
  expect(await refundTask(drawings, id)).toBe(300);
  expect(await refundTask(drawings, id)).toBe(0);
  expect(await refundedFlag(id)).toBe(true);
  expect(await balances(ids)).toEqual({ quota: 1000, used: 0, tokenRemain: 1000, tokenUsed: 0 });
  const logs = await refundLogs("early-1");
  expect(logs.map((log) => [log.type, Number(log.quota)])).toEqual([[LogType.system, 300]]);
});

test("a charge that never settles ends the task refunded with nothing given back", async () => {
  const ids = await account("lost-charge", 1000);
  // Submitted long ago, its charge lost (the hold released): no money moved, none comes back.
  await holdQuota({ requestId: "lost-1", userId: ids.userId, tokenId: ids.tokenId, tokenLimited: true, amount: 300 });
  await releaseHold("lost-1");
  const id = await failedDrawing(ids, "lost-1", 300, Date.now() - settlementGraceMs - 1000);
  expect(await refundTask(drawings, id)).toBe(0);
  expect(await refundedFlag(id)).toBe(true);
  // A failed settlement sets the row's quota to 0: settled at once, whatever its age.
  const zero = await failedDrawing(ids, "lost-2", 0);
  expect(await refundTask(drawings, zero)).toBe(0);
  expect(await refundedFlag(zero)).toBe(true);
  expect(await balances(ids)).toEqual({ quota: 1000, used: 0, tokenRemain: 1000, tokenUsed: 0 });
  expect(await refundLogs("lost-1")).toEqual([]);
});

test("after a refund the whole balance can be held again; a music task refunds the same way", async () => {
  const ids = await account("after-refund", 500);
  await charge(ids, "spent-1", 500);
  const [task] = await db
    .insert(t.tasks)
    .values({
      user_id: ids.userId,
      platform: "suno",
      action: "MUSIC",
      task_id: "suno-1",
      status: "FAILURE",
      progress: "100%",
      fail_reason: "x",
      submit_time: Math.floor(Date.now() / 1000),
      quota: 500,
      request_id: "spent-1",
    })
    .returning();
  expect(await refundTask(music, task!.id)).toBe(500);
  expect(await refundTask(music, task!.id)).toBe(0);
  expect(await balances(ids)).toEqual({ quota: 500, used: 0, tokenRemain: 500, tokenUsed: 0 });
  await holdQuota({ requestId: "again-1", userId: ids.userId, tokenId: ids.tokenId, tokenLimited: true, amount: 500 });
  await releaseHold("again-1");
});
