// BACKUP_DIR: a backup of the SQLite store every day, the newest BACKUP_KEEP kept. The job looks
// every hour (and at start) whether the newest backup in the folder is a day old, so a restart
// neither skips a day nor takes two. The copy is made by a child process running
// `switchyard backup <file>`: VACUUM INTO is one long synchronous call, and the server's own
// thread must go on answering meanwhile.
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import type { Job } from "../jobs/scheduler.ts";
import { logger } from "../logger.ts";
import { backupFileName, backupNamePattern } from "./sqlite-backup.ts";

const day = 24 * 3600 * 1000;
/** A little early rather than a little late: hourly checks drift by the time a backup takes. */
const dueAfter = day - 10 * 60 * 1000;

function backupsIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => backupNamePattern.test(name)).sort();
  } catch {
    return [];
  }
}

/** The command that runs this program's own `backup`: the executable itself, or bun with main.ts. */
function backupCommand(file: string): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.startsWith("B:/~BUN/");
  return compiled ? [process.execPath, "backup", file] : [process.execPath, join(import.meta.dir, "..", "main.ts"), "backup", file];
}

export async function backUpIfDue(config: Config, now = new Date()): Promise<void> {
  const dir = config.backup.dir;
  if (!dir || config.store.dialect !== "sqlite") return;
  const existing = backupsIn(dir);
  const newest = existing.at(-1);
  if (newest && now.getTime() - statSync(join(dir, newest)).mtimeMs < dueAfter) return;
  const file = join(dir, backupFileName(now));
  const child = Bun.spawn({ cmd: backupCommand(file), env: process.env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) {
    logger.error("daily backup failed", { file, output: (stderr || stdout).trim() });
    return;
  }
  logger.info("daily backup written", { file: stdout.trim() });
  const kept = backupsIn(dir);
  for (const old of kept.slice(0, Math.max(0, kept.length - config.backup.keep))) rmSync(join(dir, old), { force: true });
}

export const dailyBackupJob: Job = {
  name: "daily-backup",
  everySeconds: (config) => (config.backup.dir && config.store.dialect === "sqlite" ? 3600 : 0),
  runAtStart: true,
  run: (config) => backUpIfDue(config),
};
