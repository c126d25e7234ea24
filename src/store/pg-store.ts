// The PostgreSQL side of the store (SQL_DSN): Bun's client, drizzle's PostgreSQL driver and the
// PostgreSQL tables, migrated under an advisory lock. client.ts imports this module only when
// PostgreSQL is configured, so a SQLite start never evaluates it.
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { migratePg } from "./migrate.ts";
import { pgMigrations } from "./migrations.generated.ts";
import * as pgTables from "./schema/pg.ts";

export async function openPgStore(url: string) {
  const client = new SQL(url, { max: 20, idleTimeout: 30 });
  const db = drizzle({ client });
  await migratePg(db, client, pgMigrations);
  return { db, tables: pgTables, close: () => client.close() };
}
