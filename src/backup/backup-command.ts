// `switchyard backup [file]`: one consistent copy of the SQLite store (see sqlite-backup.ts).
// PostgreSQL has its own tool for this; the command says so instead of pretending.
import type { Config } from "../config.ts";
import { backupSqlite, BackupError, defaultBackupPath } from "./sqlite-backup.ts";

export async function backupCommand(config: Config, file?: string): Promise<number> {
  if (config.store.dialect !== "sqlite") {
    console.error("switchyard backup: the store is PostgreSQL (SQL_DSN); back it up with pg_dump (see README, Backups)");
    return 1;
  }
  try {
    const written = backupSqlite(config.store.path, file ?? defaultBackupPath(config.store.path));
    console.log(`backup written: ${written.path} (${written.bytes} bytes, integrity ok)`);
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`switchyard backup: ${error.message}`);
    return 1;
  }
}
