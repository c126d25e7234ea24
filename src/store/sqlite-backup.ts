// Upgrading is replacing the executable and restarting it; the new version migrates the store
// at start. Before it changes an existing SQLite file, it writes a consistent copy next to it
// (VACUUM INTO: a complete, compacted database as of one moment, safe while other readers are
// open) and names it in the log, so a failed or regretted upgrade can be undone by putting the
// old executable and that copy back.
import type { Database } from "bun:sqlite";
import { basename, dirname, extname, join } from "node:path";
import type { EmbeddedMigration } from "./migrations.generated.ts";
import { createPrivateFile } from "./private-files.ts";

/**
 * The embedded migrations drizzle would apply to this database: those newer than the last one
 * it recorded (drizzle's own rule). A database with no tables at all has nothing to keep.
 */
export function pendingSqliteMigrations(client: Database, migrations: EmbeddedMigration[], migrationsTable: string): EmbeddedMigration[] {
  const tables = client.query("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
  if (tables.n === 0) return [];
  const recorded = client.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(migrationsTable);
  if (!recorded) return migrations;
  const last = client.query(`SELECT max(created_at) AS at FROM "${migrationsTable}"`).get() as { at: number | string | null };
  const lastAt = last.at === null ? -Infinity : Number(last.at);
  return migrations.filter((migration) => migration.when > lastAt);
}

/** e.g. data/switchyard.db -> data/switchyard.before-0003_log_filter_time_indexes.20261124T054000Z.db */
function backupPathFor(path: string, firstPending: string, now = new Date()): string {
  const extension = extname(path) || ".db";
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return join(dirname(path), `${basename(path, extname(path))}.before-${firstPending}.${stamp}${extension}`);
}

/** Writes the copy (readable by its owner alone, private-files.ts); returns its path. */
export function backupSqlite(client: Database, path: string, firstPending: string): string {
  const target = backupPathFor(path, firstPending);
  // VACUUM INTO fills an empty file; created first, its mode is ours, not the umask's.
  createPrivateFile(target);
  client.run("VACUUM INTO ?", [target]);
  return target;
}
