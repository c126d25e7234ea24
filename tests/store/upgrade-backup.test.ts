// Upgrading = replacing the executable and restarting (README "Self-hosting"). A store written
// by an older version (here: all migrations but the newest) is copied with VACUUM INTO before the
// new version migrates it; the log names the copy, the copy is the old database as it was, and a
// store that is up to date is not copied again. SQLite only (PostgreSQL has its own backups).
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrateSqlite } from "../../src/store/migrate.ts";
import { sqliteMigrations } from "../../src/store/migrations.generated.ts";
import { startTestServer } from "../helpers/test-server.ts";
import { createTestStore, testDialect, type TestStore } from "../helpers/test-store.ts";

let store: TestStore | undefined;
afterAll(() => store?.dispose());

const backupLine = /backed up the SQLite store before migrating it (\{.*\})/;

describe.skipIf(testDialect !== "sqlite")("upgrading a SQLite store", () => {
  test("an older store is copied next to itself before it is migrated; an up-to-date one is not", async () => {
    store = await createTestStore();
    const path = store.env.SQLITE_PATH!;
    const older = sqliteMigrations.slice(0, -1);
    const old = new Database(path, { create: true });
    migrateSqlite(old, older);
    old.run("insert into options (key, value) values ('Notice', 'written by the old version')");
    old.close();

    const first = await startTestServer({ store });
    await first.stop();
    const logged = backupLine.exec(first.output());
    expect(logged).not.toBeNull();
    const { backup, migrations } = JSON.parse(logged![1]!) as { backup: string; migrations: string[] };
    expect(migrations).toEqual([sqliteMigrations.at(-1)!.tag]);
    expect(dirname(backup)).toBe(dirname(path));
    expect(existsSync(backup)).toBe(true);

    const copy = new Database(backup, { readonly: true });
    expect(copy.query("select value from options where key = 'Notice'").get()).toEqual({ value: "written by the old version" });
    expect((copy.query("select count(*) as n from __drizzle_migrations").get() as { n: number }).n).toBe(older.length);
    copy.close();
    const [applied] = await store.query<{ n: number }>("select count(*) as n from __drizzle_migrations");
    expect(applied!.n).toBe(sqliteMigrations.length);

    const second = await startTestServer({ store });
    await second.stop();
    expect(second.output()).not.toMatch(backupLine);
    expect(readdirSync(dirname(path)).filter((name) => name.includes(".before-"))).toEqual([backup.slice(dirname(backup).length + 1)]);
  }, 60_000);

  test("a new store is created without a copy", async () => {
    const server = await startTestServer();
    await server.stop();
    expect(server.output()).not.toMatch(backupLine);
  }, 60_000);
});
