// Session rows on the dialect the run uses (TEST_STORE): the listing shows only the user's live
// sessions of the current version, and the hourly cleanup deletes expired rows and rows a newer
// session_version ended (a correlated subquery both dialects must run).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { nowSeconds } from "../../src/clock.ts";
import {
  createSessionRecord,
  deleteEndedSessions,
  listUserSessions,
  sessionTokenHash,
} from "../../src/services/sessions/session-records.ts";
import { closeStore, db, openStore, t } from "../../src/store/client.ts";
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

const facts = { method: "password", address: "127.0.0.1", userAgent: "test" };

test("listing and cleanup keep exactly the live sessions of the current version", async () => {
  const [user] = await db.insert(t.users).values({ username: "rows", password: "x", session_version: 0 }).returning();
  const [other] = await db.insert(t.users).values({ username: "rows2", password: "x", session_version: 3 }).returning();
  const old = await createSessionRecord("old-version", user!, facts, 3600);
  await db.update(t.users).set({ session_version: 1 }).where(eq(t.users.id, user!.id));
  const current = { ...user!, session_version: 1 };
  const live = await createSessionRecord("live", current, facts, 3600);
  const expired = await createSessionRecord("expired", current, facts, 3600);
  await db
    .update(t.sessions)
    .set({ expires_at: nowSeconds() - 10 })
    .where(eq(t.sessions.id, expired.id));
  const othersLive = await createSessionRecord("others", other!, facts, 3600);

  expect((await listUserSessions(current)).map((row) => row.id)).toEqual([live.id]);
  expect(live.token_hash).toBe(sessionTokenHash("live"));
  expect(live.token_hash).not.toContain("live");

  await deleteEndedSessions();
  const left = (await db.select({ id: t.sessions.id }).from(t.sessions)).map((row) => row.id).sort((a, b) => a - b);
  expect(left).toEqual([live.id, othersLive.id].sort((a, b) => a - b));
  expect(left).not.toContain(old.id);
});
