// Opens the store (SQLite file by default, PostgreSQL when SQL_DSN is set), migrates it, and
// exposes the drizzle handle and tables every service uses. One store per process.
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle as drizzleSqlite, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { drizzle as drizzlePg } from "drizzle-orm/bun-sql";
import type { Config } from "../config.ts";
import * as sqliteTables from "./schema/sqlite.ts";
import * as pgTables from "./schema/pg.ts";
import type { Tables } from "./schema/define-schema.ts";
import { migratePg, migrateSqlite } from "./migrate.ts";
import { pgMigrations, sqliteMigrations } from "./migrations.generated.ts";
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

/** Runs a transaction body atomically; see transact.ts for how to write one. */
export function transact<R>(body: TransactionBody<R>): Promise<R> {
  return transactImpl(body);
}

export async function openStore(store: Config["store"]): Promise<void> {
  if (store.dialect === "sqlite") {
    if (store.path !== ":memory:") mkdirSync(dirname(store.path), { recursive: true });
    const client = new Database(store.path, { create: true, strict: true });
    // WAL lets readers run beside the writer; the busy timeout covers other processes such as
    // a backup; NORMAL sync keeps commits through an application crash (see docs/ARCHITECTURE.md).
    client.run("PRAGMA journal_mode = WAL");
    client.run("PRAGMA busy_timeout = 5000");
    client.run("PRAGMA foreign_keys = ON");
    client.run("PRAGMA synchronous = NORMAL");
    const sqliteDb = drizzleSqlite({ client });
    migrateSqlite(sqliteDb, sqliteMigrations);
    db = sqliteDb;
    t = sqliteTables as unknown as Tables;
    dialect = "sqlite";
    transactImpl = (body) => transactSqlite(sqliteDb, client, body);
    closeClient = async () => client.close();
    return;
  }
  const client = new SQL(store.url, { max: 20, idleTimeout: 30 });
  const pgDb = drizzlePg({ client });
  await migratePg(pgDb, client, pgMigrations);
  db = pgDb as unknown as Db;
  t = pgTables as unknown as Tables;
  dialect = "pg";
  transactImpl = (body) => transactPg(db, body);
  closeClient = () => client.close();
}

export async function closeStore(): Promise<void> {
  await closeClient();
}
