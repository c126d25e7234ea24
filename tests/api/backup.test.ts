// Backups of the SQLite store: `switchyard backup [file]` while the server serves and writes,
// the daily backups of BACKUP_DIR with their retention, and a restored copy that serves. These
// run on a SQLite store whatever TEST_STORE says (PostgreSQL is backed up with pg_dump, which the
// command says).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { runSwitchyard } from "../helpers/run-command.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import type { TestStore } from "../helpers/test-store.ts";

function sqliteStore(folder: string, name = "store.db"): TestStore {
  const path = join(folder, name);
  return {
    dialect: "sqlite",
    env: { SQLITE_PATH: path },
    async query(text, ...params) {
      const reader = new Database(path);
      try {
        return reader.query(text).all(...(params as never[])) as never;
      } finally {
        reader.close();
      }
    },
    async dispose() {},
  };
}

function integrity(file: string): string {
  const database = new Database(file, { readonly: true });
  try {
    return (database.query("PRAGMA integrity_check").values() as string[][])[0]![0]!;
  } finally {
    database.close();
  }
}

describe("switchyard backup", () => {
  let folder: string;
  let server: TestServer;
  let root: ApiSession;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "switchyard-backup-"));
    server = await startTestServer({ store: sqliteStore(folder) });
    root = await rootSession(server.url);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test("a copy taken while the server writes is consistent, and a restored copy serves", async () => {
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const created = await root.post("/api/token/", { name: `t${written}`, remain_quota: 0, unlimited_quota: true, expired_time: -1 });
        expect(created.body.success).toBe(true);
        written++;
      }
    })();
    while (written < 20) await Bun.sleep(10);
    const file = join(folder, "copies", "during-writes.db");
    const result = await runSwitchyard(["backup", file], { SQLITE_PATH: join(folder, "store.db") });
    const countAtBackupEnd = written;
    writing = false;
    await writer;
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`backup written: ${file}`);
    expect(result.stdout).toContain("integrity ok");
    expect(integrity(file)).toBe("ok");
    const copy = new Database(file, { readonly: true });
    const [{ n, last }] = copy.query("select count(*) as n, max(id) as last from tokens").all() as { n: number; last: number }[];
    copy.close();
    // A snapshot: some of the tokens written so far, none half-written.
    expect(n).toBeGreaterThanOrEqual(20);
    expect(n).toBeLessThanOrEqual(countAtBackupEnd + 1);

    // Restore = put the file where SQLITE_PATH points and start.
    const restoredFolder = join(folder, "restored");
    mkdirSync(restoredFolder);
    copyFileSync(file, join(restoredFolder, "store.db"));
    const restored = await startTestServer({ store: sqliteStore(restoredFolder) });
    try {
      const session = await rootSession(restored.url);
      const tokens = await session.get("/api/token/?p=0&size=100");
      expect(tokens.body.success).toBe(true);
      expect(tokens.body.data.length).toBe(Math.min(n, 100));
      const newest = await session.get(`/api/token/${last}`);
      expect(newest.body).toMatchObject({ success: true, data: { id: last, name: `t${n - 1}` } });
    } finally {
      await restored.stop();
    }
  });

  test("an existing file is not overwritten; the default name goes beside the store", async () => {
    const taken = join(folder, "taken.db");
    writeFileSync(taken, "precious");
    const refused = await runSwitchyard(["backup", taken], { SQLITE_PATH: join(folder, "store.db") });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("already exists");
    expect(await Bun.file(taken).text()).toBe("precious");
    const result = await runSwitchyard(["backup"], { SQLITE_PATH: join(folder, "store.db") });
    expect(result.exitCode).toBe(0);
    expect(readdirSync(folder).some((name) => /^switchyard-backup-\d{8}-\d{6}\.db$/.test(name))).toBe(true);
  });

  test("PostgreSQL stores are pointed to pg_dump", async () => {
    const result = await runSwitchyard(["backup"], { SQL_DSN: "postgres://postgres@127.0.0.1:5432/test" });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("pg_dump");
  });
});

describe("daily backups switched on by the DailyBackupEnabled option", () => {
  test("turning it on takes a backup beside the store at once, and the retention count prunes", async () => {
    const folder = mkdtempSync(join(tmpdir(), "switchyard-daily-option-"));
    const dir = join(folder, "backups");
    mkdirSync(dir);
    const old = ["switchyard-backup-20200101-000000.db", "switchyard-backup-20200102-000000.db"];
    for (const name of old) {
      writeFileSync(join(dir, name), "old");
      utimesSync(join(dir, name), new Date("2020-01-02"), new Date("2020-01-02"));
    }
    const server = await startTestServer({ store: sqliteStore(folder) });
    try {
      const root = await rootSession(server.url);
      // Off by default: nothing is written while the server has been up.
      expect(readdirSync(dir).sort()).toEqual(old);
      expect((await root.put("/api/option/", { key: "DailyBackupKeep", value: 0 })).body.success).toBe(false);
      const saved = await root.put("/api/option/", [
        { key: "DailyBackupKeep", value: 2 },
        { key: "DailyBackupEnabled", value: true },
      ]);
      expect(saved.body.success).toBe(true);
      const deadline = Date.now() + 30_000;
      let names: string[] = [];
      while (Date.now() < deadline) {
        names = readdirSync(dir).sort();
        if (names.length === 2 && !names.includes(old[0]!)) break;
        await Bun.sleep(100);
      }
      expect(names).toHaveLength(2);
      expect(names[0]).toBe(old[1]!);
      expect(names[1]).toMatch(/^switchyard-backup-\d{8}-\d{6}\.db$/);
      expect(integrity(join(dir, names[1]!))).toBe("ok");

      // A lower count applies at once, without waiting for the next day's backup.
      expect((await root.put("/api/option/", { key: "DailyBackupKeep", value: 1 })).body.success).toBe(true);
      while (Date.now() < deadline && readdirSync(dir).length !== 1) await Bun.sleep(100);
      expect(readdirSync(dir)).toEqual([names[1]!]);
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("daily backups (BACKUP_DIR, BACKUP_KEEP)", () => {
  test("a backup is taken when the newest is a day old, and only the newest BACKUP_KEEP stay", async () => {
    const folder = mkdtempSync(join(tmpdir(), "switchyard-daily-"));
    const dir = join(folder, "backups");
    mkdirSync(dir);
    const old = ["switchyard-backup-20200101-000000.db", "switchyard-backup-20200102-000000.db", "switchyard-backup-20200103-000000.db"];
    for (const name of old) {
      writeFileSync(join(dir, name), "old");
      utimesSync(join(dir, name), new Date("2020-01-03"), new Date("2020-01-03"));
    }
    writeFileSync(join(dir, "notes.txt"), "not a backup");
    const server = await startTestServer({ store: sqliteStore(folder), env: { BACKUP_DIR: dir, BACKUP_KEEP: "2" } });
    try {
      const deadline = Date.now() + 30_000;
      let names: string[] = [];
      while (Date.now() < deadline) {
        names = readdirSync(dir).sort();
        if (names.length === 3 && !names.includes(old[1]!)) break;
        await Bun.sleep(100);
      }
      expect(names).toHaveLength(3);
      expect(names).toContain("notes.txt");
      expect(names).toContain(old[2]!);
      const fresh = names.find((name) => !old.includes(name) && name !== "notes.txt")!;
      expect(fresh).toMatch(/^switchyard-backup-\d{8}-\d{6}\.db$/);
      expect(integrity(join(dir, fresh))).toBe("ok");
      expect(server.output()).toContain("daily backup written");
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
