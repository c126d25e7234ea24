// The type of the drizzle database every query is written against, apart from the client that
// opens it (client.ts), so that modules the client itself uses (transact.ts) can name it.
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

/**
 * The drizzle database, typed as SQLite whichever dialect runs (see schema/kit.ts). Use only
 * what both dialects share: await the query builders (never .get()/.all()/.run()), use
 * `.returning()` for written rows, and dialect.ts for the few SQL differences.
 */
export type Db = BunSQLiteDatabase;
export type Dialect = "sqlite" | "pg";
