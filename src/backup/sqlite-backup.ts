// A consistent copy of the SQLite store, taken while the server goes on serving: VACUUM INTO
// reads one snapshot (WAL lets the server keep writing meanwhile) and writes a compact new
// database file, which is then checked before it is called a backup. The file is created first,
// new and readable by its owner alone (it holds every key and the session secret), never through
// a symbolic link and never over an existing file (store/private-files.ts).
import { Database } from "bun:sqlite";
import { existsSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { createPrivateFile, UnsafeTarget } from "../store/private-files.ts";

export class BackupError extends Error {}

/** switchyard-backup-20250102-030405.db: sorts by time, and the scheduled pruning recognises it. */
export const backupNamePattern = /^switchyard-backup-\d{8}-\d{6}\.db$/;

export function backupFileName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `switchyard-backup-${stamp}.db`;
}

export function defaultBackupPath(storePath: string, now = new Date()): string {
  return join(dirname(storePath), backupFileName(now));
}

export function backupSqlite(storePath: string, file: string): { path: string; bytes: number } {
  if (!existsSync(storePath)) throw new BackupError(`no SQLite store at ${storePath}`);
  try {
    createPrivateFile(file);
  } catch (error) {
    if (error instanceof UnsafeTarget) throw new BackupError(error.message);
    throw error;
  }
  const source = new Database(storePath, { readonly: true });
  try {
    // A writer holding the lock briefly must not fail the backup.
    source.run("PRAGMA busy_timeout = 10000");
    source.query("VACUUM INTO ?").run(file);
  } catch (error) {
    rmSync(file, { force: true });
    throw new BackupError(`backup of ${storePath} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    source.close();
  }
  const copy = new Database(file, { readonly: true });
  try {
    const [result] = copy.query("PRAGMA integrity_check").values() as [string][];
    if (result?.[0] !== "ok") throw new BackupError(`the copy at ${file} failed its integrity check: ${result?.[0]}`);
  } finally {
    copy.close();
  }
  return { path: file, bytes: statSync(file).size };
}
