// Files that hold every key and the session secret (issue 23, item 9): with the most permissive
// umask there is (000), the SQLite store, its WAL and shared-memory files, the daily backups,
// `switchyard backup` and the copy taken before a migration are created 0600, and the folders
// made for them 0700; a store left readable by others by an older version is tightened at start.
// `switchyard backup` refuses a symbolic link (pointing nowhere, or at a file) and an existing
// file, and writes nothing through either. Before, everything was created 0644 (0666 under this
// umask) and a dangling link was written through. SQLite only: PostgreSQL keeps its own files.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { rootSession } from "../helpers/api-session.ts";
import { runSwitchyard } from "../helpers/run-command.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import type { TestStore } from "../helpers/test-store.ts";
import { migrateSqlite } from "../../src/store/migrate.ts";
import { sqliteMigrations } from "../../src/store/migrations.generated.ts";
import { reportFigures } from "../helpers/fault-world.ts";

setDefaultTimeout(120_000);

const modeOf = (path: string) => statSync(path).mode & 0o777;
const octal = (mode: number) => `0${mode.toString(8)}`;

function sqliteStore(path: string): TestStore {
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

describe("files created readable by their owner alone, whatever the umask", () => {
  let folder: string;
  let previousUmask: number;
  let server: TestServer | undefined;
  const modes: Record<string, string> = {};

  beforeAll(() => {
    // Children (the server, the commands) inherit it.
    previousUmask = process.umask(0o000);
    folder = mkdtempSync(join(tmpdir(), "switchyard-private-"));
  });
  afterAll(async () => {
    await server?.stop();
    process.umask(previousUmask);
    rmSync(folder, { recursive: true, force: true });
  });

  test("a new store in new folders, its WAL and shared memory, and a daily backup", async () => {
    const path = join(folder, "data", "nested", "store.db");
    server = await startTestServer({ store: sqliteStore(path) });
    const root = await rootSession(server.url);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect(existsSync(file)).toBe(true);
      modes[file.slice(folder.length)] = octal(modeOf(file));
      expect([file, octal(modeOf(file))]).toEqual([file, "0600"]);
    }
    for (const made of [join(folder, "data"), join(folder, "data", "nested")]) {
      modes[made.slice(folder.length)] = octal(modeOf(made));
      expect([made, octal(modeOf(made))]).toEqual([made, "0700"]);
    }
    expect((await root.put("/api/option/", { key: "DailyBackupEnabled", value: "true" })).body.success).toBe(true);
    const backups = join(dirname(path), "backups");
    const deadline = Date.now() + 30_000;
    while (!(existsSync(backups) && readdirSync(backups).length > 0) && Date.now() < deadline) await Bun.sleep(100);
    const [daily] = readdirSync(backups);
    expect(daily).toBeDefined();
    modes["/daily backup"] = octal(modeOf(join(backups, daily!)));
    modes["/backups folder"] = octal(modeOf(backups));
    expect([octal(modeOf(join(backups, daily!))), octal(modeOf(backups))]).toEqual(["0600", "0700"]);
    await server.stop();
    server = undefined;
  });

  test("switchyard backup into a new folder", async () => {
    const env = { SQLITE_PATH: join(folder, "data", "nested", "store.db") };
    const file = join(folder, "copies", "weekly", "copy.db");
    const result = await runSwitchyard(["backup", file], env);
    expect([result.exitCode, result.stderr]).toEqual([0, ""]);
    modes["/switchyard backup"] = octal(modeOf(file));
    expect([octal(modeOf(file)), octal(modeOf(dirname(file))), octal(modeOf(join(folder, "copies")))]).toEqual(["0600", "0700", "0700"]);
  });

  test("a store an older version left 0644 is tightened at start; the copy before a migration is 0600", async () => {
    const path = join(folder, "old", "store.db");
    // An older store: all migrations but the newest, created readable by everyone.
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    const older = new Database(path, { create: true });
    migrateSqlite(older, sqliteMigrations.slice(0, -1));
    older.close();
    chmodSync(path, 0o644);
    server = await startTestServer({ store: sqliteStore(path) });
    await server.stop();
    server = undefined;
    const copy = readdirSync(dirname(path)).find((name) => name.includes(".before-"));
    expect(copy).toBeDefined();
    modes["/copy before a migration"] = octal(modeOf(join(dirname(path), copy!)));
    modes["/older store after start"] = octal(modeOf(path));
    expect([octal(modeOf(join(dirname(path), copy!))), octal(modeOf(path))]).toEqual(["0600", "0600"]);
    // The folder was the operator's: left as it was.
    expect(octal(modeOf(dirname(path)))).toBe("0755");
    reportFigures("private-files", { umask: "000", ...modes });
  });
});

describe("switchyard backup never writes through a link or over a file", () => {
  let folder: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "switchyard-links-"));
    env = { SQLITE_PATH: join(folder, "store.db") };
    const server = await startTestServer({ store: sqliteStore(env.SQLITE_PATH!) });
    await server.stop();
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test("a dangling symbolic link is refused and its target never created", async () => {
    // Pointing into a folder that exists: writing through the link would succeed.
    const target = join(folder, "stolen.db");
    const link = join(folder, "dangling.db");
    symlinkSync(target, link);
    const result = await runSwitchyard(["backup", link], env);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${link} is a symbolic link`);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  test("a link to an existing file, and an existing file, are refused and left as they were", async () => {
    const precious = join(folder, "precious.txt");
    writeFileSync(precious, "precious");
    const link = join(folder, "to-precious.db");
    symlinkSync(precious, link);
    const throughLink = await runSwitchyard(["backup", link], env);
    expect([throughLink.exitCode, throughLink.stderr.includes("is a symbolic link")]).toEqual([1, true]);
    const over = await runSwitchyard(["backup", precious], env);
    expect([over.exitCode, over.stderr.includes("already exists")]).toEqual([1, true]);
    expect(readFileSync(precious, "utf8")).toBe("precious");
    reportFigures("backup-links", { dangling: "refused", linkToFile: "refused", existingFile: "refused" });
  });
});
