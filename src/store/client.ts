// Opens the store (SQLite file by default, PostgreSQL when SQL_DSN is set), migrates it, and
// exposes the drizzle handle and tables every service uses. One store per process.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle as drizzleSqlite, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { Config } from "../config.ts";
import * as sqliteTables from "./schema/sqlite.ts";
import type { Tables } from "./schema/define-schema.ts";
import { logger } from "../logger.ts";
import { migrateSqlite, migrationsTable } from "./migrate.ts";
import { backupSqlite, pendingSqliteMigrations } from "./sqlite-backup.ts";
import { sqliteMigrations } from "./migrations.generated.ts";
import { transactPg, transactSqlite, type TransactionBody } from "./transact.ts";

/**
 * The drizzle database, typed as SQLite whichever dialect runs (see schema/kit.ts). Use only
 * what both dialects share: await the query builders (never .get()/.all()/.run()), use
 * `.returning()` for written rows, and dialect.ts for the few SQL differences.
 */
export type Db = BunSQLiteDatabase;
export type Dialect = "sqlite" | "pg";

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

export async function openStore(store: Config["store"]): Promise<void> {
  if (store.dialect === "sqlite") {
    if (store.path !== ":memory:") mkdirSync(dirname(store.path), { recursive: true });
    const client = new Database(store.path, { create: true, strict: true });
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
