// Opens the store (SQLite file by default, PostgreSQL when SQL_DSN is set), migrates it, and
// exposes the drizzle handle and tables every service uses. One store per process.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import type { Config } from "../config.ts";
import * as sqliteTables from "./schema/sqlite.ts";
import type { Tables } from "./schema/define-schema.ts";
import { logger } from "../logger.ts";
import { createPrivateFile, createPrivateFolder, tightenToPrivate } from "./private-files.ts";
import { migrateSqlite, migrationsTable } from "./migrate.ts";
import { backupSqlite, pendingSqliteMigrations } from "./sqlite-backup.ts";
import { sqliteMigrations } from "./migrations.generated.ts";
import type { Db, Dialect } from "./database.ts";
import { transactPg, transactSqlite, type TransactionBody } from "./transact.ts";

export type { Db, Dialect } from "./database.ts";

export let db: Db;
export let t: Tables;
export let dialect: Dialect;

let closeClient: () => Promise<void> = async () => {};
let transactImpl: <R>(body: TransactionBody<R>) => Promise<R>;
let exclusiveImpl: <R>(body: (tx: Db) => Promise<R>) => Promise<R>;

/** Runs a transaction body atomically; see transact.ts for how to write one. */
export function transact<R>(body: TransactionBody<R>): Promise<R> {
  return transactImpl(body);
}

/**
 * Runs an async body in one transaction, awaiting as it likes. Only for a process that has the
 * store to itself (the importer): on SQLite any other query of the process would run inside
 * this transaction. Serving code uses `transact`.
 */
export function exclusiveTransaction<R>(body: (tx: Db) => Promise<R>): Promise<R> {
  return exclusiveImpl(body);
}

/** The SQLite file is open in another process: a tool that needs it alone (the importer) stops. */
export class StoreInUse extends Error {}

/**
 * Takes the SQLite file for this connection alone until it closes: SQLite's exclusive locking
 * mode, asked for without waiting. Any other connection to the file (a serving Switchyard keeps
 * one open, WAL's shared memory marks it) makes it fail at once.
 */
function holdAlone(client: Database, path: string): void {
  try {
    client.run("PRAGMA locking_mode = EXCLUSIVE");
    client.run("PRAGMA busy_timeout = 0");
    client.run("BEGIN EXCLUSIVE");
    client.run("COMMIT");
  } catch (error) {
    client.close();
    if (error instanceof Error && /locked|busy/i.test(error.message)) throw new StoreInUse(`${path} is open in another process`);
    throw error;
  }
}

/**
 * The store's folder and file readable by their owner alone (private-files.ts): created so, or
 * tightened when an older version left them readable by others. WAL and shared memory follow.
 */
function keepPrivate(path: string): void {
  createPrivateFolder(dirname(path));
  if (!existsSync(path)) {
    createPrivateFile(path);
    return;
  }
  const tightened = [path, `${path}-wal`, `${path}-shm`].filter(tightenToPrivate);
  if (tightened.length > 0) logger.warn("the store was readable by other users: made readable by its owner alone", { files: tightened });
}

/** `alone`: the process must have the SQLite file to itself (the importer writes with its own ids). */
export async function openStore(store: Config["store"], options: { alone?: boolean } = {}): Promise<void> {
  if (store.dialect === "sqlite") {
    if (store.path !== ":memory:") keepPrivate(store.path);
    const client = new Database(store.path, { create: true, strict: true });
    if (options.alone && store.path !== ":memory:") holdAlone(client, store.path);
    // WAL lets readers run beside the writer; the busy timeout covers other processes such as
    // a backup; NORMAL sync keeps commits through an application crash (see docs/ARCHITECTURE.md).
    // NORMAL is set first: switching a new file to WAL is its first write, and under the default
    // (FULL) it costs extra syncs (about 10 ms of a first start on a busy disk).
    client.run("PRAGMA synchronous = NORMAL");
    client.run("PRAGMA journal_mode = WAL");
    client.run("PRAGMA busy_timeout = 5000");
    client.run("PRAGMA foreign_keys = ON");
    const sqliteDb = drizzleSqlite({ client });
    const pending = store.path === ":memory:" ? [] : pendingSqliteMigrations(client, sqliteMigrations, migrationsTable);
    if (pending.length > 0) {
      const backup = backupSqlite(client, store.path, pending[0]!.tag);
      logger.info("backed up the SQLite store before migrating it", { backup, migrations: pending.map((migration) => migration.tag) });
    }
    migrateSqlite(client, sqliteMigrations);
    db = sqliteDb;
    t = sqliteTables as unknown as Tables;
    dialect = "sqlite";
    transactImpl = (body) => transactSqlite(sqliteDb, client, body);
    exclusiveImpl = async (body) => {
      client.run("BEGIN IMMEDIATE");
      try {
        const result = await body(sqliteDb);
        client.run("COMMIT");
        return result;
      } catch (error) {
        client.run("ROLLBACK");
        throw error;
      }
    };
    closeClient = async () => client.close();
    return;
  }
  // Loaded only here: a SQLite start does not evaluate drizzle's PostgreSQL builders and tables.
  const pg = await import("./pg-store.ts");
  const opened = await pg.openPgStore(store.url);
  db = opened.db as unknown as Db;
  t = opened.tables as unknown as Tables;
  dialect = "pg";
  transactImpl = (body) => transactPg(db, body);
  exclusiveImpl = (body) => (opened.db as unknown as { transaction<R>(run: (tx: Db) => Promise<R>): Promise<R> }).transaction(body);
  closeClient = opened.close;
}

export async function closeStore(): Promise<void> {
  await closeClient();
}
