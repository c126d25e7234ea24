// The reservation books (services/billing/reservation-book.ts) behave alike in memory and on
// Redis: a reservation is admitted only when the balance read from the store, less every open
// reservation and every charge the snapshot missed, covers it. On Redis, two books with one prefix
// are two instances: they see each other's reservations, and those of an instance that is gone
// stop counting. The Redis half runs when TEST_REDIS_URL is set (CI sets it).
import { afterAll, describe, expect, test } from "bun:test";
import { createRedisState } from "../../src/cache/redis-state.ts";
import type { SharedState } from "../../src/cache/shared-state.ts";
import { createMemoryReservations } from "../../src/services/billing/memory-reservations.ts";
import { createRedisReservations } from "../../src/services/billing/redis-reservations.ts";
import type { ReservationBook, Snapshots } from "../../src/services/billing/reservation-types.ts";

type Pair = { first: ReservationBook; second: ReservationBook };

const opened: (ReservationBook | SharedState)[] = [];
afterAll(async () => {
  for (const item of opened.reverse()) await item.close();
});

const implementations: [string, () => Promise<Pair>][] = [
  [
    "memory",
    async () => {
      const book = createMemoryReservations();
      return { first: book, second: book };
    },
  ],
];
if (process.env.TEST_REDIS_URL) {
  implementations.push([
    "redis",
    async () => {
      const prefix = `switchyard-test-${crypto.randomUUID()}:`;
      const states = [
        await createRedisState(process.env.TEST_REDIS_URL!, prefix),
        await createRedisState(process.env.TEST_REDIS_URL!, prefix),
      ];
      opened.push(...states);
      const [first, second] = [
        await createRedisReservations(states[0]!.scripts!, "one"),
        await createRedisReservations(states[1]!.scripts!, "two"),
      ];
      opened.push(first, second);
      return { first, second };
    },
  ]);
}

let requests = 0;
const reservation = (userId: number, amount: number, tokenId = 0) => ({ requestId: `r${++requests}`, userId, tokenId, amount });
const balance =
  (user: number, version = 0, token?: [number, number]): (() => Snapshots) =>
  () => ({
    user: { balance: user, version },
    token: token ? { balance: token[0], version: token[1] } : undefined,
  });

for (const [name, open] of implementations) {
  describe(`${name} reservations`, () => {
    test("admitted while what is left covers the amount; a margin asks for that many times it", async () => {
      const { first, second } = await open();
      const outcomes = [];
      for (let index = 0; index < 4; index++)
        outcomes.push(await (index % 2 ? second : first).reserve(reservation(1, 30), 1, balance(100)));
      expect(outcomes).toEqual(["reserved", "reserved", "reserved", "user-short"]);
      expect(await first.reserve(reservation(2, 10), 11, balance(100))).toBe("user-short");
      expect(await first.reserve(reservation(2, 10), 10, balance(100))).toBe("reserved");
    });

    test("a balance below zero admits nothing, not even a free call", async () => {
      const { first } = await open();
      expect(await first.reserve(reservation(3, 0), 1, balance(-1))).toBe("user-short");
      expect(await first.reserve(reservation(3, 0), 1, balance(0))).toBe("reserved");
    });

    test("a limited token is reserved with its user, and refuses on its own", async () => {
      const { first, second } = await open();
      expect(await first.reserve(reservation(4, 60, 9), 1, balance(1000, 0, [100, 0]))).toBe("reserved");
      expect(await second.reserve(reservation(4, 60, 9), 1, balance(1000, 0, [100, 0]))).toBe("token-short");
      // The user's own balance still has room for calls that do not use the token.
      expect(await second.reserve(reservation(4, 900), 1, balance(1000))).toBe("reserved");
      expect(await second.reserve(reservation(4, 50), 1, balance(1000))).toBe("user-short");
    });

    test("concurrent reservations on both instances never exceed the balance", async () => {
      const { first, second } = await open();
      const outcomes = await Promise.all(
        Array.from({ length: 60 }, (_, index) => (index % 2 ? second : first).reserve(reservation(5, 7), 1, balance(70))),
      );
      expect(outcomes.filter((outcome) => outcome === "reserved")).toHaveLength(10);
    });

    test("a released reservation's amount is available again", async () => {
      const { first, second } = await open();
      const held = reservation(6, 80);
      expect(await first.reserve(held, 1, balance(100))).toBe("reserved");
      expect(await second.reserve(reservation(6, 30), 1, balance(100))).toBe("user-short");
      await first.released(held);
      expect(await second.reserve(reservation(6, 30), 1, balance(100))).toBe("reserved");
      expect([...new Set([first, second])].reduce((sum, book) => sum + book.heldFor(6), 0)).toBe(30);
    });

    test("a snapshot read before a settlement does not count the settled money twice", async () => {
      const { first, second } = await open();
      const held = reservation(7, 30);
      expect(await first.reserve(held, 1, balance(100, 0))).toBe("reserved");
      // A second request reads the balance (100 at version 0), then the first one settles: the
      // store now says 70 at version 30 and its reservation ends, before the check runs.
      let answer!: (snapshots: Snapshots) => void;
      const late = second.reserve(reservation(7, 80), 1, () => new Promise<Snapshots>((resolve) => (answer = resolve)));
      await Bun.sleep(10);
      await first.settled(held, { cost: 30, userVersion: 30 });
      answer(balance(100, 0)());
      expect(await late).toBe("user-short");
      expect(await second.reserve(reservation(7, 70), 1, balance(70, 30))).toBe("reserved");
    });

    test("after a refund the refunded quota can be reserved at once; a snapshot from before it admits no more than it should", async () => {
      const { first, second } = await open();
      // Charges are remembered while a read is pending (memory) or for a while (Redis).
      let answer!: (snapshots: Snapshots) => void;
      const pending = second.reserve(reservation(9, 1), 1, () => new Promise<Snapshots>((resolve) => (answer = resolve)));
      await Bun.sleep(10);
      const held = reservation(9, 30);
      expect(await first.reserve(held, 1, balance(100, 0))).toBe("reserved");
      await first.settled(held, { cost: 30, userVersion: 30 });
      // 10 of the 30 come back: the store says 80 at version (used quota) 20.
      await first.refunded({ userId: 9, tokenId: 0, amount: 10 });
      const all = reservation(9, 80);
      expect(await second.reserve(all, 1, balance(80, 20))).toBe("reserved");
      await second.released(all);
      // A snapshot read before the charge (100 at version 0) misses the refund too: 70 at most.
      expect(await first.reserve(reservation(9, 71), 1, balance(100, 0))).toBe("user-short");
      const seventy = reservation(9, 70);
      expect(await first.reserve(seventy, 1, balance(100, 0))).toBe("reserved");
      await first.released(seventy);
      answer(balance(100, 0)());
      expect(await pending).toBe("reserved");
    });
  });
}

describe.if(Boolean(process.env.TEST_REDIS_URL))("redis: an instance that is gone", () => {
  test("holds nothing any more: its reservations stop counting once it is no longer alive", async () => {
    const { first, second } = await implementations[1]![1]();
    expect(await first.reserve(reservation(8, 90), 1, balance(100))).toBe("reserved");
    expect(await second.reserve(reservation(8, 20), 1, balance(100))).toBe("user-short");
    // What a killed process leaves: its heartbeat stops and the mark expires (here: removed at once).
    await first.close();
    expect(await second.reserve(reservation(8, 20), 1, balance(100))).toBe("reserved");
  });
});
