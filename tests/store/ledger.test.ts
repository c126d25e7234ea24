// The ledger's service (services/billing/quota-holds.ts) on the dialect the run uses: a hold ends
// exactly once whichever of settle and release comes first, a settlement charges the store once
// with its log, and a hold that ended is available again.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { drainLedger, holdQuota, openHolds, releaseHold, settleQuota } from "../../src/services/billing/quota-holds.ts";
import { reservationBook } from "../../src/services/billing/reservation-book.ts";
import { closeStore, db, openStore, t } from "../../src/store/client.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let store: TestStore;
beforeAll(async () => {
  store = await createTestStore();
  await openStore(store.dialect === "pg" ? { dialect: "pg", url: store.env.SQL_DSN! } : { dialect: "sqlite", path: store.env.SQLITE_PATH! });
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
  const [row] = await db.select({ quota: t.users.quota, used: t.users.used_quota, count: t.users.request_count }).from(t.users).where(eq(t.users.id, id));
  return [Number(row!.quota), Number(row!.used), Number(row!.count)];
};

const settlement = (requestId: string, userId: number, quota: number) => ({ requestId, userId, tokenId: 0, tokenLimited: false, channelId: 0, quota, log: null });

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
  await expect(holdQuota({ requestId: "l2", userId: user.id, tokenId: 0, tokenLimited: false, amount: 40 })).rejects.toThrow("用户额度不足");
  // A top-up written by anyone is seen at once.
  await db.update(t.users).set({ quota: 110 }).where(eq(t.users.id, user.id));
  await holdQuota({ requestId: "l2", userId: user.id, tokenId: 0, tokenLimited: false, amount: 40 });
  await settleQuota(settlement("l1", user.id, 70));
  await settleQuota(settlement("l2", user.id, 45));
  await drainLedger();
  // The second cost exceeded its hold by 5: the overdraft a hold below the cost allows.
  expect(await quotaOf(user.id)).toEqual([-5, 115, 2]);
  await expect(holdQuota({ requestId: "l3", userId: user.id, tokenId: 0, tokenLimited: false, amount: 0 })).rejects.toThrow("用户额度不足");
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
