// The ledger's service (services/billing/quota-holds.ts) on the dialect the run uses: a hold ends
// exactly once whichever of settle and release comes first, a settlement charges the store once
// with its log, a hold that ended is available again, and a settlement never takes a balance
// below zero (what it could not collect is reported, user and token charged alike).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { drainLedger, holdQuota, openHolds, releaseHold, settleQuota } from "../../src/services/billing/quota-holds.ts";
import { reservationBook } from "../../src/services/billing/reservation-book.ts";
import { settleBody } from "../../src/services/billing/ledger-moves.ts";
import { closeStore, db, openStore, t, transact } from "../../src/store/client.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let store: TestStore;
beforeAll(async () => {
  store = await createTestStore();
  await openStore(
    store.dialect === "pg" ? { dialect: "pg", url: store.env.SQL_DSN! } : { dialect: "sqlite", path: store.env.SQLITE_PATH! },
  );
});
afterAll(async () => {
  await closeStore();
  await store.dispose();
});

async function newUser(name: string, quota: number) {
  const [user] = await db.insert(t.users).values({ username: name, password: "x", quota }).returning();
  return user!;
}

const quotaOf = async (id: number) => {
  const [row] = await db
    .select({ quota: t.users.quota, used: t.users.used_quota, count: t.users.request_count })
    .from(t.users)
    .where(eq(t.users.id, id));
  return [Number(row!.quota), Number(row!.used), Number(row!.count)];
};

const settlement = (requestId: string, userId: number, quota: number) => ({
  requestId,
  userId,
  tokenId: 0,
  tokenLimited: false,
  channelId: 0,
  quota,
  log: null,
});

test("release twice: the second finds nothing", async () => {
  const user = await newUser("twice", 100);
  await holdQuota({ requestId: "t1", userId: user.id, tokenId: 0, tokenLimited: false, amount: 60 });
  expect(reservationBook().heldFor(user.id)).toBe(60);
  expect([await releaseHold("t1"), await releaseHold("t1")]).toEqual([true, false]);
  expect(reservationBook().heldFor(user.id)).toBe(0);
  expect(await quotaOf(user.id)).toEqual([100, 0, 0]);
});

test("settle and release at once: the hold ends once, the cost is charged once", async () => {
  const user = await newUser("race", 100);
  for (let round = 0; round < 5; round++) {
    await holdQuota({ requestId: `race${round}`, userId: user.id, tokenId: 0, tokenLimited: false, amount: 50 });
    const [, released] = await Promise.all([settleQuota(settlement(`race${round}`, user.id, 10)), releaseHold(`race${round}`)]);
    expect(released).toBe(false);
    await drainLedger();
    expect(reservationBook().heldFor(user.id)).toBe(0);
  }
  expect(await quotaOf(user.id)).toEqual([50, 50, 5]);
  expect(openHolds()).toBe(0);
});

test("a hold is reserved against the balance the store has now, less the open holds", async () => {
  const user = await newUser("live", 100);
  await holdQuota({ requestId: "l1", userId: user.id, tokenId: 0, tokenLimited: false, amount: 70 });
  await expect(holdQuota({ requestId: "l2", userId: user.id, tokenId: 0, tokenLimited: false, amount: 40 })).rejects.toThrow(
    "用户额度不足",
  );
  // A top-up written by anyone is seen at once.
  await db.update(t.users).set({ quota: 110 }).where(eq(t.users.id, user.id));
  await holdQuota({ requestId: "l2", userId: user.id, tokenId: 0, tokenLimited: false, amount: 40 });
  await settleQuota(settlement("l1", user.id, 70));
  const second = await settleQuota(settlement("l2", user.id, 45));
  await drainLedger();
  // The second cost exceeded its hold by 5, more than the balance had left: it stops at zero, and
  // the 5 are not collected.
  expect([second.charged, second.uncollected]).toEqual([40, 5]);
  expect(await quotaOf(user.id)).toEqual([0, 110, 2]);
  await expect(holdQuota({ requestId: "l3", userId: user.id, tokenId: 0, tokenLimited: false, amount: 1 })).rejects.toThrow("用户额度不足");
});

test("one batch against a short limited token: each settlement takes what is left, user and token charged alike", async () => {
  const user = await newUser("batchshort", 1000);
  const [token] = await db
    .insert(t.tokens)
    .values({ user_id: user.id, key: "batchshortkey0123456789abcdefghij", name: "b", remain_quota: 30, unlimited_quota: false })
    .returning();
  const settle = (requestId: string, quota: number) =>
    settleQuota({ requestId, userId: user.id, tokenId: token!.id, tokenLimited: true, channelId: 0, quota, log: null });
  // Handed over in one turn: one batch, one transaction.
  const results = await Promise.all([settle("b1", 20), settle("b2", 20), settle("b3", 20)]);
  expect(results.map((result) => [result.charged, result.uncollected])).toEqual([
    [20, 0],
    [10, 10],
    [0, 20],
  ]);
  expect(results.map((result) => result.tokenRemain)).toEqual([0, 0, 0]);
  expect(await quotaOf(user.id)).toEqual([970, 30, 3]);
  const [row] = await db.select().from(t.tokens).where(eq(t.tokens.id, token!.id));
  expect([Number(row!.remain_quota), Number(row!.used_quota)]).toEqual([0, 30]);
});

test("a balance already below zero pays nothing more; what a store debit took is counted as paid first", async () => {
  const owing = await newUser("owing", -10);
  const [owed] = await Promise.all([settleQuota(settlement("o1", owing.id, 25))]);
  expect([owed!.charged, owed!.uncollected]).toEqual([0, 25]);
  // The request still counts, and nothing moves the balance further down.
  expect(await quotaOf(owing.id)).toEqual([-10, 0, 1]);

  // Redis away: the hold took 100 from a balance of 150 in the store; the request cost 200.
  const debited = await newUser("debited", 50);
  const [result] = await transact((tx) => settleBody(tx, [{ ...settlement("d1", debited.id, 200), debited: 100 }]));
  expect([result!.charged, result!.uncollected]).toEqual([150, 50]);
  expect(await quotaOf(debited.id)).toEqual([0, 150, 1]);
});

test("a cheap bound that does not fit many times over asks for the precise one", async () => {
  const user = await newUser("close", 1000);
  let refined = 0;
  await holdQuota({ requestId: "c1", userId: user.id, tokenId: 0, tokenLimited: false, amount: 40, refine: () => (refined++, 30) });
  expect([refined, reservationBook().heldFor(user.id)]).toEqual([1, 30]);
  const rich = await newUser("far", 1_000_000);
  await holdQuota({ requestId: "c2", userId: rich.id, tokenId: 0, tokenLimited: false, amount: 40, refine: () => (refined++, 30) });
  expect([refined, reservationBook().heldFor(rich.id)]).toEqual([1, 40]);
  await releaseHold("c1");
  await releaseHold("c2");
});
