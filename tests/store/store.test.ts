// The store itself, on the dialect the run uses (TEST_STORE): migrations, SQLite settings,
// generator transactions (commit, rollback, no overspend under concurrency), dialect helpers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { closeStore, db, dialect, openStore, t, transact } from "../../src/store/client.ts";
import { containsText, countRows, isUniqueViolation, sumInteger } from "../../src/store/dialect.ts";
import { reusableStatement } from "../../src/store/reusable-statement.ts";
import { run } from "../../src/store/transact.ts";
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

describe("migrations", () => {
  test("create every table; running them again changes nothing", async () => {
    await openStore(
      store.dialect === "pg" ? { dialect: "pg", url: store.env.SQL_DSN! } : { dialect: "sqlite", path: store.env.SQLITE_PATH! },
    );
    for (const table of Object.values(t)) {
      const [row] = await db.select({ count: countRows() }).from(table);
      expect(row!.count).toBeGreaterThanOrEqual(0);
    }
  });
});

describe.if(process.env.TEST_STORE !== "pg")("SQLite settings", () => {
  test("WAL, foreign keys, busy timeout", async () => {
    const read = (pragma: string) => (db as any).$client.query(`pragma ${pragma}`).get();
    expect(read("journal_mode").journal_mode).toBe("wal");
    expect(read("foreign_keys").foreign_keys).toBe(1);
    expect(read("busy_timeout").timeout).toBeGreaterThanOrEqual(5000);
  });
});

describe("transact", () => {
  test("commits every statement of the body together", async () => {
    const user = await newUser("tx-commit", 100);
    await transact(function* (tx) {
      yield* run(
        tx
          .update(t.users)
          .set({ quota: sql`${t.users.quota} - 30` })
          .where(eq(t.users.id, user.id)),
      );
      yield* run(
        tx
          .update(t.users)
          .set({ used_quota: sql`${t.users.used_quota} + 30` })
          .where(eq(t.users.id, user.id)),
      );
    });
    const [after] = await db.select().from(t.users).where(eq(t.users.id, user.id));
    expect(after!.quota + after!.used_quota).toBe(100);
    expect(after!.used_quota).toBe(30);
  });

  test("rolls every statement back when the body throws", async () => {
    const user = await newUser("tx-rollback", 100);
    await expect(
      transact(function* (tx) {
        yield* run(tx.update(t.users).set({ quota: 0 }).where(eq(t.users.id, user.id)));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const [after] = await db.select().from(t.users).where(eq(t.users.id, user.id));
    expect(after!.quota).toBe(100);
  });

  test("conditional debits never overspend, however many run at once", async () => {
    const user = await newUser("tx-race", 1000);
    const debit = () =>
      transact(function* (tx) {
        const rows = yield* run(
          tx
            .update(t.users)
            .set({ quota: sql`${t.users.quota} - 150` })
            .where(sql`${t.users.id} = ${user.id} and ${t.users.quota} >= 150`)
            .returning({ quota: t.users.quota }),
        );
        if (rows.length === 0) throw new Error("insufficient");
        yield* run(tx.insert(t.logs).values({ user_id: user.id, type: 2, quota: 150, created_at: 1 }));
        return rows[0]!.quota;
      });
    const results = await Promise.allSettled(Array.from({ length: 40 }, debit));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(6);
    const [after] = await db.select().from(t.users).where(eq(t.users.id, user.id));
    expect(after!.quota).toBe(100);
    const [spent] = await db
      .select({ total: sumInteger(t.logs.quota) })
      .from(t.logs)
      .where(eq(t.logs.user_id, user.id));
    expect(spent!.total).toBe(900);
  });
});

describe("dialect helpers", () => {
  test("containsText is case-insensitive and treats % and _ literally", async () => {
    await newUser("Percent%Name", 0);
    await newUser("PercentXName", 0);
    const found = await db.select({ username: t.users.username }).from(t.users).where(containsText(t.users.username, "percent%"));
    expect(found.map((row) => row.username)).toEqual(["Percent%Name"]);
    const underscore = await db.select({ username: t.users.username }).from(t.users).where(containsText(t.users.username, "t_n"));
    expect(underscore).toEqual([]);
  });

  test("isUniqueViolation recognises the dialect's duplicate-key error", async () => {
    await newUser("dupe", 0);
    let caught: unknown;
    try {
      await newUser("dupe", 0);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeDefined();
    expect(isUniqueViolation(caught)).toBe(true);
    expect(isUniqueViolation(new Error("something else"))).toBe(false);
  });

  test("the store reports the dialect it runs", () => {
    expect(dialect).toBe(store.dialect);
  });
});

describe("reusable statements (the relay's money moves)", () => {
  const p = sql.placeholder;
  const insertLog = reusableStatement<unknown, { id: string; user: number; stream: boolean }>((tx) =>
    tx.insert(t.logs).values({ request_id: p("id"), user_id: p("user"), type: 2, quota: 7, is_stream: p("stream"), created_at: 1 }),
  );
  const takeLog = reusableStatement<{ quota: number; is_stream: boolean }[], { id: string }>((tx) =>
    tx
      .delete(t.logs)
      .where(eq(t.logs.request_id, p("id")))
      .returning({ quota: t.logs.quota, is_stream: t.logs.is_stream }),
  );

  test("bind new values on every call, encode and decode columns (booleans), and return typed rows", async () => {
    const user = await newUser("reusable", 0);
    for (const [id, stream] of [
      ["req-a", true],
      ["req-b", false],
    ] as const) {
      await transact(function* (tx) {
        yield* run(insertLog(tx, { id, user: user.id, stream }));
      });
    }
    const taken = await transact(function* (tx) {
      return [yield* run(takeLog(tx, { id: "req-a" })), yield* run(takeLog(tx, { id: "req-b" })), yield* run(takeLog(tx, { id: "req-a" }))];
    });
    expect(taken).toEqual([[{ quota: 7, is_stream: true }], [{ quota: 7, is_stream: false }], []]);
  });

  test("a missing value is an error, and the transaction rolls back", async () => {
    const user = await newUser("reusable-missing", 0);
    const attempt = transact(function* (tx) {
      yield* run(insertLog(tx, { id: "req-c", user: user.id, stream: false }));
      yield* run(insertLog(tx, { id: "req-d", user: user.id } as never));
    });
    await expect(attempt).rejects.toThrow();
    const left = await db.select().from(t.logs).where(eq(t.logs.request_id, "req-c"));
    expect(left).toEqual([]);
  });
});
